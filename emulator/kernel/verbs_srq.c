// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_SRQ: create and destroy of basic SRQs, after
 * drivers/infiniband/core/uverbs_std_types_srq.c and the mlx5 driver's
 * mlx5_ib_create_srq() / create_srq_user() (srq.c).  The queue and its
 * doorbell record are user memory; the firmware gets the queue as a page
 * list.  The model creates it with CREATE_SRQ (a kernel at ISSI 1 uses an
 * RMP; the answer to user space is the same).  XRC and tag matching SRQs
 * are not modelled, and no QP attaches to an SRQ.
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
#include "uverbs.h"
#include "wire.h"

/* sizeof(struct mlx5_wqe_srq_next_seg), of a data segment */
#define EMU_SRQ_NEXT_SEG 16
#define EMU_DATA_SEG 16
/* MLX5_IB_UIDX_MAX, MLX5_IB_DEFAULT_UIDX */
#define EMU_UIDX_MAX 0xffffff
#define EMU_DEFAULT_UIDX 0xffffff

struct emu_srq {
	uint32_t srqn;
	uint16_t uid;
	struct emu_uobj *pd;
};

uint32_t emu_verbs_srq_num(const struct emu_uobj *uo)
{
	return ((const struct emu_srq *)uo->priv)->srqn;
}

/* uverbs_free_srq() -> mlx5_ib_destroy_srq(); its PD loses a user */
static int srq_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		       enum emu_remove_reason why)
{
	struct emu_srq *srq = uo->priv;
	struct emu_uobj *pd = srq->pd;
	int ret = emu_uobj_fw_destroy(uf, uo, why, PRM_OP_DESTROY_SRQ, srq->uid,
				      srq->srqn);

	if (!ret)
		pd->users--;
	return ret;
}

/*
 * follows create_srq_user(): reserved fields, or non-zero bytes past the
 * structure -> EINVAL; the user index as for QPs (EINVAL)
 */
static int srq_user_data(struct emu_bundle *b, struct mlx5_ib_create_srq *c)
{
	struct emu_battr *in = emu_attr(b, UVERBS_ATTR_UHW_IN);
	size_t len = in ? in->len : 0, i;
	const uint8_t *p = in ? in->in : NULL;

	memset(c, 0, sizeof(*c));
	if (len)
		memcpy(c, p, len < sizeof(*c) ? len : sizeof(*c));
	if (c->reserved0 || c->reserved1)
		return -EINVAL;
	for (i = sizeof(*c); i < len; i++)
		if (p[i])
			return -EINVAL;
	if (b->uf->uctx->cqe_version ? c->uidx > EMU_UIDX_MAX :
				       c->uidx != EMU_DEFAULT_UIDX)
		return -EINVAL;
	return 0;
}

static int srq_fw_create(struct emu_bundle *b,
			 const struct mlx5_ib_create_srq *c, uint32_t max,
			 uint32_t desc_size, struct emu_srq *srq)
{
	size_t inlen;
	uint8_t *in;
	int ret;

	in = emu_cmd_user_queue_in(PRM_OP_CREATE_SRQ, srq->uid, c->buf_addr,
				   (uint64_t)max * desc_size,
				   PRM_SRQ_PAS_BYTE, &inlen);
	if (!in)
		return -ENOMEM;
	prm_set(in, PRM_SRQC_LOG_SRQ_SIZE, __builtin_ctz(max));
	prm_set(in, PRM_SRQC_LOG_RQ_STRIDE, __builtin_ctz(desc_size) - 4);
	prm_set(in, PRM_SRQC_WQ_SIGNATURE,
		!!(c->flags & MLX5_SRQ_FLAG_SIGNATURE));
	prm_set(in, PRM_SRQC_PAGE_OFFSET, (c->buf_addr & 0xfff) >> 6);
	prm_set(in, PRM_SRQC_PD, ((struct emu_pd *)srq->pd->priv)->pdn);
	prm_set64(in, PRM_SRQC_DBR_ADDR, c->db_addr);
	ret = emu_cmd_create(b->dev, in, inlen, &srq->srqn);
	free(in);
	return ret;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_SRQ_CREATE) and
 * mlx5_ib_create_srq() for basic SRQs: XRC and tag matching SRQs are not
 * modelled (EOPNOTSUPP), another type -> EINVAL; max_wr at or past
 * 2^log_max_srq_sz, or more SGEs than a WQE of max_wqe_sz_rq holds ->
 * EINVAL; WQEs hold a next segment and max_sge data
 * segments, rounded up to a power of two of at least 32 bytes; the queue
 * holds the next power of two above max_wr, reported as that less one.
 */
int emu_h_srq_create(struct emu_bundle *b)
{
	struct emu_battr *h = emu_attr(b, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	struct emu_battr *pd = emu_attr(b, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE);
	uint32_t max_wr, max_sge, limit, max, desc_size;
	struct mlx5_ib_create_srq_resp resp = {};
	struct mlx5_ib_create_srq c;
	uint64_t user_handle;
	struct emu_srq *srq;
	uint32_t type;
	int ret;

	if (emu_copy_from(b, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, &user_handle,
			  sizeof(user_handle)) ||
	    emu_copy_from(b, UVERBS_ATTR_CREATE_SRQ_MAX_WR, &max_wr,
			  sizeof(max_wr)) ||
	    emu_copy_from(b, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, &max_sge,
			  sizeof(max_sge)) ||
	    emu_copy_from(b, UVERBS_ATTR_CREATE_SRQ_LIMIT, &limit,
			  sizeof(limit)))
		return -EFAULT;
	ret = emu_get_const_u32(b, UVERBS_ATTR_CREATE_SRQ_TYPE, &type);
	if (ret)
		return ret;
	if (type == IB_UVERBS_SRQT_XRC || type == IB_UVERBS_SRQT_TM)
		return -EOPNOTSUPP;
	if (type != IB_UVERBS_SRQT_BASIC)
		return -EINVAL;
	if (max_wr >= 1u << emu_cap_gen(b->dev, PRM_CAP_LOG_MAX_SRQ_SZ))
		return -EINVAL;
	/* a data segment per SGE after the next segment, in max_wqe_sz_rq */
	if (max_sge > (UINT32_MAX - EMU_SRQ_NEXT_SEG) / EMU_DATA_SEG ||
	    EMU_SRQ_NEXT_SEG + max_sge * EMU_DATA_SEG >
		    emu_cap_gen(b->dev, PRM_CAP_MAX_WQE_SZ_RQ))
		return -EINVAL;
	desc_size = emu_roundup_pow2(EMU_SRQ_NEXT_SEG + max_sge * EMU_DATA_SEG);
	if (desc_size < 32)
		desc_size = 32;
	max = emu_roundup_pow2(max_wr + 1);
	ret = srq_user_data(b, &c);
	if (ret)
		return ret;
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return -ENOMEM;
	srq->pd = pd->uobj;
	srq->uid = ((struct emu_pd *)pd->uobj->priv)->uid;
	ret = srq_fw_create(b, &c, max, desc_size, srq);
	if (ret) {
		free(srq);
		return ret;
	}
	srq->pd->users++;
	h->uobj->priv = srq;
	h->uobj->destroy = srq_destroy;
	resp.srqn = srq->srqn;
	emu_copy_to_uhw(b, &resp, sizeof(resp));
	max_wr = max - 1;
	ret = emu_copy_to(b, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &max_wr,
			  sizeof(max_wr));
	if (ret)
		return ret;
	return emu_copy_to(b, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &max_sge,
			   sizeof(max_sge));
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_SRQ_DESTROY): no events ever came */
int emu_h_srq_destroy(struct emu_bundle *b)
{
	return emu_copy_zeros(b, UVERBS_ATTR_DESTROY_SRQ_RESP,
			      sizeof(struct ib_uverbs_destroy_srq_resp));
}
