// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_QP: create and destroy (ioctl), modify and query (the
 * write() commands libibverbs still issues for them), after
 * drivers/infiniband/core/uverbs_std_types_qp.c, uverbs_cmd.c, verbs.c
 * and the mlx5 driver's qp.c, for RC, UC and UD QPs.  The work queues and
 * the doorbell record are user memory; the firmware gets the queues as a
 * page list and runs every state change (fw_qp.c).  Nothing ever moves
 * through a QP.
 */
#include <errno.h>
#include <stdlib.h>
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
#include "wire.h"

/* MLX5_IB_INVALID_BFREG: the QP uses a UAR page the library allocated */
#define EMU_INVALID_BFREG 0x80000000u
/* MLX5_IB_UIDX_MAX, MLX5_IB_DEFAULT_UIDX */
#define EMU_UIDX_MAX 0xffffff
#define EMU_DEFAULT_UIDX 0xffffff
/* ib_qp_create_flags the uverbs layer passes to the driver */
#define EMU_QP_CREATE_SQ_SIG_ALL IB_UVERBS_QP_CREATE_SQ_SIG_ALL
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

static uint16_t qp_st(unsigned int type)
{
	switch (type) {
	case EMU_QPT_RC:
		return PRM_QP_ST_RC;
	case EMU_QPT_UC:
		return PRM_QP_ST_UC;
	default:
		return PRM_QP_ST_UD;
	}
}

static int qp_fw_simple(struct emu_device *dev, const struct emu_qp *qp,
			uint16_t opcode)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_HDR_LEN] = {};

	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_HDR_UID, qp->uid);
	prm_set(in, PRM_IN_OBJN, qp->qpn);
	return emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

static void put_users(struct emu_qp *qp)
{
	qp->pd->users--;
	if (qp->send_cq)
		qp->send_cq->users--;
	if (qp->recv_cq)
		qp->recv_cq->users--;
}

/*
 * uverbs_free_qp() -> mlx5_ib_destroy_qp(): a QP not in RESET is moved
 * there first, then destroyed; its PD and CQs lose a user.
 */
static int qp_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		      enum emu_remove_reason why)
{
	struct emu_qp *qp = uo->priv;
	int ret;

	if (qp->state != EMU_QPS_RESET)
		qp_fw_simple(uf->dev, qp, PRM_OP_2RST_QP);
	ret = qp_fw_simple(uf->dev, qp, PRM_OP_DESTROY_QP);
	if (ret && why == EMU_REMOVE_DESTROY)
		return ret;
	put_users(qp);
	free(qp);
	uo->priv = NULL;
	return 0;
}

/* The driver data of a create, as process_udata_size() and co read it. */
struct qp_udata {
	struct mlx5_ib_create_qp ucmd;
	uint32_t uar_page;
	uint32_t uidx;
};

/*
 * follows process_udata_size(), check_ucmd_data(), get_qp_uidx(),
 * process_vendor_flags() and the bfreg choice of create_user_qp(): a
 * request shorter than the ECE field -> EINVAL; non-zero bytes past the
 * fields the kernel knows -> EINVAL; a user index out of range (or, with
 * CQE version 0, not the default) -> EINVAL; a vendor flag the device
 * does not take -> EINVAL; ECE options without ECE support -> EOPNOTSUPP.
 * The model's contexts have no static or dynamic bfregs: a QP must name
 * a UAR page the library allocated (MLX5_QP_FLAG_UAR_PAGE_INDEX), as
 * every libmlx5 with dynamic UARs does; anything else -> EINVAL.
 */
static int qp_user_data(struct emu_bundle *b, struct qp_udata *u)
{
	struct emu_battr *in = emu_attr(b, UVERBS_ATTR_UHW_IN);
	size_t len = in ? in->len : 0;
	size_t last = offsetof(struct mlx5_ib_create_qp, reserved);
	const uint32_t known = MLX5_QP_FLAG_SIGNATURE |
			       MLX5_QP_FLAG_SCATTER_CQE |
			       MLX5_QP_FLAG_ALLOW_SCATTER_CQE |
			       MLX5_QP_FLAG_BFREG_INDEX |
			       MLX5_QP_FLAG_UAR_PAGE_INDEX;
	struct mlx5_ib_create_qp *c = &u->ucmd;
	const uint8_t *p = in ? in->in : NULL;
	size_t i;

	memset(u, 0, sizeof(*u));
	if (len < offsetof(struct mlx5_ib_create_qp, ece_options))
		return -EINVAL;
	memcpy(c, p, len < sizeof(*c) ? len : sizeof(*c));
	for (i = last; i < len; i++)
		if (p[i])
			return -EINVAL;
	if (b->uf->uctx->cqe_version) {
		if (c->uidx > EMU_UIDX_MAX)
			return -EINVAL;
	} else if (c->uidx != EMU_DEFAULT_UIDX) {
		return -EINVAL;
	}
	u->uidx = c->uidx;
	if (c->flags & ~known)
		return -EINVAL;
	if (c->ece_options)
		return -EOPNOTSUPP;
	if (!(c->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX))
		return -EINVAL;
	u->uar_page = c->bfreg_index;
	return 0;
}

struct qp_create {
	unsigned int type;
	struct ib_uverbs_qp_cap cap;
	uint32_t flags;
	struct emu_battr *pd, *scq, *rcq;
};

/*
 * set_rq_size() and set_user_buf_size(): receive queue (none with no
 * receive WRs) and send queue sizes against log_max_qp_sz (EINVAL), a
 * send queue that is not a power of two (EINVAL); then create_qp_common()
 * fills the context and CREATE_QP runs with the queues' page list.
 */
static int qp_fw_create(struct emu_bundle *b, const struct qp_create *a,
			const struct qp_udata *u, struct emu_qp *qp)
{
	const struct mlx5_ib_create_qp *c = &u->ucmd;
	uint32_t max_sz = 1u << emu_cap_gen(b->dev, PRM_CAP_LOG_MAX_QP_SZ);
	bool has_rq = a->cap.max_recv_wr != 0;
	uint32_t rq_cnt = 0, rq_shift = 0;
	uint8_t out[PRM_HDR_LEN] = {};
	uint64_t bytes, npages;
	size_t inlen;
	uint8_t *in;
	int ret;

	if (a->cap.max_recv_wr > max_sz)
		return -EINVAL;
	if (has_rq) {
		if (c->rq_wqe_shift > 32)
			return -EINVAL;
		rq_cnt = c->rq_wqe_count;
		rq_shift = c->rq_wqe_shift;
		qp->rq_wqe_cnt = rq_cnt;
		qp->rq_max_gs = (1u << rq_shift) / 16 -
				!!(c->flags & MLX5_QP_FLAG_SIGNATURE);
	}
	if ((c->sq_wqe_count & (c->sq_wqe_count - 1)) ||
	    c->sq_wqe_count > max_sz)
		return -EINVAL;
	bytes = ((uint64_t)rq_cnt << rq_shift) + (uint64_t)c->sq_wqe_count * 64;
	npages = emu_user_pages(c->buf_addr, bytes, NULL);
	inlen = PRM_QP_PAS_BYTE + 8 * npages;
	in = calloc(1, inlen);
	if (!in)
		return -ENOMEM;
	emu_user_pages(c->buf_addr, bytes, in + PRM_QP_PAS_BYTE);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_QP);
	prm_set(in, PRM_HDR_UID, qp->uid);
	prm_set(in, PRM_QPC_ST, qp_st(a->type));
	prm_set(in, PRM_QPC_PM_STATE, PRM_QP_PM_MIGRATED);
	prm_set(in, PRM_QPC_PD, ((struct emu_pd *)a->pd->uobj->priv)->pdn);
	prm_set(in, PRM_QPC_WQ_SIGNATURE,
		!!(c->flags & MLX5_QP_FLAG_SIGNATURE));
	if (rq_cnt) {
		prm_set(in, PRM_QPC_LOG_RQ_STRIDE, rq_shift - 4);
		prm_set(in, PRM_QPC_LOG_RQ_SIZE, 31 - __builtin_clz(rq_cnt));
	}
	prm_set(in, PRM_QPC_RQ_TYPE, has_rq ? PRM_QP_RQ_REGULAR :
					      PRM_QP_RQ_ZERO_LEN);
	if (c->sq_wqe_count)
		prm_set(in, PRM_QPC_LOG_SQ_SIZE,
			__builtin_ctz(c->sq_wqe_count));
	else
		prm_set(in, PRM_QPC_NO_SQ, 1);
	prm_set(in, PRM_QPC_UAR_PAGE, u->uar_page);
	prm_set(in, PRM_QPC_USER_INDEX, u->uidx);
	prm_set(in, PRM_QPC_PAGE_OFFSET, (c->buf_addr & 0xfff) >> 6);
	if (a->scq)
		prm_set(in, PRM_QPC_CQN_SND,
			((struct emu_cq *)a->scq->uobj->priv)->cqn);
	if (a->rcq)
		prm_set(in, PRM_QPC_CQN_RCV,
			((struct emu_cq *)a->rcq->uobj->priv)->cqn);
	prm_set64(in, PRM_QPC_DBR_ADDR, c->db_addr);
	ret = emu_cmd_exec(b->dev, in, inlen, out, sizeof(out));
	free(in);
	if (ret)
		return ret;
	qp->qpn = prm_get(out, PRM_OUT_OBJN);
	return 0;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_QP_CREATE) for RC, UC and UD: an
 * XRC domain named -> EINVAL, no PD or send or receive CQ -> ENOENT (the
 * missing attribute), flags other than SQ_SIG_ALL -> EINVAL (for these
 * types), a source QPN -> EINVAL; an indirection table, an SRQ or any
 * other type (raw packet, XRC, DC) -> EOPNOTSUPP, as the model does not
 * create them.
 */
static int qp_create_args(struct emu_bundle *b, struct qp_create *a)
{
	int64_t type;
	uint64_t flags;
	int ret;

	if (emu_copy_from(b, UVERBS_ATTR_CREATE_QP_CAP, &a->cap,
			  sizeof(a->cap)))
		return -EFAULT;
	ret = emu_get_const(b, UVERBS_ATTR_CREATE_QP_TYPE, &type, 0,
			    UINT8_MAX, NULL);
	if (ret)
		return ret;
	a->type = (unsigned int)type;
	if (a->type != EMU_QPT_RC && a->type != EMU_QPT_UC &&
	    a->type != EMU_QPT_UD)
		return -EOPNOTSUPP;
	if (emu_attr_is_valid(b, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE))
		return -EINVAL;
	a->pd = emu_attr(b, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	if (!a->pd)
		return -ENOENT;
	if (emu_attr_is_valid(b, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE) ||
	    emu_attr_is_valid(b, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE))
		return -EOPNOTSUPP;
	a->scq = emu_attr(b, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	if (!a->scq)
		return -ENOENT;
	a->rcq = emu_attr(b, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	if (!a->rcq)
		return -ENOENT;
	ret = emu_get_flags64(b, UVERBS_ATTR_CREATE_QP_FLAGS, &flags,
			      IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
			      IB_UVERBS_QP_CREATE_SCATTER_FCS |
			      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |
			      IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING |
			      IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	if (ret)
		return ret;
	/* check_creation_flags(): the others are for UD or raw packet */
	if (flags & ~(uint64_t)EMU_QP_CREATE_SQ_SIG_ALL &&
	    (a->type != EMU_QPT_UD ||
	     flags & (IB_UVERBS_QP_CREATE_SCATTER_FCS |
		      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING)))
		return -EINVAL;
	/* mlx5: of those, UD takes none the model offers */
	if (flags & ~(uint64_t)EMU_QP_CREATE_SQ_SIG_ALL)
		return -EOPNOTSUPP;
	a->flags = (uint32_t)flags;
	if (emu_attr_is_valid(b, UVERBS_ATTR_CREATE_QP_SOURCE_QPN))
		return -EINVAL;
	return 0;
}

int emu_h_qp_create(struct emu_bundle *b)
{
	struct emu_battr *h = emu_attr(b, UVERBS_ATTR_CREATE_QP_HANDLE);
	struct emu_battr *uhw_out = emu_attr(b, UVERBS_ATTR_UHW_OUT);
	struct mlx5_ib_create_qp_resp resp = {};
	struct qp_create a = {};
	struct emu_ucontext *c;
	struct qp_udata u;
	struct emu_qp *qp;
	int ret;

	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	ret = qp_create_args(b, &a);
	if (ret)
		return ret;
	ret = qp_user_data(b, &u);
	if (ret)
		return ret;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return -ENOMEM;
	qp->uid = ((struct emu_pd *)a.pd->uobj->priv)->uid;
	qp->type = (uint8_t)a.type;
	qp->state = EMU_QPS_RESET;
	qp->sq_sig_all = a.flags & EMU_QP_CREATE_SQ_SIG_ALL;
	qp->max_inline_data = a.cap.max_inline_data;
	ret = qp_fw_create(b, &a, &u, qp);
	if (ret) {
		free(qp);
		return ret;
	}
	qp->pd = a.pd->uobj;
	qp->send_cq = a.scq->uobj;
	qp->recv_cq = a.rcq->uobj;
	qp->pd->users++;
	qp->send_cq->users++;
	qp->recv_cq->users++;
	h->uobj->priv = qp;
	h->uobj->destroy = qp_destroy;
	if (!a.cap.max_recv_wr)
		a.cap.max_recv_sge = 0;
	resp.bfreg_index = EMU_INVALID_BFREG;
	if (uhw_out)
		emu_reply_add(b->rep, uhw_out->uidx, EMU_WB_BUF, &resp,
			      uhw_out->len < sizeof(resp) ? uhw_out->len :
							    sizeof(resp));
	ret = emu_copy_to_struct_or_zero(b, UVERBS_ATTR_CREATE_QP_RESP_CAP,
					 &a.cap, sizeof(a.cap));
	if (ret)
		return ret;
	return emu_copy_to(b, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qp->qpn,
			   sizeof(qp->qpn));
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_QP_DESTROY): no events ever came */
int emu_h_qp_destroy(struct emu_bundle *b)
{
	struct ib_uverbs_destroy_qp_resp resp = {};

	return emu_copy_to(b, UVERBS_ATTR_DESTROY_QP_RESP, &resp,
			   sizeof(resp));
}

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
	if (mask & EMU_QP_DEST_QPN)
		prm_set(in, PRM_QPC_REMOTE_QPN, m->dest_qp_num);
	if (mask & EMU_QP_PKEY_INDEX)
		prm_set(in, PRM_QPC_PRI_PKEY_INDEX, m->pkey_index);
	prm_set(in, PRM_QPC_PRI_VHCA_PORT_NUM,
		mask & EMU_QP_PORT ? m->port_num : qp->port);
	if (mask & EMU_QP_AV) {
		ret = set_path(in, &m->dest);
		if (ret)
			return ret;
	}
	if (mask & EMU_QP_TIMEOUT)
		prm_set(in, PRM_QPC_PRI_ACK_TIMEOUT, m->timeout);
	if (mask & EMU_QP_RNR_RETRY)
		prm_set(in, PRM_QPC_RNR_RETRY, m->rnr_retry);
	if (mask & EMU_QP_RETRY_CNT)
		prm_set(in, PRM_QPC_RETRY_COUNT, m->retry_cnt);
	if (mask & EMU_QP_MAX_QP_RD_ATOMIC)
		prm_set(in, PRM_QPC_LOG_SRA_MAX, ilog2_u8(m->max_rd_atomic));
	if (mask & EMU_QP_SQ_PSN)
		prm_set(in, PRM_QPC_NEXT_SEND_PSN, m->sq_psn);
	if (mask & EMU_QP_MAX_DEST_RD_ATOMIC)
		prm_set(in, PRM_QPC_LOG_RRA_MAX,
			ilog2_u8(m->max_dest_rd_atomic));
	if (mask & EMU_QP_MIN_RNR_TIMER)
		prm_set(in, PRM_QPC_MIN_RNR_NAK, m->min_rnr_timer);
	if (mask & EMU_QP_RQ_PSN)
		prm_set(in, PRM_QPC_NEXT_RCV_PSN, m->rq_psn);
	if (mask & EMU_QP_QKEY)
		prm_set(in, PRM_QPC_Q_KEY, m->qkey);
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

	/* uobj_get_obj_read(): no such QP -> EINVAL */
	if (emu_uobj_lookup(b->uf, UVERBS_OBJECT_QP, m->qp_handle,
			    EMU_ACCESS_READ, &uo))
		return -EINVAL;
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
	if (emu_uobj_lookup(b->uf, UVERBS_OBJECT_QP, cmd.qp_handle,
			    EMU_ACCESS_READ, &uo))
		return -EINVAL;
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
