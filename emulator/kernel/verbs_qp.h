/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A verbs QP as the kernel model keeps it (the uobject's priv), shared by
 * create/destroy (verbs_qp.c) and modify/query (verbs_qp_modify.c).
 */
#ifndef MLX5_EMU_VERBS_QP_H
#define MLX5_EMU_VERBS_QP_H

#include <stdbool.h>
#include <stdint.h>

struct emu_device;
struct emu_uobj;

struct emu_qp {
	uint32_t qpn;
	uint16_t uid;
	uint8_t type;		/* enum emu_qpt */
	uint8_t state;		/* enum emu_qps */
	uint8_t port;
	bool sq_sig_all;
	uint32_t rq_wqe_cnt;
	uint32_t rq_max_gs;
	uint32_t max_inline_data;
	struct emu_uobj *pd, *send_cq, *recv_cq;
};

#endif
