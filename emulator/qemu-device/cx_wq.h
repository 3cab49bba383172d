/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-cx: the data path's queues as the device keeps them (cx_wq.c),
 * shared by the send side (cx_tx.c) and the receive side (cx_rx.c).
 */
#ifndef MLX5_CX_WQ_H
#define MLX5_CX_WQ_H

#include "cx.h"

/* A ring in host pages: 2^log_entries entries of 2^log_stride bytes. */
struct cx_ring {
	uint64_t *pages;
	unsigned int npages;
	unsigned int page_shift;
	uint64_t offset;	/* of the first entry in the first page */
	unsigned int log_entries;
	unsigned int log_stride;
	uint64_t dbr;		/* the doorbell record's address */
};

struct cx_cq {
	struct cx_ring ring;
	uint32_t eqn;
	uint32_t producer;	/* CQEs written */
	bool armed;
};

/* A send or receive queue made on a page list. */
struct cx_wq {
	struct cx_ring ring;
	uint32_t cqn;
	uint16_t consumer;	/* SQ: next basic block; RQ: next WQE */
	bool ready;
	bool strip_vlan;	/* RQ: not vsd, the tag goes to the CQE */
};

/* The bus address of entry idx (modulo the ring's size); 0: none. */
uint64_t cx_ring_entry(const struct cx_ring *r, uint32_t idx);

/*
 * Writes a CQE on CQ cqn (the owner bit set here) and, if the CQ is
 * armed, its completion event.  False when there is no such CQ or it is
 * full (the CQE would overwrite one the driver has not consumed).
 */
bool cx_cq_post(CxState *s, uint32_t cqn, uint8_t *cqe);

/* The largest frame the device moves: a 9,000-byte MTU and headers. */
#define CX_MAX_FRAME 9216

/* A frame the device sent or received went nowhere: said with why when
 * tracing (CX_TRACE). */
void cx_frame_dropped(CxState *s, const char *why);

/* What an LSO WQE may carry: 64 KB of payload (max_lso_cap) and headers. */
#define CX_MAX_LSO (65536 + 256)

/* cx_tx.c: the frame(s) of one SEND or LSO WQE, put on the cable. */
void cx_tx_wqe(CxState *s, uint32_t sqn, const struct cx_wq *sq,
	       uint16_t index, unsigned int ds, bool lso);
/* cx_rx.c: a frame from the cable, steered, scattered, completed. */
void cx_rx_frame(CxState *s, const uint8_t *frame, size_t len);

#endif
