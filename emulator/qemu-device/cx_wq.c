// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the data path's queues.  The device keeps, for each CQ, SQ
 * and RQ the kernel made on a page list (what it learns from the
 * commands the firmware model accepted), the ring's pages and counters.
 * A send doorbell (the control segment's first 8 bytes written to a
 * BlueFlame buffer of a UAR page) makes the device read the SQ's
 * doorbell record and execute every WQE up to its producer counter
 * (cx_tx.c puts a send WQE's frame on the cable); a WQE that asks for a
 * completion gets a CQE, with the owner bit of the CQ's pass, and an
 * armed CQ (its UAR doorbell) then gets one completion EQE on its EQ and
 * that EQ's MSI-X vector.  An RQ has no doorbell: the receive side
 * (cx_rx.c) reads its doorbell record when a frame arrives.  Queues in
 * DEVX UMEMs are not executed.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/pci/pci.h"

#include "cx_wq.h"
#include "prm_device.h"
#include "prm_layout.h"

static void cx_ring_free(struct cx_ring *r)
{
	g_free(r->pages);
}

static void cx_cq_free(gpointer p)
{
	struct cx_cq *cq = p;

	cx_ring_free(&cq->ring);
	g_free(cq);
}

static void cx_wq_free(gpointer p)
{
	struct cx_wq *wq = p;

	cx_ring_free(&wq->ring);
	g_free(wq);
}

void cx_wq_init(CxState *s)
{
	s->cqs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				       cx_cq_free);
	s->sqs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				       cx_wq_free);
	s->rqs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				       cx_wq_free);
	s->tx_buf = g_malloc(CX_MAX_LSO);
	s->tx_seg = g_malloc(CX_MAX_FRAME);
	s->rx_buf = g_malloc(CX_MAX_FRAME);
}

void cx_wq_reset(CxState *s)
{
	g_hash_table_remove_all(s->cqs);
	g_hash_table_remove_all(s->sqs);
	g_hash_table_remove_all(s->rqs);
}

void cx_wq_exit(CxState *s)
{
	g_hash_table_destroy(s->cqs);
	g_hash_table_destroy(s->sqs);
	g_hash_table_destroy(s->rqs);
	g_free(s->tx_buf);
	g_free(s->tx_seg);
	g_free(s->rx_buf);
}

void cx_frame_dropped(CxState *s, const char *why)
{
	if (s->trace)
		fprintf(stderr, "mlx5-cx: frame dropped: %s\n", why);
}

/* The page list at pas_byte of a create's input, as many as the ring
 * needs (the firmware model checked that the input holds them). */
static void cx_ring_take(struct cx_ring *r, const uint8_t *in, size_t inlen,
			 size_t pas_byte)
{
	uint64_t len = (uint64_t)1 << (r->log_entries + r->log_stride);
	unsigned int i;

	r->npages = (r->offset + len + (1ull << r->page_shift) - 1) >>
		    r->page_shift;
	r->pages = g_new0(uint64_t, r->npages);
	for (i = 0; i < r->npages; i++) {
		size_t at = pas_byte + (size_t)i * PRM_PAS_ENTRY_LEN;

		if (at + PRM_PAS_ENTRY_LEN <= inlen)
			r->pages[i] = ldq_be_p(in + at);
	}
}

/* The bus address of entry idx (taken modulo the ring's size). */
uint64_t cx_ring_entry(const struct cx_ring *r, uint32_t idx)
{
	uint64_t off = r->offset +
		       ((uint64_t)(idx & ((1u << r->log_entries) - 1))
			<< r->log_stride);

	if ((off >> r->page_shift) >= r->npages)
		return 0;
	return r->pages[off >> r->page_shift] +
	       (off & ((1ull << r->page_shift) - 1));
}

static void cx_cq_create(CxState *s, const uint8_t *in, size_t inlen,
			 uint32_t cqn)
{
	struct cx_cq *cq;

	if (prm_get(in, PRM_CQ_UMEM_VALID) ||
	    prm_get(in, PRM_CQC_CQE_SZ) != 0)	/* 64-byte CQEs only */
		return;
	cq = g_new0(struct cx_cq, 1);
	cq->ring.page_shift = 12 + prm_get(in, PRM_CQC_LOG_PAGE_SIZE);
	cq->ring.offset = (uint64_t)prm_get(in, PRM_CQC_PAGE_OFFSET) * 64;
	cq->ring.log_entries = prm_get(in, PRM_CQC_LOG_CQ_SIZE);
	cq->ring.log_stride = 6;
	cq->ring.dbr = prm_get64(in, PRM_CQC_DBR_ADDR);
	cq->eqn = prm_get(in, PRM_CQC_C_EQN);
	cx_ring_take(&cq->ring, in, inlen, PRM_CQ_PAS_BYTE);
	g_hash_table_replace(s->cqs, GUINT_TO_POINTER(cqn), cq);
}

/* An SQ or RQ: the work queue at the same place in both contexts. */
static void cx_wq_create(CxState *s, GHashTable *table, const uint8_t *in,
			 size_t inlen, uint32_t qn)
{
	struct cx_wq *wq;

	if (prm_get(in, PRM_WQ_UMEM_VALID))
		return;
	wq = g_new0(struct cx_wq, 1);
	wq->ring.page_shift = 12 + prm_get(in, PRM_WQ_LOG_PG_SZ);
	wq->ring.offset = (uint64_t)prm_get(in, PRM_WQ_PAGE_OFFSET) * 64;
	wq->ring.log_entries = prm_get(in, PRM_WQ_LOG_SZ);
	wq->ring.log_stride = prm_get(in, PRM_WQ_LOG_STRIDE);
	wq->ring.dbr = prm_get64(in, PRM_WQ_DBR_ADDR);
	wq->cqn = prm_get(in, PRM_WQC_CQN);
	if (table == s->rqs) {
		wq->strip_vlan = !prm_get(in, PRM_RQC_VSD);
	}
	cx_ring_take(&wq->ring, in, inlen, PRM_WQ_PAS_BYTE);
	g_hash_table_replace(table, GUINT_TO_POINTER(qn), wq);
}

/* MODIFY_SQ and MODIFY_RQ: the state, and an RQ's VLAN stripping. */
static void cx_wq_modify(CxState *s, GHashTable *table, const uint8_t *in)
{
	struct cx_wq *wq = g_hash_table_lookup(table, GUINT_TO_POINTER(
					       prm_get(in, PRM_IN_OBJN)));

	if (!wq)
		return;
	wq->ready = prm_get(in, PRM_WQC_STATE) == PRM_WQ_STATE_RDY;
	if (table == s->rqs &&
	    prm_get(in, PRM_OBJ_MODIFY_BITMASK_LO) & PRM_MODIFY_RQ_VSD)
		wq->strip_vlan = !prm_get(in, PRM_RQC_VSD);
}

void cx_wq_cmd(CxState *s, const uint8_t *in, size_t inlen,
	       const uint8_t *out)
{
	uint16_t opcode = in[0] << 8 | in[1];

	if (out[0] != EMU_FW_STATUS_OK)
		return;
	switch (opcode) {
	case PRM_OP_CREATE_CQ:
		cx_cq_create(s, in, inlen, prm_get(out, PRM_OUT_OBJN));
		break;
	case PRM_OP_DESTROY_CQ:
		g_hash_table_remove(s->cqs, GUINT_TO_POINTER(
				    prm_get(in, PRM_IN_OBJN)));
		break;
	case PRM_OP_CREATE_SQ:
		cx_wq_create(s, s->sqs, in, inlen, prm_get(out, PRM_OUT_OBJN));
		break;
	case PRM_OP_CREATE_RQ:
		cx_wq_create(s, s->rqs, in, inlen, prm_get(out, PRM_OUT_OBJN));
		break;
	case PRM_OP_MODIFY_SQ:
		cx_wq_modify(s, s->sqs, in);
		break;
	case PRM_OP_MODIFY_RQ:
		cx_wq_modify(s, s->rqs, in);
		break;
	case PRM_OP_DESTROY_SQ:
		g_hash_table_remove(s->sqs, GUINT_TO_POINTER(
				    prm_get(in, PRM_IN_OBJN)));
		break;
	case PRM_OP_DESTROY_RQ:
		g_hash_table_remove(s->rqs, GUINT_TO_POINTER(
				    prm_get(in, PRM_IN_OBJN)));
		break;
	default:
		break;
	}
}

/* An armed CQ with a CQE past ci: one completion event, disarmed. */
static void cx_cq_notify(CxState *s, uint32_t cqn, struct cx_cq *cq,
			 uint32_t ci)
{
	uint8_t data[28] = { 0 };

	if (!cq->armed || (cq->producer & PRM_CQ_DB_CI_MASK) == ci)
		return;
	cq->armed = false;
	stl_be_p(data + PRM_EQE_COMP_CQN, cqn);
	cx_eq_post_eqn(s, cq->eqn, PRM_EVENT_TYPE_COMP, 0, data,
		       sizeof(data));
}

static uint32_t cx_cq_ci(CxState *s, const struct cx_cq *cq)
{
	uint32_t ci = 0;

	pci_dma_read(PCI_DEVICE(s), cq->ring.dbr, &ci, sizeof(ci));
	return be32_to_cpu(ci) & PRM_CQ_DB_CI_MASK;
}

bool cx_cq_post(CxState *s, uint32_t cqn, uint8_t *cqe)
{
	struct cx_cq *cq = g_hash_table_lookup(s->cqs,
					       GUINT_TO_POINTER(cqn));
	uint32_t ci;
	uint64_t addr;

	if (!cq)
		return false;
	ci = cx_cq_ci(s, cq);
	if (((cq->producer - ci) & PRM_CQ_DB_CI_MASK) >=
	    1u << cq->ring.log_entries)
		return false;
	addr = cx_ring_entry(&cq->ring, cq->producer);
	if (!addr)
		return false;
	cqe[PRM_CQE_OP_OWN] = (cqe[PRM_CQE_OP_OWN] & ~1) |
			      (cq->producer >> cq->ring.log_entries & 1);
	/* the body first, the owner byte last: the driver polls on it */
	pci_dma_write(PCI_DEVICE(s), addr, cqe, PRM_CQE_LEN - 1);
	pci_dma_write(PCI_DEVICE(s), addr + PRM_CQE_OP_OWN,
		      cqe + PRM_CQE_OP_OWN, 1);
	cq->producer++;
	cx_cq_notify(s, cqn, cq, ci);
	return true;
}

/* A requester CQE for WQE wqe_counter of queue qn. */
static void cx_cq_req(CxState *s, uint32_t cqn, uint32_t qn,
		      uint16_t wqe_counter)
{
	uint8_t cqe[PRM_CQE_LEN] = { 0 };

	stl_be_p(cqe + PRM_CQE_SOP_QPN, qn & 0xffffff);
	stw_be_p(cqe + PRM_CQE_WQE_COUNTER, wqe_counter);
	cqe[PRM_CQE_OP_OWN] = PRM_CQE_REQ << PRM_CQE_OPCODE_SHIFT;
	cx_cq_post(s, cqn, cqe);
}

/* Executes the SQ's WQEs up to the producer its doorbell record holds. */
static void cx_sq_doorbell(CxState *s, uint32_t sqn)
{
	struct cx_wq *sq = g_hash_table_lookup(s->sqs,
					       GUINT_TO_POINTER(sqn));
	PCIDevice *pdev = PCI_DEVICE(s);
	uint32_t rec = 0;
	uint16_t pc;
	unsigned int budget;

	if (!sq || !sq->ready)
		return;
	pci_dma_read(pdev, sq->ring.dbr + PRM_SQ_DBR_SEND, &rec, sizeof(rec));
	pc = be32_to_cpu(rec);
	/* (at most one ring's worth: a bad counter cannot loop us) */
	for (budget = 1u << sq->ring.log_entries;
	     sq->consumer != pc && budget; budget--) {
		uint8_t ctrl[16];
		uint64_t addr = cx_ring_entry(&sq->ring, sq->consumer);
		unsigned int ds, bbs;

		if (!addr)
			return;
		pci_dma_read(pdev, addr, ctrl, sizeof(ctrl));
		ds = ctrl[PRM_WQE_CTRL_DS] & PRM_WQE_CTRL_DS_MASK;
		bbs = MAX(1u, DIV_ROUND_UP(ds * PRM_WQE_DS_LEN, PRM_WQE_BB));
		if (s->trace)
			fprintf(stderr, "mlx5-cx: sq 0x%x wqe %u opcode 0x%x "
				"ds %u\n", sqn, sq->consumer,
				ctrl[PRM_WQE_CTRL_OPCODE], ds);
		if (ctrl[PRM_WQE_CTRL_OPCODE] == PRM_WQE_OP_SEND ||
		    ctrl[PRM_WQE_CTRL_OPCODE] == PRM_WQE_OP_LSO)
			cx_tx_wqe(s, sqn, sq, sq->consumer, ds,
				  ctrl[PRM_WQE_CTRL_OPCODE] == PRM_WQE_OP_LSO);
		if (ctrl[PRM_WQE_CTRL_FM_CE_SE] & PRM_WQE_CTRL_CQ_UPDATE)
			cx_cq_req(s, sq->cqn, sqn, sq->consumer);
		sq->consumer += bbs;
		s->wqes++;
	}
}

void cx_wq_uar_write(CxState *s, hwaddr off, uint64_t val, unsigned int size)
{
	uint8_t b[8];
	uint32_t cqn;
	struct cx_cq *cq;

	if (size != 8)
		return;
	stq_le_p(b, val);	/* the bytes as the driver stored them */
	if (off == PRM_UAR_CQ_DB) {
		cqn = ldl_be_p(b + 4) & 0xffffff;
		cq = g_hash_table_lookup(s->cqs, GUINT_TO_POINTER(cqn));
		if (!cq)
			return;
		cq->armed = true;
		cx_cq_notify(s, cqn, cq, ldl_be_p(b) & PRM_CQ_DB_CI_MASK);
		return;
	}
	if (off >= PRM_UAR_BF_FIRST && !(off % PRM_UAR_BF_LEN))
		cx_sq_doorbell(s, ldl_be_p(b + 4) >> 8);
}
