// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the command queue.  Each doorbell bit names a 64-byte entry
 * of the queue whose address the driver wrote to the init segment; the
 * entry carries the first 16 bytes of input and output inline and the
 * rest in chains of 512-byte mailboxes.  A command runs to completion
 * inside the doorbell write: its output and the entry's ownership are
 * written back, then, when a live EQ asks for command events, one EQE
 * names the entries completed and the EQ's MSI-X vector fires.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/pci/pci.h"

#include "cx.h"
#include "prm_device.h"

/* The largest mailbox chain accepted: what the kernel's largest command
 * (a 4 KB capability area, CREATE_* with a page list) needs, with room. */
#define CX_CMD_MAX_LEN (1024 * 1024)
/* Delivery statuses (status_own >> 1): a missing mailbox, a bad length. */
#define CX_DELIVERY_BAD_BLOCK 0x3
#define CX_DELIVERY_BAD_LENGTH 0x7

static uint64_t cx_cmdq_base(CxState *s)
{
	return (uint64_t)s->cmdq_addr_h << 32 | s->cmdq_addr_l;
}

/* Copies len bytes at offset 16 onward between buf and a mailbox chain. */
static bool cx_mbox_xfer(CxState *s, uint64_t ptr, uint8_t *buf, size_t len,
			 bool to_device)
{
	PCIDevice *pdev = PCI_DEVICE(s);
	size_t done = 0;

	while (done < len) {
		size_t n = MIN(len - done, (size_t)PRM_MBOX_DATA_LEN);
		uint64_t next;

		if (!ptr)
			return false;
		if (to_device)
			pci_dma_read(pdev, ptr, buf + done, n);
		else
			pci_dma_write(pdev, ptr, buf + done, n);
		pci_dma_read(pdev, ptr + PRM_MBOX_NEXT, &next, sizeof(next));
		ptr = be64_to_cpu(next);
		done += n;
	}
	return true;
}

static void cx_cmd_run(CxState *s, uint8_t *in, size_t inlen, uint8_t *out,
		       size_t outlen)
{
	uint16_t opcode = in[0] << 8 | in[1];

	if (cx_eq_exec(s, in, inlen, out, outlen) ||
	    cx_hca_exec(s, in, inlen, out, outlen))
		return;
	if (emu_fw_exec(s->fw, in, inlen, out, outlen)) {
		out[0] = EMU_FW_STATUS_BAD_INPUT_LEN;
		return;
	}
	cx_wq_cmd(s, in, inlen, out);	/* the data path's queues */
	if (opcode == PRM_OP_QUERY_HCA_CAP && out[0] == EMU_FW_STATUS_OK)
		cx_caps_profile(s, in, out, outlen);
}

/* Runs entry idx; its delivery status (0, or the entry was malformed). */
static uint8_t cx_cmd_entry(CxState *s, unsigned int idx)
{
	PCIDevice *pdev = PCI_DEVICE(s);
	uint64_t ent = cx_cmdq_base(s) + ((uint64_t)idx << CX_CMDQ_LOG_STRIDE);
	uint8_t lay[64];
	uint32_t inlen, outlen;
	uint8_t *in, *out;
	uint8_t status = 0;

	pci_dma_read(pdev, ent, lay, sizeof(lay));
	inlen = ldl_be_p(lay + PRM_CMD_INLEN);
	outlen = ldl_be_p(lay + PRM_CMD_OUTLEN);
	/* commands as short as 8 bytes each way exist (ENABLE_HCA's output) */
	if (lay[PRM_CMD_TYPE] != PRM_CMD_TYPE_PCI || inlen < 8 || outlen < 8 ||
	    inlen > CX_CMD_MAX_LEN || outlen > CX_CMD_MAX_LEN)
		return CX_DELIVERY_BAD_LENGTH;
	inlen = MAX(inlen, PRM_CMD_INLINE_LEN);
	outlen = MAX(outlen, PRM_CMD_INLINE_LEN);
	in = g_malloc0(inlen);
	out = g_malloc0(outlen);
	memcpy(in, lay + PRM_CMD_IN_INLINE, PRM_CMD_INLINE_LEN);
	if (!cx_mbox_xfer(s, ldq_be_p(lay + PRM_CMD_IN_PTR),
			  in + PRM_CMD_INLINE_LEN, inlen - PRM_CMD_INLINE_LEN,
			  true)) {
		status = CX_DELIVERY_BAD_BLOCK;
		goto out;
	}
	cx_cmd_run(s, in, inlen, out, outlen);
	s->commands++;
	if (s->trace)
		fprintf(stderr, "mlx5-cx: cmd %u opcode 0x%x op_mod 0x%x "
			"in %u out %u status 0x%x synd 0x%x\n", idx,
			in[0] << 8 | in[1], in[6] << 8 | in[7], inlen, outlen,
			out[0], ldl_be_p(out + 4));
	memcpy(lay + PRM_CMD_OUT_INLINE, out, PRM_CMD_INLINE_LEN);
	pci_dma_write(pdev, ent + PRM_CMD_OUT_INLINE, out, PRM_CMD_INLINE_LEN);
	if (!cx_mbox_xfer(s, ldq_be_p(lay + PRM_CMD_OUT_PTR),
			  out + PRM_CMD_INLINE_LEN,
			  outlen - PRM_CMD_INLINE_LEN, false))
		status = CX_DELIVERY_BAD_BLOCK;
out:
	g_free(in);
	g_free(out);
	return status;
}

void cx_cmdq_doorbell(CxState *s, uint32_t mask)
{
	PCIDevice *pdev = PCI_DEVICE(s);
	uint32_t done = 0;
	unsigned int i;

	for (i = 0; i < (1u << CX_CMDQ_LOG_SIZE); i++) {
		uint64_t ent = cx_cmdq_base(s) +
			       ((uint64_t)i << CX_CMDQ_LOG_STRIDE);
		/* the EQ that exists when the command starts is told */
		bool evented = cx_eq_wants(s, PRM_EVENT_TYPE_CMD);
		uint8_t own;

		if (!(mask & (1u << i)))
			continue;
		own = cx_cmd_entry(s, i) << 1;	/* owner bit 0: software's */
		pci_dma_write(pdev, ent + PRM_CMD_STATUS_OWN, &own, 1);
		if (evented && cx_eq_wants(s, PRM_EVENT_TYPE_CMD))
			done |= 1u << i;
	}
	if (done) {
		uint8_t data[28] = { 0 };

		stl_be_p(data, done);
		cx_eq_post(s, PRM_EVENT_TYPE_CMD, 0, data, sizeof(data));
	}
}
