// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the commands that only the driver of the whole function sends
 * (bring-up, pages, UARs, registers, adapter identity), which mlx5-emu's
 * firmware model leaves out because its kernel model never sends them,
 * and the capability profile the kernel's driver is given.
 *
 * The function needs no pages from the host (QUERY_PAGES answers 0, so
 * MANAGE_PAGES never carries any), keeps no register state (ACCESS_REG
 * answers the port registers below, zeros for the rest), and accepts
 * SET_HCA_CAP without changing what QUERY_HCA_CAP reports.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"

#include "cx.h"
#include "prm_device.h"
#include "prm_layout.h"

static void cx_ok(uint8_t *out, size_t outlen)
{
	memset(out, 0, outlen);
}

static void cx_query_adapter(uint8_t *out, size_t outlen)
{
	static const char psid[] = "MT_0000000222";

	cx_ok(out, outlen);
	if (outlen < PRM_QUERY_ADAPTER_OUT_LEN)
		return;
	prm_set(out, PRM_QUERY_ADAPTER_VENDOR_ID, 0x0002c9);
	memcpy(out + PRM_QUERY_ADAPTER_PSID_BYTE, psid, sizeof(psid) - 1);
}

static void cx_alloc_uar(CxState *s, uint8_t *out, size_t outlen)
{
	unsigned int i;

	cx_ok(out, outlen);
	for (i = CX_UAR_FIRST; i < CX_MAX_UARS; i++) {
		if (!test_bit(i, s->uar_used)) {
			set_bit(i, s->uar_used);
			prm_set(out, PRM_ALLOC_UAR_OUT_UAR, i);
			return;
		}
	}
	out[0] = EMU_FW_STATUS_NO_RESOURCES;
}

static void cx_dealloc_uar(CxState *s, const uint8_t *in, uint8_t *out,
			   size_t outlen)
{
	unsigned int i = prm_get(in, PRM_DEALLOC_UAR_IN_UAR);

	cx_ok(out, outlen);
	if (i >= CX_MAX_UARS || !test_bit(i, s->uar_used)) {
		out[0] = EMU_FW_STATUS_BAD_RES_STATE;
		return;
	}
	clear_bit(i, s->uar_used);
}

/*
 * The port registers the IB driver reads for ibv_query_port(): a 4x EDR
 * InfiniBand link (what the port's speed and width in mlx5-emu's model
 * say), MTU 4096, VLs 0-7; an Ethernet port's PTYS and every port's
 * PAOS are cx_port.c's.  Every other register reads as zeros; writes
 * change nothing.  The answer echoes the request's data (index fields
 * such as local_port) and fills the fields above.
 */
#define CX_IB_WIDTH_4X 0x2
#define CX_IB_PROTO_EDR 0x20
#define CX_MTU_BYTES 4096
#define CX_VL_0_7 4

/* Register data lengths the fields below need. */
#define CX_PAOS_LEN 0x10
#define CX_PTYS_LEN 0x2c
#define CX_PMTU_LEN 0x10
#define CX_PVLC_LEN 0x10

static void cx_access_reg(CxState *s, const uint8_t *in, size_t inlen,
			  uint8_t *out, size_t outlen)
{
	uint8_t *reg = out + PRM_ACCESS_REG_OUT_DATA_BYTE;
	size_t n;

	cx_ok(out, outlen);
	if (outlen <= PRM_ACCESS_REG_OUT_DATA_BYTE ||
	    inlen <= PRM_ACCESS_REG_IN_DATA_BYTE)
		return;
	n = MIN(inlen - PRM_ACCESS_REG_IN_DATA_BYTE,
		outlen - PRM_ACCESS_REG_OUT_DATA_BYTE);
	memcpy(reg, in + PRM_ACCESS_REG_IN_DATA_BYTE, n);
	switch (prm_get(in, PRM_ACCESS_REG_ID)) {
	case PRM_REG_PAOS:
		if (n >= CX_PAOS_LEN)
			cx_port_paos(s, prm_get(in, PRM_HDR_OP_MOD) ==
				     PRM_ACCESS_REG_WRITE, reg);
		break;
	case PRM_REG_PTYS:
		if (n < CX_PTYS_LEN)
			return;
		if (cx_is_eth(s)) {
			cx_port_ptys_eth(s, reg);
			break;
		}
		prm_set(reg, PRM_PTYS_IB_WIDTH_CAP, CX_IB_WIDTH_4X);
		prm_set(reg, PRM_PTYS_IB_PROTO_CAP, CX_IB_PROTO_EDR);
		prm_set(reg, PRM_PTYS_IB_WIDTH_OPER, CX_IB_WIDTH_4X);
		prm_set(reg, PRM_PTYS_IB_PROTO_OPER, CX_IB_PROTO_EDR);
		break;
	case PRM_REG_PMTU:
		if (n < CX_PMTU_LEN)
			return;
		prm_set(reg, PRM_PMTU_MAX_MTU, CX_MTU_BYTES);
		prm_set(reg, PRM_PMTU_ADMIN_MTU, CX_MTU_BYTES);
		prm_set(reg, PRM_PMTU_OPER_MTU, CX_MTU_BYTES);
		break;
	case PRM_REG_PVLC:
		if (n < CX_PVLC_LEN)
			return;
		prm_set(reg, PRM_PVLC_VL_HW_CAP, CX_VL_0_7);
		prm_set(reg, PRM_PVLC_VL_OPER, CX_VL_0_7);
		break;
	default:
		break;
	}
}

/*
 * The virtio emulation capabilities, a fact of the device's BAR: one
 * doorbell per page.  Every other field is 0, so no virtio queue event
 * mode and no Ethernet offload: mlx5_core adds no vDPA device.
 */
static bool cx_caps_vdpa(const uint8_t *in, uint8_t *out, size_t outlen)
{
	uint8_t *cap = out + PRM_CAP_AREA_BYTE;

	if (prm_get(in, PRM_HDR_OP_MOD) >> 1 != PRM_CAP_TYPE_VDPA_EMULATION)
		return false;
	cx_ok(out, outlen);
	if (outlen < PRM_QUERY_HCA_CAP_MIN_OUT_LEN)
		return true;
	prm_set(cap, PRM_CAP_VDPA_LOG_DOORBELL_STRIDE, CX_VAR_PAGE_SHIFT);
	prm_set(cap, PRM_CAP_VDPA_LOG_DOORBELL_BAR_SIZE, CX_LOG_VAR_PAGES);
	prm_set64(cap, PRM_CAP_VDPA_DOORBELL_BAR_OFFSET, CX_VAR_BAR_OFFSET);
	return true;
}

bool cx_hca_exec(CxState *s, const uint8_t *in, size_t inlen,
		 uint8_t *out, size_t outlen)
{
	uint16_t opcode = in[0] << 8 | in[1];

	switch (opcode) {
	case PRM_OP_ENABLE_HCA:
		s->hca_enabled = true;
		cx_ok(out, outlen);
		return true;
	case PRM_OP_DISABLE_HCA:
		s->hca_enabled = false;
		cx_ok(out, outlen);
		return true;
	case PRM_OP_INIT_HCA:
		s->hca_inited = true;
		cx_ok(out, outlen);
		cx_port_changed(s);
		return true;
	case PRM_OP_TEARDOWN_HCA:
		s->hca_inited = false;
		cx_ok(out, outlen);
		cx_port_changed(s);
		return true;
	case PRM_OP_SET_ISSI:
	case PRM_OP_SET_HCA_CAP:
	case PRM_OP_MANAGE_PAGES:
	case PRM_OP_QUERY_PAGES:	/* num_pages 0: nothing needed */
		cx_ok(out, outlen);
		return true;
	case PRM_OP_ACCESS_REG:
		cx_access_reg(s, in, inlen, out, outlen);
		return true;
	case PRM_OP_QUERY_ADAPTER:
		cx_query_adapter(out, outlen);
		return true;
	case PRM_OP_ALLOC_UAR:
		cx_alloc_uar(s, out, outlen);
		return true;
	case PRM_OP_DEALLOC_UAR:
		cx_dealloc_uar(s, in, out, outlen);
		return true;
	case PRM_OP_QUERY_HCA_CAP:
		return cx_caps_vdpa(in, out, outlen);
	default:
		return false;
	}
}

/*
 * What the kernel's driver is given beyond mlx5-emu's device: XRC (the
 * IB driver refuses to probe without it); no e-switch or vport group
 * management (no SR-IOV, no representors); the port's facts through HCA
 * vport context queries (ib_virt) rather than MAD_IFC SMPs; no UMR
 * translation updates (umr_modify_entity_size_disabled), so the IB
 * driver keeps its MR cache empty and registers memory by CREATE_MKEY.
 */
void cx_caps_profile(CxState *s, const uint8_t *in, uint8_t *out,
		     size_t outlen)
{
	unsigned int type = prm_get(in, PRM_HDR_OP_MOD) >> 1;
	uint8_t *cap = out + PRM_CAP_AREA_BYTE;

	if (type != PRM_CAP_TYPE_GENERAL ||
	    outlen < PRM_QUERY_HCA_CAP_MIN_OUT_LEN)
		return;
	prm_set(cap, PRM_CAP_XRC, 1);
	prm_set(cap, PRM_CAP_VPORT_GROUP_MANAGER, 0);
	prm_set(cap, PRM_CAP_ESWITCH_MANAGER, 0);
	prm_set(cap, PRM_CAP_IB_VIRT, 1);
	prm_set(cap, PRM_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED, 1);
	/* (the kernel offers VARs only on a device with virtio queues) */
	prm_set64(cap, PRM_CAP_GENERAL_OBJ_TYPES,
		  prm_get64(cap, PRM_CAP_GENERAL_OBJ_TYPES) |
		  1ull << PRM_OBJ_TYPE_VIRTIO_NET_Q);
}
