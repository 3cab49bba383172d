/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The verbs QP the tests create: both queues on one CQ, wr work requests
 * of one scatter/gather entry each way.
 */
#ifndef MLX5_SHARE_TEST_QP_ATTR_H
#define MLX5_SHARE_TEST_QP_ATTR_H

#include <infiniband/verbs.h>

static inline struct ibv_qp_init_attr test_qp_attr(enum ibv_qp_type type,
						   struct ibv_cq *cq,
						   uint32_t wr)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = type,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = wr, .max_recv_wr = wr,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ia;
}

#endif
