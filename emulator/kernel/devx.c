// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_DEVX, MLX5_IB_OBJECT_DEVX_OBJ and MLX5_IB_OBJECT_DEVX_UMEM,
 * after drivers/infiniband/hw/mlx5/devx.c as of Linux 6.x: the command
 * classification comes from the firmware model's devx_cmd.h (a mirror of
 * devx.c's switch tables), the rules around it are here.
 *
 * Firmware errors: since Linux 5.18 (the mlx5_cmd_do() rework of the
 * command interface, and rdma-core's "mlx5: Handle the EREMOTEIO upon
 * DEVX usage" that followed it) the DEVX methods run commands with
 * mlx5_cmd_do(), copy the out mailbox (status and syndrome included) to
 * user space even when the firmware failed the command, and return
 * -EREMOTEIO in that case.  Before 5.18 they ran mlx5_cmd_exec(), whose
 * mlx5_cmd_check() turned the status into an errno (cmd_status_to_err():
 * BAD_PARAM, BAD_RES... EINVAL, RES_BUSY EBUSY, LIM_ERR ENOMEM...) and
 * copied nothing out.  The model answers as the release it is told
 * (mlx5-emu run --kernel=VERSION, devx_cmd_exec()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "rdma_uapi_compat.h"

#include "devx_cmd.h"
#include "kernel_version.h"
#include "mlx5_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "uverbs.h"
#include "wire.h"

struct devx_obj {
	uint64_t obj_id;		/* get_enc_obj_id() of what was made */
	uint32_t flow_counter_bulk_size;
	uint32_t dinlen;
	uint8_t dinbox[DEVX_CMD_DESTROY_INBOX_MAX];
};

struct devx_umem {
	uint64_t addr, size;
	uint32_t access;
	uint32_t umem_id;
	uint32_t dinlen;
	uint8_t dinbox[DEVX_CMD_DESTROY_INBOX_MAX];
};

static uint16_t cmd_opcode(const void *in)
{
	return (uint16_t)prm_get(in, PRM_HDR_OPCODE);
}

/* general_obj_in_cmd_hdr.vhca_tunnel_id */
static uint16_t cmd_vhca_tunnel_id(const void *in)
{
	return (uint16_t)prm_get(in, PRM_GOBJ_VHCA_TUNNEL_ID);
}

static bool devx_is_whitelist_cmd(const void *in)
{
	switch (cmd_opcode(in)) {
	case PRM_OP_QUERY_HCA_CAP:
	case PRM_OP_QUERY_HCA_VPORT_CONTEXT:
	case PRM_OP_QUERY_ESW_VPORT_CONTEXT:
	case PRM_OP_QUERY_ESW_FUNCTIONS:
		return true;
	default:
		return false;
	}
}

/*
 * follows devx_get_uid(): whitelisted queries may use the device's uid
 * when the context has none; anything else needs a DEVX context (EINVAL)
 */
static int devx_get_uid(struct emu_bundle *b, const void *in)
{
	struct emu_ucontext *c = b->uf->uctx;

	if (devx_is_whitelist_cmd(in)) {
		if (c->devx_uid)
			return c->devx_uid;
		if (b->dev->whitelist_uid)
			return b->dev->whitelist_uid;
		return -EOPNOTSUPP;
	}
	if (!c->devx_uid)
		return -EINVAL;
	return c->devx_uid;
}

/*
 * The uid a command runs under (devx_get_uid()) when it is of the kind
 * its method takes (else EINVAL)
 */
static int devx_cmd_uid(struct emu_bundle *b, const void *in, size_t in_len,
			bool (*is_kind)(const void *, size_t))
{
	int uid = devx_get_uid(b, in);

	if (uid >= 0 && !is_kind(in, in_len))
		return -EINVAL;
	return uid;
}

/*
 * The same for the object methods, which first refuse a command
 * addressed to another function (vhca_tunnel_id, EINVAL)
 */
static int devx_obj_uid(struct emu_bundle *b, const void *in, size_t in_len,
			bool (*is_kind)(const void *, size_t))
{
	if (cmd_vhca_tunnel_id(in))
		return -EINVAL;
	return devx_cmd_uid(b, in, in_len, is_kind);
}

/* a private copy of the in mailbox: the kernel's UA_ALLOC_AND_COPY */
static void *dup_in(struct emu_bundle *b, uint16_t id, size_t *len)
{
	struct emu_battr *a = emu_attr(b, id);
	void *p = malloc(a->len);

	if (p)
		memcpy(p, a->in, a->len);
	*len = a->len;
	return p;
}

/* MLX5_SET(general_obj_in_cmd_hdr, cmd_in, uid, uid) */
static void set_uid(void *in, uint16_t uid)
{
	prm_set(in, PRM_HDR_UID, uid);
}

/*
 * follows devx_is_valid_obj_id(): the handle is UVERBS_IDR_ANY_OBJECT, so
 * a verbs object passes when the command addresses its number, encoded
 * as get_enc_obj_id() encodes its create: a CQ's cqn (CREATE_CQ), a QP's
 * qpn (CREATE_QP), an SRQ's srqn (CREATE_SRQ: the model's kernel makes
 * basic SRQs with it, as mlx5 does at ISSI 0; at ISSI 1 it would be
 * CREATE_RMP).  The kernel also matches a raw packet QP's RQ/SQ/TIR/TIS,
 * a DCT, WQs (CREATE_RQ) and RWQ indirection tables (CREATE_RQT): the
 * model has none of them (their creates fail), so no handle can name
 * one.  A DEVX object matches the id its create made (for a bulk of flow
 * counters, any counter of the bulk); anything else fails the check.
 */
static bool devx_is_valid_obj_id(struct emu_uobj *uo, const void *in,
				 size_t inlen)
{
	uint64_t obj_id = devx_cmd_obj_id(in, inlen);
	struct devx_obj *obj;

	if (!obj_id)
		return false;
	switch (uo->type) {
	case UVERBS_OBJECT_CQ:
		return devx_cmd_enc_obj_id(PRM_OP_CREATE_CQ,
					   ((struct emu_cq *)uo->priv)->cqn) ==
		       obj_id;
	case UVERBS_OBJECT_QP:
		return devx_cmd_enc_obj_id(PRM_OP_CREATE_QP,
					   emu_verbs_qp_num(uo)) == obj_id;
	case UVERBS_OBJECT_SRQ:
		return devx_cmd_enc_obj_id(PRM_OP_CREATE_SRQ,
					   emu_verbs_srq_num(uo)) == obj_id;
	case MLX5_IB_OBJECT_DEVX_OBJ:
		break;
	default:
		return false;
	}
	obj = uo->priv;
	if (cmd_opcode(in) == PRM_OP_QUERY_FLOW_COUNTER &&
	    obj->flow_counter_bulk_size)
		return obj->obj_id <= obj_id &&
		       obj->obj_id + obj->flow_counter_bulk_size > obj_id;
	return obj->obj_id == obj_id;
}

/*
 * What every DEVX command method starts with: a ucontext, the private
 * copy of the in mailbox (in_id) and a zeroed out mailbox of out_len.
 * The caller frees *in and *out (NULL to begin with) whatever it returns.
 */
static int devx_cmd_bufs(struct emu_bundle *b, uint16_t in_id,
			 ssize_t out_len, void **in, size_t *in_len,
			 void **out)
{
	struct emu_ucontext *c;
	int ret;

	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	*in = dup_in(b, in_id, in_len);
	*out = calloc(1, out_len);
	if (!*in || !*out)
		return -ENOMEM;
	return 0;
}

/*
 * How a DEVX method runs its command: mlx5_cmd_do() since Linux 5.18
 * (-EREMOTEIO when the firmware failed it, the out mailbox for user
 * space), mlx5_cmd_exec() before (the status as cmd_status_to_err()
 * maps it, which the out mailbox never reaches user space with).
 */
static int devx_cmd_exec(struct emu_device *dev, void *in, size_t in_len,
			 void *out, size_t out_len)
{
	if (emu_kernel_before(5, 18))
		return emu_cmd_exec(dev, in, in_len, out, out_len);
	return emu_cmd_do(dev, in, in_len, out, out_len);
}

/*
 * Runs a checked command under uid and copies the out mailbox back, also
 * when the firmware failed it (-EREMOTEIO: user space reads the status).
 */
static int devx_run(struct emu_bundle *b, void *in, size_t in_len, int uid,
		    uint16_t out_id, void *out, size_t out_len)
{
	int ret, ret2;

	set_uid(in, (uint16_t)uid);
	ret = devx_cmd_exec(b->dev, in, in_len, out, out_len);
	if (ret && ret != -EREMOTEIO)
		return ret;
	ret2 = emu_copy_to(b, out_id, out, out_len);
	return ret2 ? ret2 : ret;
}

/* follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OTHER) */
int emu_h_devx_other(struct emu_bundle *b)
{
	ssize_t out_len = emu_attr_len(b, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT);
	void *in = NULL, *out = NULL;
	size_t in_len;
	int uid, ret;

	ret = devx_cmd_bufs(b, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, out_len, &in,
			    &in_len, &out);
	if (ret)
		goto out;
	uid = devx_cmd_uid(b, in, in_len, devx_cmd_is_general);
	if (uid < 0) {
		ret = uid;
		goto out;
	}
	ret = devx_run(b, in, in_len, uid, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT,
		       out, out_len);
out:
	free(in);
	free(out);
	return ret;
}

/*
 * follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_QUERY_UAR) and
 * bfregn_to_uar_index(): a context with dynamic UARs (every libmlx5 since
 * v30 asks for them) has no static bfregs -> EINVAL
 */
int emu_h_devx_query_uar(struct emu_bundle *b)
{
	struct emu_ucontext *c;
	uint32_t user_idx, dev_idx;
	int ret;

	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	if (emu_copy_from(b, MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX, &user_idx,
			  sizeof(user_idx)))
		return -EFAULT;
	if (c->lib_uar_dyn || user_idx >= c->total_num_bfregs)
		return -EINVAL;
	dev_idx = user_idx / 2;	/* MLX5_NON_FP_BFREGS_PER_UAR */
	return emu_copy_to(b, MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX, &dev_idx,
			   sizeof(dev_idx));
}

/*
 * follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_QUERY_EQN) and
 * mlx5_comp_eqn_get(): a vector beyond the completion vectors -> EINVAL
 */
int emu_h_devx_query_eqn(struct emu_bundle *b)
{
	struct emu_ucontext *c;
	int32_t user_vector;
	uint32_t eqn;
	int ret;

	if (emu_copy_from(b, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC,
			  &user_vector, sizeof(user_vector)))
		return -EFAULT;
	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	if (user_vector < 0 || user_vector >= EMU_NUM_COMP_VECTORS)
		return -EINVAL;
	/* the async EQs come first, then one completion EQ per vector */
	eqn = 7 + (uint32_t)user_vector;
	return emu_copy_to(b, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, &eqn,
			   sizeof(eqn));
}

/*
 * The saved destroy command of a DEVX object or UMEM: a failure keeps the
 * object only when user space asked for the destroy.
 */
static int devx_run_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
			    uint8_t *dinbox, uint32_t dinlen,
			    enum emu_remove_reason why)
{
	uint8_t out[16] = {};
	int ret;

	ret = emu_cmd_exec(uf->dev, dinbox, dinlen, out, sizeof(out));
	if (ret && why == EMU_REMOVE_DESTROY)
		return ret;
	free(uo->priv);
	uo->priv = NULL;
	return 0;
}

/* follows devx_obj_cleanup(): the saved destroy command */
static int devx_obj_cleanup(struct emu_ufile *uf, struct emu_uobj *uo,
			    enum emu_remove_reason why)
{
	struct devx_obj *obj = uo->priv;

	return devx_run_destroy(uf, uo, obj->dinbox, obj->dinlen, why);
}

/*
 * alloc_flow_counter_in: flow_counter_bulk_log_size and flow_counter_bulk,
 * as UVERBS_HANDLER(..._OBJ_CREATE) reads them to size the bulk
 */
static uint32_t flow_counter_bulk(const void *in, size_t in_len)
{
	uint32_t log, bulk;

	if (in_len < PRM_ALLOC_FC_IN_LEN)
		return 0;
	log = prm_get(in, PRM_ALLOC_FC_BULK_LOG);
	bulk = prm_get(in, PRM_ALLOC_FC_BULK);
	return log ? 1u << log : 128u * bulk;
}

/* follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_CREATE) */
int emu_h_devx_obj_create(struct emu_bundle *b)
{
	struct emu_battr *h = emu_attr(b, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE);
	ssize_t out_len = emu_attr_len(b, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT);
	struct devx_obj *obj = NULL;
	void *in = NULL, *out = NULL;
	size_t in_len;
	int uid, ret, ret2 = 0;

	ret = devx_cmd_bufs(b, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, out_len,
			    &in, &in_len, &out);
	if (ret)
		goto err;
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		ret = -ENOMEM;
		goto err;
	}
	uid = devx_obj_uid(b, in, in_len, devx_cmd_is_obj_create);
	if (uid < 0) {
		ret = uid;
		goto err;
	}
	set_uid(in, (uint16_t)uid);
	if (cmd_opcode(in) == PRM_OP_CREATE_MKEY) {
		ret = devx_cmd_mkey_create(in, in_len);
		if (ret)
			goto err;
	} else {
		devx_cmd_set_umem_valid(in, in_len);
	}
	/*
	 * The kernel runs CREATE_CQ through mlx5_core_create_cq() to hook the
	 * CQ to its EQ for completion events; the model has no events, so a
	 * CQ goes to firmware like every other create.
	 */
	ret = devx_cmd_exec(b->dev, in, in_len, out, out_len);
	if (ret == -EREMOTEIO)
		ret2 = emu_copy_to(b, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
				   out, out_len);
	if (ret)
		goto err;
	if (cmd_opcode(in) == PRM_OP_ALLOC_FLOW_COUNTER)
		obj->flow_counter_bulk_size = flow_counter_bulk(in, in_len);
	obj->obj_id = devx_cmd_created_obj_id(in, out);
	ret = devx_cmd_build_destroy(in, out, obj->dinbox, &obj->dinlen);
	if (ret)
		goto err;
	h->uobj->priv = obj;
	h->uobj->destroy = devx_obj_cleanup;
	obj = NULL;
	/* a failed copy aborts the uobject, whose destroy undoes the create */
	ret = emu_copy_to(b, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out,
			  out_len);
err:
	free(obj);
	free(in);
	free(out);
	return ret2 ? ret2 : ret;
}

/*
 * modify and query share everything but the classification, and modify
 * marks the queues a command names as lying in UMEMs, as create does
 */
static int devx_obj_cmd(struct emu_bundle *b, uint16_t handle_id,
			uint16_t in_id, uint16_t out_id,
			bool (*is_kind)(const void *, size_t), bool modify)
{
	struct emu_battr *h = emu_attr(b, handle_id);
	ssize_t out_len = emu_attr_len(b, out_id);
	void *in = NULL, *out = NULL;
	size_t in_len;
	int uid, ret;

	ret = devx_cmd_bufs(b, in_id, out_len, &in, &in_len, &out);
	if (ret)
		goto out;
	uid = devx_obj_uid(b, in, in_len, is_kind);
	if (uid < 0) {
		ret = uid;
		goto out;
	}
	if (!devx_is_valid_obj_id(h->uobj, in, in_len)) {
		ret = -EINVAL;
		goto out;
	}
	if (modify)
		devx_cmd_set_umem_valid(in, in_len);
	ret = devx_run(b, in, in_len, uid, out_id, out, out_len);
out:
	free(in);
	free(out);
	return ret;
}

/* follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_MODIFY) */
int emu_h_devx_obj_modify(struct emu_bundle *b)
{
	return devx_obj_cmd(b, MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE,
			    MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN,
			    MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT,
			    devx_cmd_is_obj_modify, true);
}

/* follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_QUERY) */
int emu_h_devx_obj_query(struct emu_bundle *b)
{
	return devx_obj_cmd(b, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE,
			    MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN,
			    MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT,
			    devx_cmd_is_obj_query, false);
}

/* follows devx_umem_cleanup() */
static int devx_umem_cleanup(struct emu_ufile *uf, struct emu_uobj *uo,
			     enum emu_remove_reason why)
{
	struct devx_umem *um = uo->priv;

	return devx_run_destroy(uf, uo, um->dinbox, um->dinlen, why);
}

#define EMU_UMEM_MAX_PAGES (1u << 20)

/*
 * follows UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_UMEM_REG), devx_umem_get()
 * and devx_umem_reg_cmd_alloc(): access flags beyond local/remote
 * read/write and relaxed ordering -> EINVAL (uverbs_get_flags32()),
 * remote write without local write -> EINVAL (ib_check_mr_access()), an
 * empty or wrapping range -> EINVAL (ib_umem_get()), a page size bitmap
 * no page size fits -> EINVAL, a range that is not mapped -> EFAULT (the
 * preload looks, as pin_user_pages() would).  The pages are described to
 * the firmware in 4 KiB MTT entries with made-up bus addresses.
 */
int emu_h_devx_umem_reg(struct emu_bundle *b)
{
	struct emu_battr *h = emu_attr(b, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE);
	const uint64_t allowed = IB_UVERBS_ACCESS_LOCAL_WRITE |
				 IB_UVERBS_ACCESS_REMOTE_WRITE |
				 IB_UVERBS_ACCESS_REMOTE_READ |
				 IB_UVERBS_ACCESS_RELAXED_ORDERING;
	int64_t def_pgsz = (int64_t)(~0ull << 12) & INT64_MAX;
	struct devx_umem *um = NULL;
	uint64_t access, addr, size, npages, i;
	int64_t pgsz_bitmap;
	struct emu_ucontext *c;
	uint8_t out[16] = {};
	size_t in_len;
	uint8_t *in = NULL;
	int ret;

	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	if (!c->devx_uid)
		return -EINVAL;
	ret = emu_get_flags64(b, MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, &access,
			      allowed);
	if (ret)
		return ret;
	if (emu_copy_from(b, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, &addr,
			  sizeof(addr)) ||
	    emu_copy_from(b, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, &size,
			  sizeof(size)))
		return -EFAULT;
	if ((access & IB_UVERBS_ACCESS_REMOTE_WRITE) &&
	    !(access & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (!size || addr + size < addr)
		return -EINVAL;
	ret = emu_get_const(b, MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP,
			    &pgsz_bitmap, INT64_MIN, UINT64_MAX, &def_pgsz);
	if (ret)
		return ret;
	if (!((uint64_t)pgsz_bitmap & ~0xfffull))
		return -EINVAL;
	if (b->facts & EMU_FACT_UMEM_UNMAPPED)
		return -EFAULT;
	npages = ((addr & 0xfff) + size + 0xfff) >> 12;
	if (npages > EMU_UMEM_MAX_PAGES)
		return -ENOMEM;

	in_len = PRM_UMEM_MTT_BYTE + PRM_MTT_LEN * npages;
	in = calloc(1, in_len);
	um = calloc(1, sizeof(*um));
	if (!in || !um) {
		ret = -ENOMEM;
		goto err;
	}
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_UMEM);
	prm_set(in, PRM_HDR_UID, c->devx_uid);
	prm_set(in, PRM_UMEM_LOG_PAGE, 0);	/* 4 KiB */
	prm_set(in, PRM_UMEM_PAGE_OFFSET, (uint32_t)(addr & 0xfff));
	prm_set64(in, PRM_UMEM_NUM_MTT, npages);
	for (i = 0; i < npages; i++) {
		uint64_t pa = (0x100000000ull + (((addr >> 12) + i) << 12)) |
			      ((access & IB_UVERBS_ACCESS_LOCAL_WRITE) ? 3 : 1);

		prm_set64(in + PRM_UMEM_MTT_BYTE + PRM_MTT_LEN * i,
			  PRM_MTT_PTAG, pa);
	}
	ret = emu_cmd_exec(b->dev, in, in_len, out, sizeof(out));
	if (ret)
		goto err;
	um->addr = addr;
	um->size = size;
	um->access = (uint32_t)access;
	um->umem_id = prm_get(out, PRM_UMEM_OUT_ID);
	ret = devx_cmd_build_destroy(in, out, um->dinbox, &um->dinlen);
	if (ret)
		goto err;
	h->uobj->priv = um;
	h->uobj->destroy = devx_umem_cleanup;
	um = NULL;
	ret = emu_copy_to(b, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID,
			  &((struct devx_umem *)h->uobj->priv)->umem_id,
			  sizeof(uint32_t));
err:
	free(um);
	free(in);
	return ret;
}
