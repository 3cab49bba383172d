// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_CQ: create and destroy, after
 * drivers/infiniband/core/uverbs_std_types_cq.c and the mlx5 driver's
 * mlx5_ib_create_cq() / create_cq_user() / mlx5_ib_destroy_cq()
 * (drivers/infiniband/hw/mlx5/cq.c).  The CQE ring and the doorbell
 * record are user memory; the firmware gets the ring as a page list.
 * No completion is ever written to the ring.
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

/* What create_cq_user() read from the driver data. */
struct cq_udata {
	struct mlx5_ib_create_cq ucmd;
	uint32_t uar_page;
};

/* completion EQs follow the async ones: DEVX QUERY_EQN says the same */
#define EMU_FIRST_COMP_EQN 7

/*
 * uverbs_free_cq() -> ib_destroy_cq_user(): a CQ a QP uses stays (EBUSY);
 * then mlx5_ib_destroy_cq(), which the firmware may refuse.
 */
static int cq_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		      enum emu_remove_reason why)
{
	struct emu_cq *cq = uo->priv;

	return emu_uobj_fw_destroy(uf, uo, why, PRM_OP_DESTROY_CQ, cq->uid,
				   cq->cqn);
}

/* mini_cqe_res_format_to_hw(): the device has no stride index format */
static int mini_cqe_format(uint8_t fmt)
{
	switch (fmt) {
	case MLX5_IB_CQE_RES_FORMAT_HASH:
		return 0;
	case MLX5_IB_CQE_RES_FORMAT_CSUM:
		return 1;
	case MLX5_IB_CQE_RES_FORMAT_CSUM_STRIDX:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/*
 * follows create_cq_user(): the request must reach the flags (EINVAL);
 * unknown flags, a CQE size other than 64 or 128, reserved fields set
 * -> EINVAL; a context with dynamic UARs must name its UAR page
 * (EINVAL); 128-byte CQE padding and real time stamps are capabilities
 * the device lacks (EOPNOTSUPP).  A longer request's tail is not read.
 */
static int cq_user_data(struct emu_bundle *b, struct cq_udata *u)
{
	struct emu_battr *in = emu_attr(b, UVERBS_ATTR_UHW_IN);
	size_t len = in ? in->len : 0;
	struct mlx5_ib_create_cq *c = &u->ucmd;

	memset(u, 0, sizeof(*u));
	if (len < offsetof(struct mlx5_ib_create_cq, flags))
		return -EINVAL;
	memcpy(c, in->in, len < sizeof(*c) ? len : sizeof(*c));
	if (c->flags & ~(MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |
			 MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX |
			 MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS))
		return -EINVAL;
	if ((c->cqe_size != 64 && c->cqe_size != 128) || c->reserved0 ||
	    c->reserved1)
		return -EINVAL;
	if (c->flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX)
		u->uar_page = c->uar_page_index;
	else if (b->uf->uctx->lib_uar_dyn)
		return -EINVAL;
	if (c->flags & (MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |
			MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS))
		return -EOPNOTSUPP;
	return 0;
}

/* mlx5_core_create_cq(): the command with the ring's page list */
static int cq_fw_create(struct emu_bundle *b, const struct cq_udata *u,
			uint32_t entries, uint32_t vector, uint32_t flags,
			struct emu_cq *cq)
{
	const struct mlx5_ib_create_cq *c = &u->ucmd;
	uint64_t ring = (uint64_t)entries * c->cqe_size;
	size_t inlen;
	uint8_t *in;
	int ret, fmt;

	in = emu_cmd_user_queue_in(PRM_OP_CREATE_CQ, cq->uid, c->buf_addr,
				   ring, PRM_CQ_PAS_BYTE, &inlen);
	if (!in)
		return -ENOMEM;
	prm_set(in, PRM_CQC_CQE_SZ, c->cqe_size == 128);
	prm_set(in, PRM_CQC_LOG_CQ_SIZE, __builtin_ctz(entries));
	prm_set(in, PRM_CQC_UAR_PAGE, u->uar_page);
	prm_set(in, PRM_CQC_C_EQN, EMU_FIRST_COMP_EQN + vector);
	prm_set(in, PRM_CQC_PAGE_OFFSET, (c->buf_addr & 0xfff) >> 6);
	prm_set64(in, PRM_CQC_DBR_ADDR, c->db_addr);
	if (flags & IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN)
		prm_set(in, PRM_CQC_OI, 1);
	if (c->cqe_comp_en == 1) {
		fmt = mini_cqe_format(c->cqe_comp_res_format);
		if (fmt < 0) {
			free(in);
			return fmt;
		}
		prm_set(in, PRM_CQC_CQE_COMP_EN, 1);
		prm_set(in, PRM_CQC_MINI_CQE_RES_FORMAT, (uint32_t)fmt);
	}
	ret = emu_cmd_create(b->dev, in, inlen, &cq->cqn);
	free(in);
	return ret;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_CQ_CREATE) and mlx5_ib_create_cq():
 * flags beyond time stamps and overrun -> EINVAL, a completion vector
 * the device lacks -> EINVAL, more CQEs than log_max_cq_sz allows (or a
 * negative count) -> EINVAL; the ring holds the next power of two above
 * the count asked for, and the answer reports one less.
 */
int emu_h_cq_create(struct emu_bundle *b)
{
	struct emu_battr *h = emu_attr(b, UVERBS_ATTR_CREATE_CQ_HANDLE);
	struct mlx5_ib_create_cq_resp mresp = {};
	uint32_t vector, cqe;
	uint64_t user_handle, flags;
	struct emu_ucontext *c;
	struct cq_udata u;
	struct emu_cq *cq;
	int32_t entries, max;
	int ret;

	if (emu_copy_from(b, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, &vector,
			  sizeof(vector)) ||
	    emu_copy_from(b, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe)) ||
	    emu_copy_from(b, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, &user_handle,
			  sizeof(user_handle)))
		return -EFAULT;
	ret = emu_get_flags64(b, UVERBS_ATTR_CREATE_CQ_FLAGS, &flags,
			      IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
			      IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	if (ret)
		return ret;
	if (vector >= EMU_NUM_COMP_VECTORS)
		return -EINVAL;
	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	max = 1 << emu_cap_gen(b->dev, PRM_CAP_LOG_MAX_CQ_SZ);
	entries = (int32_t)cqe;
	if (entries < 0 || entries > max)
		return -EINVAL;
	entries = (int32_t)emu_roundup_pow2((uint32_t)entries + 1);
	if (entries > max)
		return -EINVAL;
	ret = cq_user_data(b, &u);
	if (ret)
		return ret;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -ENOMEM;
	cq->uid = c->devx_uid;
	cq->cqe = entries - 1;
	ret = cq_fw_create(b, &u, (uint32_t)entries, vector, (uint32_t)flags,
			   cq);
	if (ret) {
		free(cq);
		return ret;
	}
	/* from here an abort destroys the firmware CQ */
	h->uobj->priv = cq;
	h->uobj->destroy = cq_destroy;
	mresp.cqn = cq->cqn;
	emu_copy_to_uhw(b, &mresp, sizeof(mresp.cqn));
	return emu_copy_to(b, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cq->cqe,
			   sizeof(cq->cqe));
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_CQ_DESTROY): no events ever came */
int emu_h_cq_destroy(struct emu_bundle *b)
{
	return emu_copy_zeros(b, UVERBS_ATTR_DESTROY_CQ_RESP,
			      sizeof(struct ib_uverbs_destroy_cq_resp));
}

/*
 * follows ib_uverbs_destroy_cq(): uobj_get_destroy() of the handle (a
 * stale or unknown one ENOENT), then the response with the event counts,
 * which stay 0 as the model raises no events
 */
int emu_cmd_destroy_cq(struct emu_bundle *b)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = emu_write_destroy(b, UVERBS_OBJECT_CQ, cmd.cq_handle);
	if (ret)
		return ret;
	return emu_write_response(b, &resp, sizeof(resp));
}

/*
 * uobj_get_obj_read() of a CQ: 6.12 passes the lookup's errno on (none
 * ENOENT, another type EINVAL); the caller unlocks
 */
static int cq_read(struct emu_bundle *b, uint32_t handle,
		   struct emu_uobj **uo)
{
	return emu_uobj_lookup(b->uf, UVERBS_OBJECT_CQ, handle,
			       EMU_ACCESS_READ, uo);
}

/*
 * follows ib_uverbs_resize_cq() and mlx5_ib_resize_cq(): the device does
 * not report cq_resize (the model cannot write the resize CQE the library
 * waits for), so a resize is -ENOSYS, as mlx5 answers then
 */
int emu_cmd_resize_cq(struct emu_bundle *b)
{
	struct ib_uverbs_resize_cq cmd;
	struct emu_uobj *uo;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = cq_read(b, cmd.cq_handle, &uo);
	if (ret)
		return ret;
	ret = emu_cap_gen(b->dev, PRM_CAP_CQ_RESIZE) ? -EOPNOTSUPP : -ENOSYS;
	emu_uobj_unlock(uo, EMU_ACCESS_READ);
	return ret;
}

/* IB_CQ_MODERATE, MLX5_MAX_CQ_PERIOD */
#define EMU_CQ_MODERATE 1
#define EMU_MAX_CQ_PERIOD 0xfff

/*
 * follows ib_uverbs_ex_modify_cq(), rdma_set_cq_moderation() and
 * mlx5_ib_modify_cq(): no mask or a reserved field -> EINVAL, a mask
 * beyond moderation -> EOPNOTSUPP, no such CQ -> ENOENT, a period past
 * 12 bits -> EINVAL; then MODIFY_CQ sets period and count
 */
int emu_cmd_ex_modify_cq(struct emu_bundle *b)
{
	uint8_t in[PRM_MODIFY_CQ_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	struct ib_uverbs_ex_modify_cq cmd;
	struct emu_uobj *uo;
	struct emu_cq *cq;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (!cmd.attr_mask || cmd.reserved)
		return -EINVAL;
	if (cmd.attr_mask > EMU_CQ_MODERATE)
		return -EOPNOTSUPP;
	ret = cq_read(b, cmd.cq_handle, &uo);
	if (ret)
		return ret;
	cq = uo->priv;
	if (!emu_cap_gen(b->dev, PRM_CAP_CQ_MODERATION)) {
		ret = -EOPNOTSUPP;
	} else if (cmd.attr.cq_period > EMU_MAX_CQ_PERIOD) {
		ret = -EINVAL;
	} else {
		prm_set(in, PRM_HDR_OPCODE, PRM_OP_MODIFY_CQ);
		prm_set(in, PRM_HDR_UID, cq->uid);
		prm_set(in, PRM_HDR_OP_MOD, PRM_MODIFY_CQ_OP_MODIFY);
		prm_set(in, PRM_IN_OBJN, cq->cqn);
		prm_set(in, PRM_MODIFY_CQ_FIELD_SELECT,
			PRM_MODIFY_CQ_PERIOD | PRM_MODIFY_CQ_COUNT);
		prm_set(in, PRM_CQC_CQ_PERIOD, cmd.attr.cq_period);
		prm_set(in, PRM_CQC_CQ_MAX_COUNT, cmd.attr.cq_count);
		ret = emu_cmd_exec(b->dev, in, sizeof(in), out, sizeof(out));
	}
	emu_uobj_unlock(uo, EMU_ACCESS_READ);
	return ret;
}
