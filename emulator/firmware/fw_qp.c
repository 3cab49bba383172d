// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: CREATE_QP, the state transition commands, QUERY_QP and
 * DESTROY_QP, for the kernel's verbs QPs and for DEVX QPs alike.
 *
 * The model keeps each QP's context as an image of the create mailbox
 * and lets each transition write only the context fields that transition
 * carries: the ones it always takes, and the optional ones whose
 * opt_param_mask bit is set (a bit the transition does not accept fails
 * the command, BAD_PARAM).  A transition from a state it does not start
 * from fails with BAD_QP_STATE.  2ERR_QP and 2RST_QP start from any
 * state.  Nothing ever moves through a QP: QUERY_QP returns the state and
 * the context as the commands left them, with every hardware counter 0.
 *
 * A QP holds references on its PD and on its send and receive CQs (and on
 * the UMEMs of its buffer and doorbell when it names UMEMs), so those
 * cannot be destroyed while it lives (RES_BUSY).
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"
#include "opcode_table.h"

/* The first qpn handed out; 0 and 1 are the special QPs of each port. */
#define FW_QPN_FIRST 0x100

struct field {
	unsigned int off, width;
};

#define F(f) { f }
#define WORDS4(byte) { (byte) * 8, 32 }, { (byte) * 8 + 32, 32 },        \
		     { (byte) * 8 + 64, 32 }, { (byte) * 8 + 96, 32 }

/* The context fields the transitions write, grouped as they are named. */
struct field_group {
	uint32_t optpar;	/* its opt_param_mask bit; 0: none */
	unsigned int nfields;
	struct field fields[13];
};

enum {
	G_PKEY, G_PORT, G_RRE, G_RWE, G_RAE, G_QKEY, G_PM, G_MTU, G_RQPN,
	G_RQ_PSN, G_PATH, G_RRA, G_RNR_TO, G_SQ_PSN, G_ACK_TO, G_RETRY,
	G_RNR_RETRY, G_SRA, G_ALT, G_COUNT
};

#define GROUP(_bit, ...)                                                    \
	{ .optpar = (_bit),                                                 \
	  .nfields = sizeof((struct field[]){ __VA_ARGS__ }) /              \
		     sizeof(struct field),                                  \
	  .fields = { __VA_ARGS__ } }

static const struct field_group groups[G_COUNT] = {
	[G_PKEY] = GROUP(PRM_QP_OPTPAR_PKEY_INDEX, F(PRM_QPC_PRI_PKEY_INDEX)),
	[G_PORT] = GROUP(PRM_QP_OPTPAR_PRI_PORT,
			 F(PRM_QPC_PRI_VHCA_PORT_NUM)),
	[G_RRE] = GROUP(PRM_QP_OPTPAR_RRE, F(PRM_QPC_RRE)),
	[G_RWE] = GROUP(PRM_QP_OPTPAR_RWE, F(PRM_QPC_RWE)),
	[G_RAE] = GROUP(PRM_QP_OPTPAR_RAE, F(PRM_QPC_RAE)),
	[G_QKEY] = GROUP(PRM_QP_OPTPAR_Q_KEY, F(PRM_QPC_Q_KEY)),
	[G_PM] = GROUP(PRM_QP_OPTPAR_PM_STATE, F(PRM_QPC_PM_STATE)),
	[G_MTU] = GROUP(0, F(PRM_QPC_MTU), F(PRM_QPC_LOG_MSG_MAX)),
	[G_RQPN] = GROUP(0, F(PRM_QPC_REMOTE_QPN)),
	[G_RQ_PSN] = GROUP(0, F(PRM_QPC_NEXT_RCV_PSN)),
	[G_PATH] = GROUP(PRM_QP_OPTPAR_PRIMARY_ADDR_PATH, F(PRM_QPC_PRI_GRH),
			 F(PRM_QPC_PRI_MLID), F(PRM_QPC_PRI_RLID),
			 F(PRM_QPC_PRI_SRC_ADDR_INDEX),
			 F(PRM_QPC_PRI_STAT_RATE), F(PRM_QPC_PRI_HOP_LIMIT),
			 F(PRM_QPC_PRI_TCLASS), F(PRM_QPC_PRI_FLOW_LABEL),
			 F(PRM_QPC_PRI_SL), WORDS4(PRM_QPC_PRI_RGID_BYTE)),
	[G_RRA] = GROUP(PRM_QP_OPTPAR_RRA_MAX, F(PRM_QPC_LOG_RRA_MAX)),
	[G_RNR_TO] = GROUP(PRM_QP_OPTPAR_RNR_TIMEOUT, F(PRM_QPC_MIN_RNR_NAK)),
	[G_SQ_PSN] = GROUP(0, F(PRM_QPC_NEXT_SEND_PSN)),
	[G_ACK_TO] = GROUP(PRM_QP_OPTPAR_ACK_TIMEOUT,
			   F(PRM_QPC_PRI_ACK_TIMEOUT)),
	[G_RETRY] = GROUP(PRM_QP_OPTPAR_RETRY_COUNT, F(PRM_QPC_RETRY_COUNT)),
	[G_RNR_RETRY] = GROUP(PRM_QP_OPTPAR_RNR_RETRY, F(PRM_QPC_RNR_RETRY)),
	[G_SRA] = GROUP(PRM_QP_OPTPAR_SRA_MAX, F(PRM_QPC_LOG_SRA_MAX)),
	/* the whole secondary address path: 11 dwords */
	[G_ALT] = GROUP(PRM_QP_OPTPAR_ALT_ADDR_PATH,
			WORDS4(PRM_QPC_ALT_PATH_BYTE),
			WORDS4(PRM_QPC_ALT_PATH_BYTE + 16),
			{ (PRM_QPC_ALT_PATH_BYTE + 32) * 8, 32 },
			{ (PRM_QPC_ALT_PATH_BYTE + 36) * 8, 32 },
			{ (PRM_QPC_ALT_PATH_BYTE + 40) * 8, 32 }),
};

#define BIT(g) (1u << (g))
#define ACCESS_GROUPS (BIT(G_RRE) | BIT(G_RWE) | BIT(G_RAE))
#define ACCESS_OPTPAR (PRM_QP_OPTPAR_RRE | PRM_QP_OPTPAR_RWE |               \
		       PRM_QP_OPTPAR_RAE)

struct transition {
	uint16_t opcode;
	uint8_t from;		/* bit per prm_qp_state it starts from */
	uint8_t to;
	uint32_t required;	/* groups always written */
	uint32_t optional;	/* opt_param_mask bits accepted */
};

#define FROM(s) (1u << (s))
#define FROM_ANY 0x7f

static const struct transition transitions[] = {
	{ PRM_OP_RST2INIT_QP, FROM(PRM_QP_STATE_RST), PRM_QP_STATE_INIT,
	  BIT(G_PKEY) | BIT(G_PORT) | ACCESS_GROUPS | BIT(G_QKEY) |
		  BIT(G_PM), 0 },
	{ PRM_OP_INIT2INIT_QP, FROM(PRM_QP_STATE_INIT), PRM_QP_STATE_INIT, 0,
	  PRM_QP_OPTPAR_PKEY_INDEX | PRM_QP_OPTPAR_PRI_PORT | ACCESS_OPTPAR |
		  PRM_QP_OPTPAR_Q_KEY },
	{ PRM_OP_INIT2RTR_QP, FROM(PRM_QP_STATE_INIT), PRM_QP_STATE_RTR,
	  BIT(G_MTU) | BIT(G_RQPN) | BIT(G_RQ_PSN) | BIT(G_PATH) |
		  BIT(G_RRA) | BIT(G_RNR_TO),
	  PRM_QP_OPTPAR_ALT_ADDR_PATH | ACCESS_OPTPAR |
		  PRM_QP_OPTPAR_PKEY_INDEX | PRM_QP_OPTPAR_Q_KEY },
	{ PRM_OP_RTR2RTS_QP, FROM(PRM_QP_STATE_RTR), PRM_QP_STATE_RTS,
	  BIT(G_SQ_PSN) | BIT(G_ACK_TO) | BIT(G_RETRY) | BIT(G_RNR_RETRY) |
		  BIT(G_SRA),
	  PRM_QP_OPTPAR_ALT_ADDR_PATH | ACCESS_OPTPAR |
		  PRM_QP_OPTPAR_PM_STATE | PRM_QP_OPTPAR_RNR_TIMEOUT |
		  PRM_QP_OPTPAR_Q_KEY },
	{ PRM_OP_RTS2RTS_QP, FROM(PRM_QP_STATE_RTS), PRM_QP_STATE_RTS, 0,
	  PRM_QP_OPTPAR_ALT_ADDR_PATH | ACCESS_OPTPAR |
		  PRM_QP_OPTPAR_PM_STATE | PRM_QP_OPTPAR_RNR_TIMEOUT |
		  PRM_QP_OPTPAR_Q_KEY | PRM_QP_OPTPAR_ACK_TIMEOUT },
	{ PRM_OP_SQERR2RTS_QP, FROM(PRM_QP_STATE_SQER), PRM_QP_STATE_RTS, 0,
	  ACCESS_OPTPAR | PRM_QP_OPTPAR_RNR_TIMEOUT | PRM_QP_OPTPAR_Q_KEY },
	{ PRM_OP_2ERR_QP, FROM_ANY, PRM_QP_STATE_ERR, 0, 0 },
	{ PRM_OP_2RST_QP, FROM_ANY, PRM_QP_STATE_RST, 0, 0 },
};

static void copy_group(uint8_t *img, const uint8_t *in, unsigned int g)
{
	const struct field_group *grp = &groups[g];
	unsigned int i;

	for (i = 0; i < grp->nfields; i++)
		prm_set(img, grp->fields[i].off, grp->fields[i].width,
			prm_get(in, grp->fields[i].off, grp->fields[i].width));
}

/* A CQ the QP names: live and the command's uid may use it. */
static struct fw_obj *usable_cq(struct fw_cmd *cmd, uint32_t cqn)
{
	struct fw_obj *cq = fw_obj_find(cmd->fw, FW_OBJ_CQ, cqn);

	return fw_obj_usable(cmd, cq) ? cq : NULL;
}

/* Bytes of the work queues: receive WQEs of 16 << stride, send of 64. */
static uint64_t wq_bytes(const uint8_t *in)
{
	uint64_t bytes = 0;

	if (prm_get(in, PRM_QPC_RQ_TYPE) == PRM_QP_RQ_REGULAR)
		bytes += (1ull << prm_get(in, PRM_QPC_LOG_RQ_SIZE))
			 << (prm_get(in, PRM_QPC_LOG_RQ_STRIDE) + 4);
	if (!prm_get(in, PRM_QPC_NO_SQ))
		bytes += (1ull << prm_get(in, PRM_QPC_LOG_SQ_SIZE)) * 64;
	return bytes;
}

/* The QP's memory: its buffer (a UMEM or a page list) and doorbell. */
static bool qp_memory(struct fw_cmd *cmd, struct fw_obj **wq,
		      struct fw_obj **dbr)
{
	uint64_t bytes = wq_bytes(cmd->in);

	*wq = NULL;
	*dbr = NULL;
	if (prm_get(cmd->in, PRM_QP_WQ_UMEM_VALID)) {
		*wq = fw_usable_umem(cmd, prm_get(cmd->in, PRM_QP_WQ_UMEM_ID),
				     prm_get64(cmd->in, PRM_QP_WQ_UMEM_OFFSET),
				     bytes);
		if (!*wq)
			return false;
	} else if (!fw_pas_covers(cmd, PRM_QP_PAS_BYTE,
				  prm_get(cmd->in, PRM_QPC_LOG_PAGE_SIZE),
				  prm_get(cmd->in, PRM_QPC_PAGE_OFFSET),
				  bytes)) {
		return false;
	}
	if (prm_get(cmd->in, PRM_QPC_DBR_UMEM_VALID)) {
		*dbr = fw_usable_umem(cmd,
				      prm_get(cmd->in, PRM_QPC_DBR_UMEM_ID),
				      prm_get64(cmd->in, PRM_QPC_DBR_ADDR), 8);
		if (!*dbr)
			return false;
	}
	return true;
}

/*
 * QP0 and QP1 are what a kernel driver makes for the port's SMI and GSI:
 * kept as UD QPs are (the number the firmware gives is the one the
 * driver uses in its commands; only the wire sees 0 and 1).  A UMR QP is
 * the kernel's own (mlx5_ib makes one at the first memory registration,
 * with no PD), never a user context's; nothing posted to it is run.
 */
static bool qp_type_ok(uint32_t st, uint16_t uid)
{
	switch (st) {
	case PRM_QP_ST_RC:
	case PRM_QP_ST_UC:
	case PRM_QP_ST_UD:
	case PRM_QP_ST_QP0:
	case PRM_QP_ST_QP1:
		return true;
	case PRM_QP_ST_REG_UMR:
		return uid == 0;
	default:
		return false;
	}
}

bool fw_cmd_create_qp(struct fw_cmd *cmd)
{
	uint32_t st = prm_get(cmd->in, PRM_QPC_ST);
	uint32_t rq_type = prm_get(cmd->in, PRM_QPC_RQ_TYPE);
	bool no_sq = prm_get(cmd->in, PRM_QPC_NO_SQ);
	struct fw_obj *pd, *scq = NULL, *rcq = NULL, *wq, *dbr, *obj;
	struct fw_holds holds = { 0 };

	if (!qp_type_ok(st, cmd->uid) ||
	    (rq_type != PRM_QP_RQ_REGULAR && rq_type != PRM_QP_RQ_ZERO_LEN) ||
	    prm_get(cmd->in, PRM_QPC_LOG_SQ_SIZE) > FW_LOG_MAX_QP_SZ ||
	    prm_get(cmd->in, PRM_QPC_LOG_RQ_SIZE) > FW_LOG_MAX_QP_SZ)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	pd = NULL;
	if (st != PRM_QP_ST_REG_UMR) {
		pd = fw_obj_find(cmd->fw, FW_OBJ_PD,
				 prm_get(cmd->in, PRM_QPC_PD));
		if (!fw_obj_usable(cmd, pd))
			return false;
	}
	if (!no_sq) {
		scq = usable_cq(cmd, prm_get(cmd->in, PRM_QPC_CQN_SND));
		if (!scq)
			return false;
	}
	if (rq_type != PRM_QP_RQ_ZERO_LEN) {
		rcq = usable_cq(cmd, prm_get(cmd->in, PRM_QPC_CQN_RCV));
		if (!rcq)
			return false;
	}
	if (!qp_memory(cmd, &wq, &dbr))
		return false;
	if (!fw_hold(cmd, &holds, pd) || !fw_hold(cmd, &holds, scq) ||
	    !fw_hold(cmd, &holds, rcq) || !fw_hold(cmd, &holds, wq) ||
	    !fw_hold(cmd, &holds, dbr)) {
		fw_holds_free(&holds);
		return false;
	}
	cmd->fw->first_id[FW_OBJ_QP] = FW_QPN_FIRST;
	/* The QP's state: create_qp_in as the QP is now. */
	obj = fw_obj_create_ctx(cmd, FW_OBJ_QP, 1u << FW_LOG_MAX_QP, 0,
				PRM_QP_IN_LEN, &holds);
	if (!obj)
		return false;
	/* A new QP is in RESET, whatever the mailbox said. */
	prm_set(obj->data, PRM_QPC_STATE, PRM_QP_STATE_RST);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

static_assert(offsetof(struct transition, opcode) == 0, "keyed by opcode");

static const struct transition *find_transition(uint16_t opcode)
{
	return OPCODE_TABLE_FIND(transitions, opcode);
}

bool fw_cmd_modify_qp(struct fw_cmd *cmd)
{
	const struct transition *t = find_transition(cmd->opcode);
	struct fw_obj *obj = fw_obj_named_in(cmd, FW_OBJ_QP);
	uint32_t optpar = 0, state;
	uint8_t *img;
	unsigned int g;

	if (!t)
		return fw_fail(cmd, EMU_FW_STATUS_INT_ERR,
			       EMU_FW_SYND_UNKNOWN_OPCODE);
	if (!obj)
		return false;
	img = obj->data;
	state = prm_get(img, PRM_QPC_STATE);
	if (!(t->from & FROM(state)))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_QP_STATE,
			       EMU_FW_SYND_QP_STATE);
	/* 2ERR and 2RST are 16 bytes: no context, no mask */
	if (t->required || t->optional) {
		if (cmd->inlen < PRM_QP_MODIFY_IN_LEN)
			return fw_fail(cmd, EMU_FW_STATUS_BAD_INPUT_LEN,
				       EMU_FW_SYND_INPUT_LEN);
		optpar = prm_get(cmd->in, PRM_QP_OPT_PARAM_MASK);
	}
	if (optpar & ~t->optional)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_QP_OPTPAR);
	for (g = 0; g < G_COUNT; g++)
		if ((t->required & BIT(g)) || (optpar & groups[g].optpar))
			copy_group(img, cmd->in, g);
	prm_set(img, PRM_QPC_STATE, t->to);
	return true;
}

bool fw_cmd_query_qp(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, FW_OBJ_QP, PRM_QP_CTX_BYTE, PRM_QP_CTX_BYTE,
			      PRM_QP_CTX_LEN);
}

bool fw_cmd_destroy_qp(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_QP, prm_get(cmd->in, PRM_IN_OBJN));
}
