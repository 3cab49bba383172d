// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Modify and query of verbs QPs, the write() commands libibverbs issues
 * for them (MODIFY_QP, EX_MODIFY_QP, QUERY_QP), after
 * drivers/infiniband/core/uverbs_cmd.c and verbs.c and the mlx5 driver's
 * mlx5_ib_modify_qp() and mlx5_ib_query_qp(): the IB spec's transition
 * rules (qp_states.c), then one firmware transition command (fw_qp.c);
 * a query reads QUERY_QP's context back.
 */
#include <errno.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>

#include "mlx5_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "qp_states.h"
#include "uverbs.h"
#include "verbs_qp.h"

/* mlx5's MLX5_STAT_RATE_OFFSET, and the IB rates it maps (2.5 .. 600) */
#define EMU_STAT_RATE_OFFSET 5
#define EMU_IB_RATE_MAX 22
/* the port's P_Key table (QUERY_PORT reports pkey_tbl_len 128) */
#define EMU_PKEY_TABLE_LEN 128
/* the port's GID table (one entry) */
#define EMU_GID_TABLE_LEN 1
/* IB_MTU_256 .. IB_MTU_4096 */
#define EMU_MTU_MIN 1
#define EMU_MTU_MAX 5

static bool port_valid(uint32_t port)
{
	return port == 1;
}

/* mlx5_set_path() for an InfiniBand port */
static int set_path(uint8_t *in, const struct ib_uverbs_qp_dest *d)
{
	unsigned int i;

	if (d->static_rate > EMU_IB_RATE_MAX)
		return -EINVAL;
	if (d->is_global) {
		if (d->sgid_index >= EMU_GID_TABLE_LEN)
			return -EINVAL;
		prm_set(in, PRM_QPC_PRI_GRH, 1);
		prm_set(in, PRM_QPC_PRI_SRC_ADDR_INDEX, d->sgid_index);
		prm_set(in, PRM_QPC_PRI_HOP_LIMIT, d->hop_limit);
		prm_set(in, PRM_QPC_PRI_TCLASS, d->traffic_class);
		prm_set(in, PRM_QPC_PRI_FLOW_LABEL, d->flow_label);
		for (i = 0; i < sizeof(d->dgid); i++)
			in[PRM_QPC_PRI_RGID_BYTE + i] = d->dgid[i];
	}
	prm_set(in, PRM_QPC_PRI_RLID, d->dlid);
	prm_set(in, PRM_QPC_PRI_MLID, d->src_path_bits);
	prm_set(in, PRM_QPC_PRI_STAT_RATE,
		d->static_rate ? d->static_rate + EMU_STAT_RATE_OFFSET : 0);
	prm_set(in, PRM_QPC_PRI_SL, d->sl & 0xf);
	prm_set(in, PRM_QPC_PRI_VHCA_PORT_NUM, d->port_num);
	return 0;
}

/* IB_MIG_MIGRATED, _REARM, _ARMED and the qpc's pm_state */
static const uint8_t pm_of_mig[3] = { PRM_QP_PM_MIGRATED, 1, 0 };

static uint32_t mig_to_pm(uint8_t mig)
{
	return mig < 3 ? pm_of_mig[mig] : PRM_QP_PM_MIGRATED;
}

static uint8_t pm_to_mig(uint32_t pm)
{
	uint8_t mig;

	for (mig = 0; mig < 3; mig++)
		if (pm_of_mig[mig] == pm)
			return mig;
	return 0;
}

static unsigned int ilog2_u8(uint8_t v)
{
	return v ? 31 - __builtin_clz(v) : 0;
}

/* __mlx5_ib_modify_qp(): the context of one transition command */
static int fill_modify(struct emu_device *dev, const struct emu_qp *qp,
		       const struct ib_uverbs_modify_qp *m, uint32_t mask,
		       uint8_t *in)
{
	/* the attributes that set one qpc field each */
	const struct {
		uint32_t attr;
		unsigned int off;
		unsigned int width;
		uint32_t val;
	} fields[] = {
		{ EMU_QP_DEST_QPN, PRM_QPC_REMOTE_QPN, m->dest_qp_num },
		{ EMU_QP_PKEY_INDEX, PRM_QPC_PRI_PKEY_INDEX, m->pkey_index },
		{ EMU_QP_TIMEOUT, PRM_QPC_PRI_ACK_TIMEOUT, m->timeout },
		{ EMU_QP_RNR_RETRY, PRM_QPC_RNR_RETRY, m->rnr_retry },
		{ EMU_QP_RETRY_CNT, PRM_QPC_RETRY_COUNT, m->retry_cnt },
		{ EMU_QP_MAX_QP_RD_ATOMIC, PRM_QPC_LOG_SRA_MAX,
		  ilog2_u8(m->max_rd_atomic) },
		{ EMU_QP_SQ_PSN, PRM_QPC_NEXT_SEND_PSN, m->sq_psn },
		{ EMU_QP_MAX_DEST_RD_ATOMIC, PRM_QPC_LOG_RRA_MAX,
		  ilog2_u8(m->max_dest_rd_atomic) },
		{ EMU_QP_MIN_RNR_TIMER, PRM_QPC_MIN_RNR_NAK, m->min_rnr_timer },
		{ EMU_QP_RQ_PSN, PRM_QPC_NEXT_RCV_PSN, m->rq_psn },
		{ EMU_QP_QKEY, PRM_QPC_Q_KEY, m->qkey },
	};
	size_t i;
	int ret;

	if (mask & EMU_QP_ACCESS_FLAGS) {
		prm_set(in, PRM_QPC_RRE, !!(m->qp_access_flags &
					    IB_UVERBS_ACCESS_REMOTE_READ));
		prm_set(in, PRM_QPC_RWE, !!(m->qp_access_flags &
					    IB_UVERBS_ACCESS_REMOTE_WRITE));
		prm_set(in, PRM_QPC_RAE, !!(m->qp_access_flags &
					    IB_UVERBS_ACCESS_REMOTE_ATOMIC));
	}
	if (qp->type == EMU_QPT_UD) {
		prm_set(in, PRM_QPC_MTU, EMU_MTU_MAX);
		prm_set(in, PRM_QPC_LOG_MSG_MAX, 12);
	} else if (mask & EMU_QP_PATH_MTU) {
		if (m->path_mtu < EMU_MTU_MIN || m->path_mtu > EMU_MTU_MAX)
			return -EINVAL;
		prm_set(in, PRM_QPC_MTU, m->path_mtu);
		prm_set(in, PRM_QPC_LOG_MSG_MAX,
			emu_cap_gen(dev, PRM_CAP_LOG_MAX_MSG));
	}
	prm_set(in, PRM_QPC_PRI_VHCA_PORT_NUM,
		mask & EMU_QP_PORT ? m->port_num : qp->port);
	if (mask & EMU_QP_AV) {
		ret = set_path(in, &m->dest);
		if (ret)
			return ret;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (mask & fields[i].attr)
			prm_set(in, fields[i].off, fields[i].width,
				fields[i].val);
	prm_set(in, PRM_QPC_PM_STATE, mask & EMU_QP_PATH_MIG_STATE ?
				      mig_to_pm(m->path_mig_state) :
				      PRM_QP_PM_MIGRATED);
	return 0;
}

/*
 * follows mlx5_ib_modify_qp()'s driver data: when present it must reach
 * ece_options (EINVAL), a longer one must be zero beyond the structure
 * (EOPNOTSUPP), comp_mask, the burst reserved field and ECE options (the
 * device has no ECE) must be zero (EOPNOTSUPP)
 */
static int modify_udata(struct emu_bundle *b)
{
	struct emu_battr *in = emu_attr(b, UVERBS_ATTR_UHW_IN);
	struct mlx5_ib_modify_qp ucmd = {};
	const uint8_t *p;
	size_t i;

	if (!in || !in->len)
		return 0;
	p = in->in;
	if (in->len < offsetof(struct mlx5_ib_modify_qp, ece_options) +
		      sizeof(ucmd.ece_options))
		return -EINVAL;
	for (i = sizeof(ucmd); i < in->len; i++)
		if (p[i])
			return -EOPNOTSUPP;
	memcpy(&ucmd, p, in->len < sizeof(ucmd) ? in->len : sizeof(ucmd));
	if (ucmd.comp_mask || ucmd.burst_info.reserved || ucmd.ece_options)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * modify_qp() of uverbs_cmd.c, then ib_modify_qp_with_udata() and
 * mlx5_ib_modify_qp(): the checks in their order, each with its errno,
 * then the firmware's transition command.
 */
static int qp_modify_checks(struct emu_bundle *b, struct emu_qp *qp,
			    struct ib_uverbs_modify_qp *m, unsigned int *cur,
			    unsigned int *next)
{
	uint32_t mask = m->attr_mask;
	int ret;

	if ((mask & EMU_QP_PORT) && !port_valid(m->port_num))
		return -EINVAL;
	if ((mask & EMU_QP_AV) && !port_valid(m->dest.port_num))
		return -EINVAL;
	if ((mask & EMU_QP_ALT_PATH) &&
	    (!port_valid(m->alt_port_num) ||
	     m->alt_port_num != m->alt_dest.port_num))
		return -EINVAL;
	if (((mask & EMU_QP_CUR_STATE) && m->cur_qp_state > EMU_QPS_ERR) ||
	    ((mask & EMU_QP_STATE) && m->qp_state > EMU_QPS_ERR))
		return -EINVAL;
	/* rdma_fill_sgid_attr(): the GID an AV names must exist */
	if ((mask & EMU_QP_AV) && m->dest.is_global &&
	    m->dest.sgid_index >= EMU_GID_TABLE_LEN)
		return -EINVAL;
	/* _ib_modify_qp(): PSNs are 24 bits */
	m->rq_psn &= 0xffffff;
	m->sq_psn &= 0xffffff;
	/* IB_QP_ATTR_STANDARD_BITS: up to the destination QPN */
	if (mask & ~(((EMU_QP_DEST_QPN << 1) - 1) | EMU_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = modify_udata(b);
	if (ret)
		return ret;
	*cur = mask & EMU_QP_CUR_STATE ? m->cur_qp_state : qp->state;
	*next = mask & EMU_QP_STATE ? m->qp_state : *cur;
	if (!emu_qp_modify_ok(*cur, *next, qp->type, mask))
		return -EINVAL;
	if ((mask & EMU_QP_PKEY_INDEX) &&
	    m->pkey_index >= EMU_PKEY_TABLE_LEN)
		return -EINVAL;
	if ((mask & EMU_QP_MAX_QP_RD_ATOMIC) &&
	    m->max_rd_atomic >
		    1u << emu_cap_gen(b->dev, PRM_CAP_LOG_MAX_RA_RES_QP))
		return -EINVAL;
	if ((mask & EMU_QP_MAX_DEST_RD_ATOMIC) &&
	    m->max_dest_rd_atomic >
		    1u << emu_cap_gen(b->dev, PRM_CAP_LOG_MAX_RA_REQ_QP))
		return -EINVAL;
	return 0;
}

static int qp_modify(struct emu_bundle *b, struct ib_uverbs_modify_qp *m)
{
	uint8_t in[PRM_QP_MODIFY_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	unsigned int cur, next;
	struct emu_uobj *uo;
	struct emu_qp *qp;
	uint16_t op;
	size_t inlen;
	int ret;

	/* uobj_get_obj_read(): 6.12 passes the lookup's errno on */
	ret = emu_uobj_lookup(b->uf, UVERBS_OBJECT_QP, m->qp_handle,
			      EMU_ACCESS_READ, &uo);
	if (ret)
		return ret;
	qp = uo->priv;
	ret = qp_modify_checks(b, qp, m, &cur, &next);
	if (ret || (cur == next && cur == EMU_QPS_RESET))
		goto out;
	op = emu_qp_transition_op(cur, next);
	if (!op) {
		ret = -EINVAL;
		goto out;
	}
	inlen = PRM_HDR_LEN;
	if (op != PRM_OP_2RST_QP && op != PRM_OP_2ERR_QP) {
		inlen = sizeof(in);
		ret = fill_modify(b->dev, qp, m, m->attr_mask, in);
		if (ret)
			goto out;
		prm_set(in, PRM_QP_OPT_PARAM_MASK,
			emu_qp_optpar(cur, next, qp->type, m->attr_mask));
	}
	prm_set(in, PRM_HDR_OPCODE, op);
	prm_set(in, PRM_HDR_UID, qp->uid);
	prm_set(in, PRM_IN_OBJN, qp->qpn);
	ret = emu_cmd_exec(b->dev, in, inlen, out, sizeof(out));
	if (ret)
		goto out;
	qp->state = (uint8_t)next;
	if (m->attr_mask & EMU_QP_PORT)
		qp->port = (uint8_t)m->port_num;
out:
	emu_uobj_unlock(uo, EMU_ACCESS_READ);
	return ret;
}

/* follows ib_uverbs_modify_qp(): legacy attributes only (EOPNOTSUPP) */
int emu_cmd_modify_qp(struct emu_bundle *b)
{
	struct ib_uverbs_modify_qp cmd;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.attr_mask & ~((EMU_QP_LEGACY_LAST << 1) - 1))
		return -EOPNOTSUPP;
	return qp_modify(b, &cmd);
}

/* follows ib_uverbs_ex_modify_qp() */
int emu_cmd_ex_modify_qp(struct emu_bundle *b)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	ssize_t outlen;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.base.attr_mask & ~((EMU_QP_LAST << 1) - 1))
		return -EOPNOTSUPP;
	ret = qp_modify(b, &cmd.base);
	if (ret)
		return ret;
	outlen = emu_attr_len(b, UVERBS_ATTR_CORE_OUT);
	resp.response_length = outlen > 0 && (size_t)outlen < sizeof(resp) ?
			       (uint32_t)outlen : sizeof(resp);
	return emu_write_response(b, &resp, sizeof(resp));
}

/* mlx5's state numbers and the IB ones differ for SQD and SQE */
static uint8_t ib_state(uint32_t prm)
{
	switch (prm) {
	case PRM_QP_STATE_SQER:
		return EMU_QPS_SQE;
	case PRM_QP_STATE_SQD:
		return EMU_QPS_SQD;
	default:
		return (uint8_t)prm;
	}
}

/* to_rdma_ah_attr(): nothing for a path without a valid port */
static void get_path(const uint8_t *ctx, struct ib_uverbs_qp_dest *d)
{
	uint32_t rate = prm_get(ctx, PRM_QPC_PRI_STAT_RATE);
	unsigned int i;

	d->port_num = (uint8_t)prm_get(ctx, PRM_QPC_PRI_VHCA_PORT_NUM);
	if (!port_valid(d->port_num)) {
		d->port_num = 0;
		return;
	}
	d->dlid = (uint16_t)prm_get(ctx, PRM_QPC_PRI_RLID);
	d->sl = (uint8_t)prm_get(ctx, PRM_QPC_PRI_SL);
	d->src_path_bits = (uint8_t)prm_get(ctx, PRM_QPC_PRI_MLID);
	d->static_rate = (uint8_t)(rate ? rate - EMU_STAT_RATE_OFFSET : 0);
	if (!prm_get(ctx, PRM_QPC_PRI_GRH))
		return;
	d->is_global = 1;
	d->sgid_index = (uint8_t)prm_get(ctx, PRM_QPC_PRI_SRC_ADDR_INDEX);
	d->hop_limit = (uint8_t)prm_get(ctx, PRM_QPC_PRI_HOP_LIMIT);
	d->traffic_class = (uint8_t)prm_get(ctx, PRM_QPC_PRI_TCLASS);
	d->flow_label = prm_get(ctx, PRM_QPC_PRI_FLOW_LABEL);
	for (i = 0; i < sizeof(d->dgid); i++)
		d->dgid[i] = ctx[PRM_QPC_PRI_RGID_BYTE + i];
}

/* query_qp_attr(): what QUERY_QP's context says, in verbs terms */
static void fill_query(const struct emu_qp *qp, const uint8_t *o,
		       struct ib_uverbs_query_qp_resp *r)
{
	r->qp_state = ib_state(prm_get(o, PRM_QPC_STATE));
	r->cur_qp_state = r->qp_state;
	r->path_mtu = (uint8_t)prm_get(o, PRM_QPC_MTU);
	r->path_mig_state = pm_to_mig(prm_get(o, PRM_QPC_PM_STATE));
	r->qkey = prm_get(o, PRM_QPC_Q_KEY);
	r->rq_psn = prm_get(o, PRM_QPC_NEXT_RCV_PSN);
	r->sq_psn = prm_get(o, PRM_QPC_NEXT_SEND_PSN);
	r->dest_qp_num = prm_get(o, PRM_QPC_REMOTE_QPN);
	if (prm_get(o, PRM_QPC_RRE))
		r->qp_access_flags |= IB_UVERBS_ACCESS_REMOTE_READ;
	if (prm_get(o, PRM_QPC_RWE))
		r->qp_access_flags |= IB_UVERBS_ACCESS_REMOTE_WRITE;
	if (prm_get(o, PRM_QPC_RAE))
		r->qp_access_flags |= IB_UVERBS_ACCESS_REMOTE_ATOMIC;
	r->max_rd_atomic = (uint8_t)(1u << prm_get(o, PRM_QPC_LOG_SRA_MAX));
	r->max_dest_rd_atomic =
		(uint8_t)(1u << prm_get(o, PRM_QPC_LOG_RRA_MAX));
	r->min_rnr_timer = (uint8_t)prm_get(o, PRM_QPC_MIN_RNR_NAK);
	r->retry_cnt = (uint8_t)prm_get(o, PRM_QPC_RETRY_COUNT);
	r->rnr_retry = (uint8_t)prm_get(o, PRM_QPC_RNR_RETRY);
	if (qp->type == EMU_QPT_RC || qp->type == EMU_QPT_UC)
		get_path(o, &r->dest);
	r->pkey_index = (uint16_t)prm_get(o, PRM_QPC_PRI_PKEY_INDEX);
	r->port_num = (uint8_t)prm_get(o, PRM_QPC_PRI_VHCA_PORT_NUM);
	r->timeout = (uint8_t)prm_get(o, PRM_QPC_PRI_ACK_TIMEOUT);
	/* a user QP's send queue is the library's business */
	r->max_recv_wr = qp->rq_wqe_cnt;
	r->max_recv_sge = qp->rq_max_gs;
	r->max_inline_data = qp->max_inline_data;
	r->sq_sig_all = qp->sq_sig_all;
}

/* follows ib_uverbs_query_qp() and mlx5_ib_query_qp() */
int emu_cmd_query_qp(struct emu_bundle *b)
{
	struct ib_uverbs_query_qp_resp resp = {};
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_QUERY_QP_OUT_LEN] = {};
	struct ib_uverbs_query_qp cmd;
	struct emu_uobj *uo;
	struct emu_qp *qp;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = emu_uobj_lookup(b->uf, UVERBS_OBJECT_QP, cmd.qp_handle,
			      EMU_ACCESS_READ, &uo);
	if (ret)
		return ret;
	qp = uo->priv;
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_QP);
	prm_set(in, PRM_HDR_UID, qp->uid);
	prm_set(in, PRM_IN_OBJN, qp->qpn);
	ret = emu_cmd_exec(b->dev, in, sizeof(in), out, sizeof(out));
	if (!ret) {
		fill_query(qp, out, &resp);
		qp->state = resp.qp_state;
		ret = emu_write_response(b, &resp, sizeof(resp));
	}
	emu_uobj_unlock(uo, EMU_ACCESS_READ);
	return ret;
}
