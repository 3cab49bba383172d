// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: event queues.  CREATE_EQ records the EQ's pages, size, MSI-X
 * vector and event mask; an event is written as a 64-byte EQE at the
 * producer index, its owner bit the parity of the pass over the ring
 * (the driver starts every entry at 1, so the first pass writes 0), and
 * the EQ's vector fires.  The consumer index the driver writes to its
 * UAR page is not read back: the driver's command, async and page EQs
 * see at most a few events at a time, far fewer than their size.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci.h"

#include "cx.h"
#include "prm_device.h"

static void cx_eq_status(uint8_t *out, uint8_t status)
{
	out[0] = status;
}

static bool cx_eq_create(CxState *s, const uint8_t *in, size_t inlen,
			 uint8_t *out, size_t outlen)
{
	unsigned int log_size = prm_get(in, PRM_CREATE_EQ_LOG_SIZE);
	unsigned int log_pg = prm_get(in, PRM_CREATE_EQ_LOG_PAGE_SIZE);
	size_t ring = (size_t)PRM_EQE_LEN << log_size;
	size_t pgsz = (size_t)4096 << log_pg;
	unsigned int npages, i, eqn;
	struct cx_eq *eq = NULL;

	for (eqn = 0; eqn < CX_MAX_EQS; eqn++) {
		if (!s->eqs[eqn].live) {
			eq = &s->eqs[eqn];
			break;
		}
	}
	npages = (ring + pgsz - 1) / pgsz;
	if (!eq) {
		cx_eq_status(out, EMU_FW_STATUS_NO_RESOURCES);
		return true;
	}
	if (log_size > 22 || npages > CX_EQ_MAX_PAGES ||
	    inlen < PRM_CREATE_EQ_PAS_BYTE + (size_t)npages * 8 ||
	    prm_get(in, PRM_CREATE_EQ_INTR) >= CX_MSIX_VECTORS) {
		cx_eq_status(out, EMU_FW_STATUS_BAD_PARAM);
		return true;
	}
	memset(eq, 0, sizeof(*eq));
	eq->live = true;
	eq->eqn = eqn;
	eq->log_size = log_size;
	eq->intr = prm_get(in, PRM_CREATE_EQ_INTR);
	eq->page_offset = prm_get(in, PRM_CREATE_EQ_PAGE_OFFSET) * 64;
	eq->npages = npages;
	eq->page_shift = 12 + log_pg;
	for (i = 0; i < 4; i++)
		eq->event_mask[i] =
			ldq_be_p(in + PRM_CREATE_EQ_EVENT_MASK_BYTE + 8 * i);
	for (i = 0; i < npages; i++)
		eq->pages[i] = ldq_be_p(in + PRM_CREATE_EQ_PAS_BYTE + 8 * i);
	cx_eq_status(out, EMU_FW_STATUS_OK);
	prm_set(out, PRM_CREATE_EQ_OUT_EQN, eqn);
	(void)outlen;
	return true;
}

static bool cx_eq_destroy(CxState *s, const uint8_t *in, uint8_t *out)
{
	unsigned int eqn = prm_get(in, PRM_DESTROY_EQ_EQN);

	if (eqn >= CX_MAX_EQS || !s->eqs[eqn].live) {
		cx_eq_status(out, EMU_FW_STATUS_BAD_RES_STATE);
		return true;
	}
	s->eqs[eqn].live = false;
	cx_eq_status(out, EMU_FW_STATUS_OK);
	return true;
}

bool cx_eq_exec(CxState *s, const uint8_t *in, size_t inlen,
		uint8_t *out, size_t outlen)
{
	uint16_t opcode = in[0] << 8 | in[1];

	if (opcode == PRM_OP_CREATE_EQ)
		return cx_eq_create(s, in, inlen, out, outlen);
	if (opcode == PRM_OP_DESTROY_EQ)
		return cx_eq_destroy(s, in, out);
	return false;
}

static struct cx_eq *cx_eq_for(CxState *s, unsigned int event_type)
{
	unsigned int i;

	for (i = 0; i < CX_MAX_EQS; i++) {
		struct cx_eq *eq = &s->eqs[i];

		if (eq->live &&
		    eq->event_mask[event_type / 64] >> (event_type % 64) & 1)
			return eq;
	}
	return NULL;
}

bool cx_eq_wants(CxState *s, unsigned int event_type)
{
	return cx_eq_for(s, event_type) != NULL;
}

static void cx_eq_write(CxState *s, struct cx_eq *eq, unsigned int event_type,
			unsigned int sub_type, const uint8_t *data,
			size_t len);

void cx_eq_post(CxState *s, unsigned int event_type, unsigned int sub_type,
		const uint8_t *data, size_t len)
{
	cx_eq_write(s, cx_eq_for(s, event_type), event_type, sub_type, data,
		    len);
}

void cx_eq_post_eqn(CxState *s, unsigned int eqn, unsigned int event_type,
		    unsigned int sub_type, const uint8_t *data, size_t len)
{
	unsigned int i;

	for (i = 0; i < CX_MAX_EQS; i++)
		if (s->eqs[i].live && s->eqs[i].eqn == eqn) {
			cx_eq_write(s, &s->eqs[i], event_type, sub_type,
				    data, len);
			return;
		}
}

/* One EQE on eq (none when eq is NULL) and its MSI-X vector. */
static void cx_eq_write(CxState *s, struct cx_eq *eq, unsigned int event_type,
			unsigned int sub_type, const uint8_t *data,
			size_t len)
{
	PCIDevice *pdev = PCI_DEVICE(s);
	uint8_t eqe[PRM_EQE_LEN] = { 0 };
	uint32_t slot;
	uint64_t off, pgsz, addr;

	if (!eq)
		return;
	slot = eq->producer & ((1u << eq->log_size) - 1);
	eqe[PRM_EQE_TYPE] = event_type;
	eqe[PRM_EQE_SUB_TYPE] = sub_type;
	memcpy(eqe + PRM_EQE_DATA, data, MIN(len, (size_t)28));
	eqe[PRM_EQE_OWNER] = eq->producer >> eq->log_size & 1;
	off = eq->page_offset + (uint64_t)slot * PRM_EQE_LEN;
	pgsz = 1ull << eq->page_shift;
	if (off / pgsz >= eq->npages)
		return;
	addr = eq->pages[off / pgsz] + off % pgsz;
	/* the body first, the owner byte last: the driver polls on it */
	pci_dma_write(pdev, addr, eqe, PRM_EQE_LEN - 1);
	pci_dma_write(pdev, addr + PRM_EQE_OWNER, eqe + PRM_EQE_OWNER, 1);
	eq->producer++;
	s->events++;
	if (msix_enabled(pdev))
		msix_notify(pdev, eq->intr);
}

void cx_eq_reset(CxState *s)
{
	memset(s->eqs, 0, sizeof(s->eqs));
}
