// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_QP: create and destroy (ioctl), after
 * drivers/infiniband/core/uverbs_std_types_qp.c and the mlx5 driver's
 * qp.c, for RC, UC and UD QPs.  The work queues and the doorbell record
 * are user memory; the firmware gets the queues as a page list.  Modify
 * and query are in verbs_qp_modify.c.  Nothing ever moves through a QP.
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
#include "verbs_qp.h"
#include "wire.h"

/* MLX5_IB_INVALID_BFREG: the QP uses a UAR page the library allocated */
#define EMU_INVALID_BFREG 0x80000000u
/* MLX5_IB_UIDX_MAX, MLX5_IB_DEFAULT_UIDX */
#define EMU_UIDX_MAX 0xffffff
#define EMU_DEFAULT_UIDX 0xffffff
/* ib_qp_create_flags the uverbs layer passes to the driver */
#define EMU_QP_CREATE_SQ_SIG_ALL IB_UVERBS_QP_CREATE_SQ_SIG_ALL

/* The firmware's service type of each QP type qp_create_args() takes. */
static const uint8_t qp_st[] = {
	[EMU_QPT_RC] = PRM_QP_ST_RC,
	[EMU_QPT_UC] = PRM_QP_ST_UC,
	[EMU_QPT_UD] = PRM_QP_ST_UD,
};

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
		emu_cmd_on_obj(uf->dev, PRM_OP_2RST_QP, qp->uid, qp->qpn);
	ret = emu_cmd_on_obj(uf->dev, PRM_OP_DESTROY_QP, qp->uid, qp->qpn);
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
	uint64_t bytes;
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
		/* the firmware's log_rq_size cannot say more */
		if (rq_cnt > max_sz)
			return -EINVAL;
		qp->rq_wqe_cnt = rq_cnt;
		qp->rq_max_gs = (uint32_t)((1ull << rq_shift) / 16) -
				!!(c->flags & MLX5_QP_FLAG_SIGNATURE);
	}
	if ((c->sq_wqe_count & (c->sq_wqe_count - 1)) ||
	    c->sq_wqe_count > max_sz)
		return -EINVAL;
	bytes = ((uint64_t)rq_cnt << rq_shift) + (uint64_t)c->sq_wqe_count * 64;
	in = emu_cmd_user_queue_in(PRM_OP_CREATE_QP, qp->uid, c->buf_addr,
				   bytes, PRM_QP_PAS_BYTE, &inlen);
	if (!in)
		return -ENOMEM;
	prm_set(in, PRM_QPC_ST, qp_st[a->type]);
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
	ret = emu_cmd_create(b->dev, in, inlen, &qp->qpn);
	free(in);
	return ret;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_QP_CREATE) for RC, UC and UD: a
 * type uverbs does not have -> EINVAL, an XRC domain named -> EINVAL, no
 * PD or send or receive CQ -> ENOENT (the missing attribute), flags other
 * than SQ_SIG_ALL -> EINVAL (for these types), a source QPN -> EINVAL;
 * an indirection table, an SRQ or another type uverbs has (raw packet,
 * XRC, DC) -> EOPNOTSUPP, as the model does not create them.
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
	switch (type) {
	case EMU_QPT_RC:
	case EMU_QPT_UC:
	case EMU_QPT_UD:
		break;
	case IB_UVERBS_QPT_RAW_PACKET:
	case IB_UVERBS_QPT_XRC_INI:
	case IB_UVERBS_QPT_XRC_TGT:
	case IB_UVERBS_QPT_DRIVER:
		return -EOPNOTSUPP;	/* the kernel's, not modelled */
	default:
		return -EINVAL;
	}
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
	emu_copy_to_uhw(b, &resp, sizeof(resp));
	ret = emu_copy_to_struct_or_zero(b, UVERBS_ATTR_CREATE_QP_RESP_CAP,
					 &a.cap, sizeof(a.cap));
	if (ret)
		return ret;
	return emu_copy_to(b, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qp->qpn,
			   sizeof(qp->qpn));
}

uint32_t emu_verbs_qp_num(const struct emu_uobj *uo)
{
	return ((const struct emu_qp *)uo->priv)->qpn;
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_QP_DESTROY): no events ever came */
int emu_h_qp_destroy(struct emu_bundle *b)
{
	return emu_copy_zeros(b, UVERBS_ATTR_DESTROY_QP_RESP,
			      sizeof(struct ib_uverbs_destroy_qp_resp));
}
