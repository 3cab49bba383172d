// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The transition rules of a QP modify (see qp_states.h): the IB spec's
 * table as drivers/infiniband/core/verbs.c holds it, for the QP types
 * the model creates, and mlx5's transition commands and optional
 * parameters (drivers/infiniband/hw/mlx5/qp.c).
 */
#include <assert.h>

#include "prm_layout.h"
#include "prm_opcodes.h"
#include "qp_states.h"

#define NSTATES (EMU_QPS_ERR + 1)

/* The rules' column of a QP type: the types are numbered in a row. */
enum { T_RC, T_UC, T_UD, T_COUNT };
static_assert(EMU_QPT_UC - EMU_QPT_RC == T_UC &&
	      EMU_QPT_UD - EMU_QPT_RC == T_UD, "QP types in a row");

struct rule {
	bool valid;
	uint32_t req[T_COUNT];
	uint32_t opt[T_COUNT];
};

#define ACC EMU_QP_ACCESS_FLAGS
#define PKEY EMU_QP_PKEY_INDEX
#define PORT EMU_QP_PORT
#define QKEY EMU_QP_QKEY
#define CUR EMU_QP_CUR_STATE
#define ALT EMU_QP_ALT_PATH
#define MIG EMU_QP_PATH_MIG_STATE
#define RNRT EMU_QP_MIN_RNR_TIMER

/* What RESET -> INIT requires and INIT -> INIT may change. */
#define INIT_ATTRS                                                          \
	{ [T_UD] = PKEY | PORT | QKEY, [T_UC] = PKEY | PORT | ACC,          \
	  [T_RC] = PKEY | PORT | ACC }

/* What a move to RTS may change, but from SQE. */
#define TO_RTS_OPT                                                          \
	{ [T_UD] = CUR | QKEY, [T_UC] = CUR | ALT | ACC | MIG,              \
	  [T_RC] = CUR | ALT | ACC | RNRT | MIG }

/*
 * Every transition but those to RESET, which every state may make, and
 * to ERR, which every state past RESET may make; neither takes an
 * attribute.
 */
static const struct rule rules[NSTATES][NSTATES] = {
	[EMU_QPS_RESET] = {
		[EMU_QPS_INIT] = { .valid = true, .req = INIT_ATTRS },
	},
	[EMU_QPS_INIT] = {
		[EMU_QPS_INIT] = { .valid = true, .opt = INIT_ATTRS },
		[EMU_QPS_RTR] = {
			.valid = true,
			.req = { [T_UC] = EMU_QP_AV | EMU_QP_PATH_MTU |
					  EMU_QP_DEST_QPN | EMU_QP_RQ_PSN,
				 [T_RC] = EMU_QP_AV | EMU_QP_PATH_MTU |
					  EMU_QP_DEST_QPN | EMU_QP_RQ_PSN |
					  EMU_QP_MAX_DEST_RD_ATOMIC | RNRT },
			.opt = { [T_UD] = PKEY | QKEY,
				 [T_UC] = ALT | ACC | PKEY,
				 [T_RC] = ALT | ACC | PKEY },
		},
	},
	[EMU_QPS_RTR] = {
		[EMU_QPS_RTS] = {
			.valid = true,
			.req = { [T_UD] = EMU_QP_SQ_PSN,
				 [T_UC] = EMU_QP_SQ_PSN,
				 [T_RC] = EMU_QP_TIMEOUT | EMU_QP_RETRY_CNT |
					  EMU_QP_RNR_RETRY | EMU_QP_SQ_PSN |
					  EMU_QP_MAX_QP_RD_ATOMIC },
			.opt = TO_RTS_OPT,
		},
	},
	[EMU_QPS_RTS] = {
		[EMU_QPS_RTS] = { .valid = true, .opt = TO_RTS_OPT },
		[EMU_QPS_SQD] = {
			.valid = true,
			.opt = { [T_UD] = EMU_QP_EN_SQD_ASYNC_NOTIFY,
				 [T_UC] = EMU_QP_EN_SQD_ASYNC_NOTIFY,
				 [T_RC] = EMU_QP_EN_SQD_ASYNC_NOTIFY },
		},
	},
	[EMU_QPS_SQD] = {
		[EMU_QPS_RTS] = { .valid = true, .opt = TO_RTS_OPT },
		[EMU_QPS_SQD] = {
			.valid = true,
			.opt = { [T_UD] = PKEY | QKEY,
				 [T_UC] = EMU_QP_AV | ALT | ACC | PKEY | MIG,
				 [T_RC] = PORT | EMU_QP_AV | EMU_QP_TIMEOUT |
					  EMU_QP_RETRY_CNT |
					  EMU_QP_RNR_RETRY |
					  EMU_QP_MAX_QP_RD_ATOMIC |
					  EMU_QP_MAX_DEST_RD_ATOMIC | ALT |
					  ACC | PKEY | RNRT | MIG },
		},
	},
	[EMU_QPS_SQE] = {
		[EMU_QPS_RTS] = {
			.valid = true,
			.opt = { [T_UD] = CUR | QKEY, [T_UC] = CUR | ACC },
		},
	},
};

static int type_index(unsigned int type)
{
	if (type < EMU_QPT_RC || type > EMU_QPT_UD)
		return -1;
	return (int)(type - EMU_QPT_RC);
}

bool emu_qp_modify_ok(unsigned int cur, unsigned int next, unsigned int type,
		      uint32_t mask)
{
	const struct rule *r;
	int t = type_index(type);
	uint32_t req, opt;

	if (cur >= NSTATES || next >= NSTATES || t < 0)
		return false;
	/* the current state may be named only where the spec lets it */
	if ((mask & CUR) && cur != EMU_QPS_RTR && cur != EMU_QPS_RTS &&
	    cur != EMU_QPS_SQD && cur != EMU_QPS_SQE)
		return false;
	if (next == EMU_QPS_RESET ||
	    (next == EMU_QPS_ERR && cur != EMU_QPS_RESET))
		return !(mask & ~EMU_QP_STATE);
	r = &rules[cur][next];
	if (!r->valid)
		return false;
	req = r->req[t];
	opt = r->opt[t];
	if ((mask & req) != req)
		return false;
	return !(mask & ~(req | opt | EMU_QP_STATE));
}

uint16_t emu_qp_transition_op(unsigned int cur, unsigned int next)
{
	/* mlx5's optab[][] but its moves to RESET and ERR */
	static const uint16_t ops[NSTATES][NSTATES] = {
		[EMU_QPS_RESET][EMU_QPS_INIT] = PRM_OP_RST2INIT_QP,
		[EMU_QPS_INIT][EMU_QPS_INIT] = PRM_OP_INIT2INIT_QP,
		[EMU_QPS_INIT][EMU_QPS_RTR] = PRM_OP_INIT2RTR_QP,
		[EMU_QPS_RTR][EMU_QPS_RTS] = PRM_OP_RTR2RTS_QP,
		[EMU_QPS_RTS][EMU_QPS_RTS] = PRM_OP_RTS2RTS_QP,
		[EMU_QPS_SQE][EMU_QPS_RTS] = PRM_OP_SQERR2RTS_QP,
	};

	if (cur >= NSTATES || next >= NSTATES)
		return 0;
	if (next == EMU_QPS_RESET)
		return PRM_OP_2RST_QP;
	if (next == EMU_QPS_ERR)
		return PRM_OP_2ERR_QP;
	return ops[cur][next];
}

/* ib_mask_to_mlx5_opt() */
static uint32_t mask_to_optpar(uint32_t mask)
{
	uint32_t o = 0;

	if (mask & ACC)
		o |= PRM_QP_OPTPAR_RRE | PRM_QP_OPTPAR_RAE | PRM_QP_OPTPAR_RWE;
	if (mask & PKEY)
		o |= PRM_QP_OPTPAR_PKEY_INDEX;
	if (mask & PORT)
		o |= PRM_QP_OPTPAR_PRI_PORT;
	if (mask & QKEY)
		o |= PRM_QP_OPTPAR_Q_KEY;
	if (mask & EMU_QP_AV)
		o |= PRM_QP_OPTPAR_PRIMARY_ADDR_PATH;
	if (mask & ALT)
		o |= PRM_QP_OPTPAR_ALT_ADDR_PATH;
	if (mask & EMU_QP_TIMEOUT)
		o |= PRM_QP_OPTPAR_ACK_TIMEOUT;
	if (mask & EMU_QP_RETRY_CNT)
		o |= PRM_QP_OPTPAR_RETRY_COUNT;
	if (mask & EMU_QP_RNR_RETRY)
		o |= PRM_QP_OPTPAR_RNR_RETRY;
	if (mask & EMU_QP_MAX_QP_RD_ATOMIC)
		o |= PRM_QP_OPTPAR_SRA_MAX;
	if (mask & EMU_QP_MAX_DEST_RD_ATOMIC)
		o |= PRM_QP_OPTPAR_RRA_MAX;
	if (mask & RNRT)
		o |= PRM_QP_OPTPAR_RNR_TIMEOUT;
	if (mask & MIG)
		o |= PRM_QP_OPTPAR_PM_STATE;
	return o;
}

#define O_ACC (PRM_QP_OPTPAR_RRE | PRM_QP_OPTPAR_RAE | PRM_QP_OPTPAR_RWE)

/* mlx5's opt_mask[][][]: the optional parameters each transition takes */
static uint32_t transition_optpar(unsigned int cur, unsigned int next, int t)
{
	static const uint32_t init2init[T_COUNT] = {
		[T_UD] = PRM_QP_OPTPAR_PKEY_INDEX | PRM_QP_OPTPAR_Q_KEY |
			 PRM_QP_OPTPAR_PRI_PORT,
		[T_UC] = PRM_QP_OPTPAR_RWE | PRM_QP_OPTPAR_PKEY_INDEX |
			 PRM_QP_OPTPAR_PRI_PORT,
		[T_RC] = O_ACC | PRM_QP_OPTPAR_PKEY_INDEX |
			 PRM_QP_OPTPAR_PRI_PORT,
	};
	static const uint32_t init2rtr[T_COUNT] = {
		[T_UD] = PRM_QP_OPTPAR_PKEY_INDEX | PRM_QP_OPTPAR_Q_KEY,
		[T_UC] = PRM_QP_OPTPAR_ALT_ADDR_PATH | PRM_QP_OPTPAR_RWE |
			 PRM_QP_OPTPAR_PKEY_INDEX,
		[T_RC] = PRM_QP_OPTPAR_ALT_ADDR_PATH | O_ACC |
			 PRM_QP_OPTPAR_PKEY_INDEX,
	};
	static const uint32_t to_rts[T_COUNT] = {
		[T_UD] = PRM_QP_OPTPAR_Q_KEY,
		[T_UC] = PRM_QP_OPTPAR_ALT_ADDR_PATH | PRM_QP_OPTPAR_RWE |
			 PRM_QP_OPTPAR_PM_STATE,
		[T_RC] = PRM_QP_OPTPAR_ALT_ADDR_PATH | O_ACC |
			 PRM_QP_OPTPAR_PM_STATE | PRM_QP_OPTPAR_RNR_TIMEOUT,
	};
	static const uint32_t sqe2rts[T_COUNT] = {
		[T_UD] = PRM_QP_OPTPAR_Q_KEY,
		[T_UC] = PRM_QP_OPTPAR_RWE,
		[T_RC] = O_ACC | PRM_QP_OPTPAR_RNR_TIMEOUT,
	};

	if (cur == EMU_QPS_INIT && next == EMU_QPS_INIT)
		return init2init[t];
	if (cur == EMU_QPS_INIT && next == EMU_QPS_RTR)
		return init2rtr[t];
	if ((cur == EMU_QPS_RTR || cur == EMU_QPS_RTS) &&
	    next == EMU_QPS_RTS)
		return to_rts[t];
	if (cur == EMU_QPS_SQE && next == EMU_QPS_RTS)
		return sqe2rts[t];
	return 0;
}

uint32_t emu_qp_optpar(unsigned int cur, unsigned int next, unsigned int type,
		       uint32_t mask)
{
	int t = type_index(type);

	if (t < 0)
		return 0;
	return mask_to_optpar(mask) & transition_optpar(cur, next, t);
}
