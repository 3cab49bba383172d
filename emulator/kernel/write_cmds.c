// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The legacy write() commands libibverbs 44 still issues, reached through
 * UVERBS_METHOD_INVOKE_WRITE as a modern kernel offers them
 * (uverbs_std_types_device.c, uverbs_cmd.c, uverbs_uapi.c); next to the
 * PD they allocate, mlx5's PD_QUERY method (std_types.c).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include "rdma_uapi_compat.h"	/* <rdma/mlx5_user_ioctl_cmds.h> */

#include "mlx5_cmd.h"
#include "prm_opcodes.h"
#include "uverbs.h"
#include "wire.h"

struct write_method {
	uint32_t cmd;		/* with IB_USER_VERBS_CMD_FLAG_EXTENDED */
	size_t req_size;	/* UAPI_DEF_WRITE_*() sizes */
	size_t resp_size;
	int (*handler)(struct emu_bundle *b);
	const char *name;
};

struct udata {
	const uint8_t *in;
	size_t inlen;
	size_t outlen;
};

static void get_udata(struct emu_bundle *b, uint16_t in_id, uint16_t out_id,
		      struct udata *u)
{
	struct emu_battr *in = emu_attr(b, in_id);
	struct emu_battr *out = emu_attr(b, out_id);

	u->in = in ? in->in : NULL;
	u->inlen = in ? in->len : 0;
	u->outlen = out ? out->len : 0;
}

/* follows uverbs_request(): a longer request must have a zero tail */
int emu_write_request(struct emu_bundle *b, void *req, size_t req_len)
{
	struct udata core;
	size_t i;

	get_udata(b, UVERBS_ATTR_CORE_IN, UVERBS_ATTR_CORE_OUT, &core);
	memset(req, 0, req_len);
	memcpy(req, core.in, core.inlen < req_len ? core.inlen : req_len);
	for (i = req_len; i < core.inlen; i++)
		if (core.in[i])
			return -EOPNOTSUPP;
	return 0;
}

/* follows uverbs_response() */
int emu_write_response(struct emu_bundle *b, const void *resp, size_t len)
{
	if (emu_attr_is_valid(b, UVERBS_ATTR_CORE_OUT))
		return emu_copy_to_struct_or_zero(b, UVERBS_ATTR_CORE_OUT,
						  resp, len);
	return 0;
}

static void fill_query_device(struct emu_device *dev,
			      struct ib_uverbs_query_device_resp *r)
{
	/* copy_query_dev_fields() of mlx5_ib_query_device()'s attributes */
	r->fw_ver = ((uint64_t)EMU_FW_VER_MAJOR << 32) |
		    ((uint64_t)EMU_FW_VER_MINOR << 16) | EMU_FW_VER_SUB;
	r->node_guid = htobe64(dev->node_guid);
	r->sys_image_guid = htobe64(dev->sys_image_guid);
	r->max_mr_size = ~0ull;
	r->page_size_cap = ~0xfffull;
	r->vendor_id = 0x02c9;
	r->vendor_part_id = EMU_PCI_DEVICE_ID;
	r->hw_ver = 0;
	r->max_qp = 1u << 18;
	r->max_qp_wr = 1u << 15;
	r->device_cap_flags = EMU_DEVICE_CAP_FLAGS;
	r->max_sge = 30;
	r->max_sge_rd = 30;
	r->max_cq = 1u << 24;
	r->max_cqe = (1u << 22) - 1;
	r->max_mr = 1u << 24;
	r->max_pd = 1u << 24;
	r->max_qp_rd_atom = 16;
	r->max_qp_init_rd_atom = 16;
	r->max_res_rd_atom = 16u << 18;
	r->atomic_cap = 1;	/* IB_ATOMIC_HCA */
	r->max_mw = 1u << 24;
	r->max_mcast_grp = 1u << 21;
	r->max_mcast_qp_attach = 240;
	r->max_total_mcast_qp_attach = 240u << 21;
	r->max_ah = 0x7fffffff;
	r->max_srq = 1u << 23;
	r->max_srq_wr = (1u << 15) - 1;
	r->max_srq_sge = 31;
	r->max_pkeys = 128;
	r->local_ca_ack_delay = 16;
	r->phys_port_cnt = EMU_NUM_PORTS;
}

/*
 * follows mlx5_ib_query_device()'s udata: input must be all zero, the
 * mlx5 response is written up to what fits
 */
static int mlx5_query_device_udata(struct emu_bundle *b)
{
	struct mlx5_ib_query_device_resp resp = {};
	struct emu_battr *out = emu_attr(b, UVERBS_ATTR_UHW_OUT);
	struct udata u;
	size_t i, n;

	get_udata(b, UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT, &u);
	for (i = 0; i < u.inlen; i++)
		if (u.in[i])
			return -EINVAL;
	if (!out)
		return 0;
	n = u.outlen < sizeof(resp) ? u.outlen : sizeof(resp);
	resp.response_length = n < 8 ? 0 : (uint32_t)n;
	emu_reply_add(b->rep, out->uidx, EMU_WB_BUF, &resp, n);
	return 0;
}

/* follows ib_uverbs_query_device() */
static int cmd_query_device(struct emu_bundle *b)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_uverbs_query_device cmd;
	struct emu_ucontext *uctx;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	fill_query_device(b->dev, &resp);
	return emu_write_response(b, &resp, sizeof(resp));
}

/* follows ib_uverbs_ex_query_device() */
static int cmd_ex_query_device(struct emu_bundle *b)
{
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_uverbs_ex_query_device cmd;
	struct emu_ucontext *uctx;
	struct udata core;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	ret = mlx5_query_device_udata(b);
	if (ret)
		return ret;
	fill_query_device(b->dev, &resp.base);
	resp.timestamp_mask = (1ull << 63) - 1;
	resp.hca_core_clock = 156250;
	/*
	 * max_wq_type_rq and the RSS caps stay 0: mlx5_ib_query_device()
	 * sets them for an Ethernet port only, and the ports are InfiniBand
	 * (nor are WQs modelled).
	 */
	get_udata(b, UVERBS_ATTR_CORE_IN, UVERBS_ATTR_CORE_OUT, &core);
	/* uverbs_response_length() */
	resp.response_length = core.outlen < sizeof(resp) ?
			       (uint32_t)core.outlen : sizeof(resp);
	return emu_write_response(b, &resp, sizeof(resp));
}

/*
 * uverbs_free_pd(): a PD a QP is built on stays (EBUSY) when user space
 * destroys it; then mlx5_ib_dealloc_pd(), which the firmware may refuse.
 */
static int pd_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		      enum emu_remove_reason why)
{
	struct emu_pd *pd = uo->priv;

	return emu_uobj_fw_destroy(uf, uo, why, PRM_OP_DEALLOC_PD, pd->uid,
				   pd->pdn);
}

/* follows ib_uverbs_alloc_pd() and mlx5_ib_alloc_pd() */
static int cmd_alloc_pd(struct emu_bundle *b)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct mlx5_ib_alloc_pd_resp mresp = {};
	struct ib_uverbs_alloc_pd cmd;
	struct emu_uobj *uo;
	struct emu_pd *pd;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (!b->uf->uctx)
		return -EINVAL;
	ret = emu_uobj_alloc(b->uf, UVERBS_OBJECT_PD, &uo);
	if (ret)
		return ret;
	b->write_new = uo;
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return -ENOMEM;
	pd->uid = b->uf->uctx->devx_uid;
	ret = emu_mlx5_alloc_pd(b->dev, pd->uid, &pd->pdn);
	if (ret) {
		free(pd);
		return ret;
	}
	uo->priv = pd;
	uo->destroy = pd_destroy;
	mresp.pdn = pd->pdn;
	emu_copy_to_uhw(b, &mresp, sizeof(mresp));
	resp.pd_handle = uo->id;
	return emu_write_response(b, &resp, sizeof(resp));
}

int emu_write_destroy(struct emu_bundle *b, uint16_t type, uint32_t handle)
{
	struct emu_uobj *uo;
	int ret;

	ret = emu_uobj_lookup(b->uf, type, handle, EMU_ACCESS_DESTROY, &uo);
	if (ret)
		return ret;
	ret = emu_uobj_destroy(b->uf, uo, EMU_REMOVE_DESTROY);
	if (ret)
		emu_uobj_unlock(uo, EMU_ACCESS_DESTROY);
	return ret;
}

/* follows ib_uverbs_dealloc_pd() */
static int cmd_dealloc_pd(struct emu_bundle *b)
{
	struct ib_uverbs_dealloc_pd cmd;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return emu_write_destroy(b, UVERBS_OBJECT_PD, cmd.pd_handle);
}

/*
 * follows UVERBS_HANDLER(MLX5_IB_METHOD_PD_QUERY), what ibv_import_pd()
 * asks: the core looked the handle up shared (a missing or destroyed one
 * ENOENT, another type's EINVAL); the PD's number
 */
int emu_h_pd_query(struct emu_bundle *b)
{
	struct emu_uobj *uo = emu_attr(b, MLX5_IB_ATTR_QUERY_PD_HANDLE)->uobj;
	struct emu_pd *pd = uo->priv;

	return emu_copy_to(b, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, &pd->pdn,
			   sizeof(pd->pdn));
}

static const struct write_method write_methods[] = {
	{ IB_USER_VERBS_CMD_QUERY_DEVICE, sizeof(struct ib_uverbs_query_device),
	  sizeof(struct ib_uverbs_query_device_resp), cmd_query_device,
	  "QUERY_DEVICE" },
	{ IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
	  sizeof(struct ib_uverbs_ex_query_device),
	  offsetof(struct ib_uverbs_ex_query_device_resp, response_length) +
		  sizeof(uint32_t),
	  cmd_ex_query_device, "EX_QUERY_DEVICE" },
	{ IB_USER_VERBS_CMD_ALLOC_PD, sizeof(struct ib_uverbs_alloc_pd),
	  sizeof(struct ib_uverbs_alloc_pd_resp), cmd_alloc_pd, "ALLOC_PD" },
	{ IB_USER_VERBS_CMD_DEALLOC_PD, sizeof(struct ib_uverbs_dealloc_pd), 0,
	  cmd_dealloc_pd, "DEALLOC_PD" },
	{ IB_USER_VERBS_CMD_REG_MR, sizeof(struct ib_uverbs_reg_mr),
	  sizeof(struct ib_uverbs_reg_mr_resp), emu_cmd_reg_mr, "REG_MR" },
	{ IB_USER_VERBS_CMD_DEREG_MR, sizeof(struct ib_uverbs_dereg_mr), 0,
	  emu_cmd_dereg_mr, "DEREG_MR" },
	{ IB_USER_VERBS_CMD_DESTROY_CQ, sizeof(struct ib_uverbs_destroy_cq),
	  sizeof(struct ib_uverbs_destroy_cq_resp), emu_cmd_destroy_cq,
	  "DESTROY_CQ" },
	{ IB_USER_VERBS_CMD_RESIZE_CQ, sizeof(struct ib_uverbs_resize_cq),
	  sizeof(struct ib_uverbs_resize_cq_resp), emu_cmd_resize_cq,
	  "RESIZE_CQ" },
	{ IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ,
	  sizeof(struct ib_uverbs_ex_modify_cq), 0, emu_cmd_ex_modify_cq,
	  "EX_MODIFY_CQ" },
	{ IB_USER_VERBS_CMD_MODIFY_QP, sizeof(struct ib_uverbs_modify_qp), 0,
	  emu_cmd_modify_qp, "MODIFY_QP" },
	{ IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP,
	  sizeof(struct ib_uverbs_modify_qp),
	  offsetof(struct ib_uverbs_ex_modify_qp_resp, response_length) +
		  sizeof(uint32_t),
	  emu_cmd_ex_modify_qp, "EX_MODIFY_QP" },
	{ IB_USER_VERBS_CMD_QUERY_QP, sizeof(struct ib_uverbs_query_qp),
	  sizeof(struct ib_uverbs_query_qp_resp), emu_cmd_query_qp,
	  "QUERY_QP" },
};

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_INVOKE_WRITE) and uapi_get_method():
 * bits outside the command mask and the extended flag -> EINVAL, an
 * unknown command -> EOPNOTSUPP, a core buffer shorter than the command's
 * request or response -> ENOSPC.
 */
int emu_h_invoke_write(struct emu_bundle *b)
{
	const struct write_method *wm = NULL;
	struct udata core;
	uint32_t cmd;
	size_t i;
	int ret;

	ret = emu_get_const_u32(b, UVERBS_ATTR_WRITE_CMD, &cmd);
	if (ret)
		return ret;
	if (cmd & ~(uint32_t)(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			      IB_USER_VERBS_CMD_COMMAND_MASK))
		return -EINVAL;
	for (i = 0; i < sizeof(write_methods) / sizeof(write_methods[0]); i++)
		if (write_methods[i].cmd == cmd)
			wm = &write_methods[i];
	if (!wm)
		return -EOPNOTSUPP;
	get_udata(b, UVERBS_ATTR_CORE_IN, UVERBS_ATTR_CORE_OUT, &core);
	if (core.inlen < wm->req_size || core.outlen < wm->resp_size)
		return -ENOSPC;
	return wm->handler(b);
}
