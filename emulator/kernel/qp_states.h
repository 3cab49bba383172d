/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * QP states and attribute masks as uverbs carries them (enum ib_qp_state,
 * enum ib_qp_attr_mask of include/rdma/ib_verbs.h; libibverbs's IBV_QP_*
 * have the same values), and the rules of a modify: the IB spec's
 * transition table with its required and optional attributes
 * (ib_modify_qp_is_ok()) and what mlx5 makes of a transition (its
 * firmware command and which attributes it passes as optional ones).
 */
#ifndef MLX5_EMU_QP_STATES_H
#define MLX5_EMU_QP_STATES_H

#include <stdbool.h>
#include <stdint.h>

enum emu_qps {
	EMU_QPS_RESET, EMU_QPS_INIT, EMU_QPS_RTR, EMU_QPS_RTS, EMU_QPS_SQD,
	EMU_QPS_SQE, EMU_QPS_ERR,
};

enum emu_qp_attr {
	EMU_QP_STATE = 1 << 0,
	EMU_QP_CUR_STATE = 1 << 1,
	EMU_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
	EMU_QP_ACCESS_FLAGS = 1 << 3,
	EMU_QP_PKEY_INDEX = 1 << 4,
	EMU_QP_PORT = 1 << 5,
	EMU_QP_QKEY = 1 << 6,
	EMU_QP_AV = 1 << 7,
	EMU_QP_PATH_MTU = 1 << 8,
	EMU_QP_TIMEOUT = 1 << 9,
	EMU_QP_RETRY_CNT = 1 << 10,
	EMU_QP_RNR_RETRY = 1 << 11,
	EMU_QP_RQ_PSN = 1 << 12,
	EMU_QP_MAX_QP_RD_ATOMIC = 1 << 13,
	EMU_QP_ALT_PATH = 1 << 14,
	EMU_QP_MIN_RNR_TIMER = 1 << 15,
	EMU_QP_SQ_PSN = 1 << 16,
	EMU_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	EMU_QP_PATH_MIG_STATE = 1 << 18,
	EMU_QP_CAP = 1 << 19,
	EMU_QP_DEST_QPN = 1 << 20,
	EMU_QP_RATE_LIMIT = 1 << 25,
};

/* IB_USER_LEGACY_LAST_QP_ATTR_MASK and IB_USER_LAST_QP_ATTR_MASK */
#define EMU_QP_LEGACY_LAST EMU_QP_DEST_QPN
#define EMU_QP_LAST EMU_QP_RATE_LIMIT

/* The QP types the model creates (enum ib_uverbs_qp_type values). */
enum emu_qpt {
	EMU_QPT_RC = 2,
	EMU_QPT_UC = 3,
	EMU_QPT_UD = 4,
};

/* ib_modify_qp_is_ok() */
bool emu_qp_modify_ok(unsigned int cur, unsigned int next, unsigned int type,
		      uint32_t mask);

/*
 * mlx5's optab[cur][next]: the firmware command of a transition, 0 when
 * mlx5 has none (the modify fails with EINVAL).
 */
uint16_t emu_qp_transition_op(unsigned int cur, unsigned int next);

/*
 * mlx5's opt_mask[cur][next][st] applied to ib_mask_to_mlx5_opt(mask):
 * the opt_param_mask the transition command carries.
 */
uint32_t emu_qp_optpar(unsigned int cur, unsigned int next, unsigned int type,
		       uint32_t mask);

#endif
