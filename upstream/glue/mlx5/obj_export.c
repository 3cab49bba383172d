// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export and import of DEVX objects, DEVX UMEMs and VARs between
 * processes that share one uverbs file (ibv_import_device()).
 *
 * Export writes the checked encoding of blob.h, bound to the exporting
 * device.  Import decodes and checks it, refuses data another device
 * wrote, and asks the kernel over the importing context's command fd
 * whether the handle is a live object of the expected type in this
 * uverbs file and, where the object's type has a PRM query
 * (import_policy.h), whether the object behind it still carries the
 * exported id.  Only then is the local struct allocated.
 */

#include <config.h>

#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <infiniband/driver.h>
#include <ccan/minmax.h>
#include <util/util.h>

#include "mlx5.h"
#include "mlx5_ifc.h"
#include "blob.h"
#include "import_policy.h"

/* Handles listed without a heap allocation. */
#define INFO_HANDLES_STACK 256U
/* The list attribute's length is 16 bits wide. */
#define INFO_HANDLES_MAX ((uint32_t)(UINT16_MAX / sizeof(uint32_t)))

/* mlx5_context.export_vhca_id: 0 until asked, then one of these. */
enum {
	EXPORT_VHCA_ID_VALID = 1 << 16,	/* | the vhca_id */
	EXPORT_VHCA_ID_NONE = 1 << 17,	/* the device refused to say */
};

/*
 * Asks the device for this function's vhca_id.  A refusal is final and
 * kept: the kernel has no DEVX for this context (EOPNOTSUPP,
 * EPROTONOSUPPORT), or the firmware does not support the query (its
 * status, which kernels before 5.18 report as EINVAL).  Any other error
 * (EMFILE, ENOMEM, EINTR, EIO...) is returned and nothing is kept: a
 * device bound by its node GUID alone cannot be told from another
 * function with the same GUID, so export and import fail instead.
 */
static int share_vhca_id(struct mlx5_context *mctx, uint32_t *state)
{
	uint32_t out[DEVX_ST_SZ_DW(query_hca_cap_out)] = {};
	uint32_t in[DEVX_ST_SZ_DW(query_hca_cap_in)] = {};
	int saved = errno;
	int ret;

	*state = atomic_load(&mctx->export_vhca_id);
	if (*state)
		return 0;
	DEVX_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	DEVX_SET(query_hca_cap_in, in, op_mod,
		 MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE |
		 HCA_CAP_OPMOD_GET_CUR);
	ret = mlx5dv_devx_general_cmd(&mctx->ibv_ctx.context, in, sizeof(in),
				      out, sizeof(out));
	errno = saved;
	switch (ret) {
	case 0:
		*state = EXPORT_VHCA_ID_VALID |
			 DEVX_GET(query_hca_cap_out, out,
				  capability.cmd_hca_cap.vhca_id);
		break;
	case EREMOTEIO:
		if (DEVX_GET(query_hca_cap_out, out, status) !=
			    MLX5_CMD_STAT_BAD_OP_ERR &&
		    DEVX_GET(query_hca_cap_out, out, status) !=
			    MLX5_CMD_STAT_BAD_PARAM_ERR)
			return ret;
		SWITCH_FALLTHROUGH;
	case EOPNOTSUPP:
	case EPROTONOSUPPORT:
	case EINVAL:
		*state = EXPORT_VHCA_ID_NONE;
		break;
	default:
		return ret;
	}
	atomic_store(&mctx->export_vhca_id, *state);
	return 0;
}

/*
 * The exporting or importing device: its node GUID, and this PCI
 * function's vhca_id unless the device refuses to say.  Only an mlx5
 * verbs context has a uverbs file whose handles could be shared: a VFIO
 * context (struct mlx5_vfio_context) or another provider's is refused
 * before anything of it is read as a struct mlx5_context.
 */
static int share_device(struct ibv_context *context, struct blob_device *dev)
{
	uint32_t state;
	int ret;

	if (!is_mlx5_dev(context->device))
		return EOPNOTSUPP;
	ret = share_vhca_id(to_mctx(context), &state);
	if (ret)
		return ret;
	dev->node_guid = be64toh(ibv_get_device_guid(context->device));
	dev->has_vhca_id = state & EXPORT_VHCA_ID_VALID;
	dev->vhca_id = state & 0xffff;
	return 0;
}

/*
 * Fills the device fields of b's header and encodes it into data.
 * Returns 0, or sets errno and returns it.
 */
static int share_encode(struct ibv_context *context, struct blob *b,
			enum blob_kind kind, void *data)
{
	struct blob_device dev;
	int ret;

	ret = share_device(context, &dev);
	if (!ret) {
		blob_set_device(b, &dev);
		b->version = BLOB_FORMAT_VERSION;
		b->kind = kind;
		ret = blob_encode(b, data) ? 0 : EINVAL;
	}
	if (ret)
		errno = ret;
	return ret;
}

/*
 * The checks that need no kernel: the blob itself, then the device that
 * wrote it.  The import functions have no length argument, so nothing
 * past the length the blob's header states is read.
 */
static int share_decode(struct ibv_context *context, const void *data,
			enum blob_kind kind, struct blob *b)
{
	struct blob_device dev;
	int ret;

	if (!context || !data || !context->device)
		return EINVAL;
	if (!is_mlx5_dev(context->device))
		return EOPNOTSUPP;
	ret = blob_decode(data, SIZE_MAX, kind, b);
	if (ret)
		return ret;
	ret = share_device(context, &dev);
	if (ret)
		return ret;
	return blob_check_device(b, &dev);
}

/*
 * 0 when handle is a live object of type object_id in context's uverbs
 * file, ENOENT when it is not.  A kernel without INFO_HANDLES, or a list
 * too long for one answer that does not show the handle, cannot tell:
 * then the blob's own checks stand alone.
 */
static int share_handle_live(struct ibv_context *context, uint16_t object_id,
			     uint32_t handle)
{
	uint32_t stack[INFO_HANDLES_STACK];
	uint32_t max = INFO_HANDLES_STACK;
	uint32_t *list = stack, *heap = NULL;
	uint32_t num, i;
	int ret;

	for (;;) {
		ret = ibv_cmd_info_handles(context, object_id, list, max, &num);
		if (ret)
			break;
		for (i = 0; i < num; i++)
			if (list[i] == handle)
				goto out;
		if (num < max) {
			ret = ENOENT;
			goto out;
		}
		if (max == INFO_HANDLES_MAX)
			goto out;
		max = min_t(uint32_t, max * 2, INFO_HANDLES_MAX);
		list = realloc(heap, max * sizeof(*list));
		if (!list) {
			ret = ENOMEM;
			goto out;
		}
		heap = list;
	}

	switch (ret) {
	case EPROTONOSUPPORT:	/* the kernel has no such method */
	case EOPNOTSUPP:
	case ENOTTY:
		ret = 0;
		break;
	case ENOENT:		/* the device has no objects of this type */
		break;
	}
out:
	free(heap);
	return ret;
}

/* Runs a DEVX_OBJ_QUERY on handle; 0 or the kernel's errno. */
static int share_run_query(struct ibv_context *context, uint32_t handle,
			   const void *in, size_t inlen, size_t outlen)
{
	DECLARE_COMMAND_BUFFER(cmd, MLX5_IB_OBJECT_DEVX_OBJ,
			       MLX5_IB_METHOD_DEVX_OBJ_QUERY, 3);
	uint8_t out[IMPORT_QUERY_OUT_MAX];

	fill_attr_in_obj(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, handle);
	fill_attr_in(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, inlen);
	fill_attr_out(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out, outlen);
	return execute_ioctl(context, cmd);
}

/*
 * Does the kernel report a command the firmware failed as EREMOTEIO
 * (Linux 5.18 and later), rather than as a mapped errno that looks like
 * its own refusal?  Asked once per process with a QUERY_HCA_CAP of a
 * capability type no firmware defines, which the firmware must fail.
 */
enum { FW_ERRORS_UNKNOWN, FW_ERRORS_REPORTED, FW_ERRORS_MAPPED };
/* A capability type (op_mod bits 15:1) no device defines. */
enum { CAP_TYPE_UNDEFINED = 0x7fff };
static _Atomic int share_fw_errors;

static bool share_fw_errors_reported(struct ibv_context *context)
{
	uint32_t out[DEVX_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	uint32_t in[DEVX_ST_SZ_DW(query_hca_cap_in)] = {};
	int state = atomic_load_explicit(&share_fw_errors,
					 memory_order_relaxed);
	int ret;

	if (state != FW_ERRORS_UNKNOWN)
		return state == FW_ERRORS_REPORTED;
	DEVX_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	DEVX_SET(query_hca_cap_in, in, op_mod,
		 CAP_TYPE_UNDEFINED << 1 | HCA_CAP_OPMOD_GET_CUR);
	ret = mlx5dv_devx_general_cmd(context, in, sizeof(in), out,
				      sizeof(out));
	if (ret == EREMOTEIO)
		state = FW_ERRORS_REPORTED;
	else if (ret == EINVAL)
		state = FW_ERRORS_MAPPED;
	else
		return false;	/* no clear answer: ask again next time */
	atomic_store_explicit(&share_fw_errors, state, memory_order_relaxed);
	return state == FW_ERRORS_REPORTED;
}

static int share_check_devx_obj(struct ibv_context *context,
				const struct blob *b)
{
	const struct import_policy *p = import_policy_find(b->obj.type);
	uint8_t in[IMPORT_QUERY_IN_MAX];
	bool listed = false, reported = false;
	size_t inlen;
	int ret;

	if (import_policy_needs_list(p, b->obj.object_id)) {
		ret = share_handle_live(context, MLX5_IB_OBJECT_DEVX_OBJ,
					b->obj.handle);
		if (ret)
			return ret;
		listed = true;
	}
	inlen = import_policy_build_query(p, b->obj.object_id, in);
	if (!inlen)
		return 0;

	ret = share_run_query(context, b->obj.handle, in, inlen, p->out_len);
	if (p->fw_may_fail && ret && ret != EREMOTEIO && ret != ENOENT)
		reported = share_fw_errors_reported(context);
	ret = import_policy_verdict(p, ret, reported);
	if (ret != IMPORT_UNDECIDED)
		return ret;
	/* An old kernel's ambiguous answer: liveness and type only. */
	return listed ? 0 : share_handle_live(context, MLX5_IB_OBJECT_DEVX_OBJ,
					      b->obj.handle);
}

/* Does b's handle still name a live object of b's kind and id? */
static int share_check_live(struct ibv_context *context,
			    const struct blob *b)
{
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		return share_check_devx_obj(context, b);
	case BLOB_KIND_DEVX_UMEM:
		return share_handle_live(context, MLX5_IB_OBJECT_DEVX_UMEM,
					 b->umem.handle);
	case BLOB_KIND_VAR:
		return share_handle_live(context, MLX5_IB_OBJECT_VAR,
					 b->var.handle);
	}
	return EINVAL;
}

/* Export's argument check: false with errno EINVAL when one is NULL. */
static bool share_args_ok(const void *obj, const void *data)
{
	if (obj && data)
		return true;
	errno = EINVAL;
	return false;
}

/*
 * An import's checks (the blob, then the kernel's word on its handle),
 * then its struct of size bytes, zeroed: NULL with errno set when a check
 * fails or memory is short.
 */
static void *share_import(struct ibv_context *context, const void *data,
			  enum blob_kind kind, struct blob *b, size_t size)
{
	void *obj;
	int ret;

	ret = share_decode(context, data, kind, b);
	if (ret)
		goto err;
	ret = share_check_live(context, b);
	if (ret)
		goto err;
	obj = calloc(1, size);
	if (obj)
		return obj;
	ret = ENOMEM;
err:
	errno = ret;
	return NULL;
}

int mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data)
{
	struct ibv_context *context;
	struct blob b = {};

	if (!share_args_ok(obj, data))
		return errno;
	b.obj.handle = obj->handle;
	b.obj.type = obj->type;
	b.obj.object_id = obj->object_id;
	b.obj.rx_icm_addr = obj->rx_icm_addr;
	b.obj.log_obj_range = obj->log_obj_range;
	context = obj->context;
	return share_encode(context, &b, BLOB_KIND_DEVX_OBJ, data);
}

struct mlx5dv_devx_obj *mlx5dv_devx_obj_import(struct ibv_context *context,
					       void *data)
{
	struct mlx5dv_devx_obj *obj;
	struct blob b;

	obj = share_import(context, data, BLOB_KIND_DEVX_OBJ, &b, sizeof(*obj));
	if (!obj)
		return NULL;
	obj->context = context;
	obj->handle = b.obj.handle;
	obj->type = b.obj.type;
	obj->object_id = b.obj.object_id;
	obj->rx_icm_addr = b.obj.rx_icm_addr;
	obj->log_obj_range = b.obj.log_obj_range;
	return obj;
}

/* Frees this process's struct only; the kernel object stays. */
void mlx5dv_devx_obj_unimport(struct mlx5dv_devx_obj *obj)
{
	free(obj);
}

int mlx5dv_devx_umem_export(struct mlx5dv_devx_umem *dv_devx_umem,
			    void *data)
{
	struct mlx5_devx_umem *umem;
	struct blob b = {};

	if (!share_args_ok(dv_devx_umem, data))
		return errno;
	umem = container_of(dv_devx_umem, struct mlx5_devx_umem,
			    dv_devx_umem);
	b.umem.umem_id = dv_devx_umem->umem_id;
	b.umem.handle = umem->handle;
	return share_encode(umem->context, &b, BLOB_KIND_DEVX_UMEM, data);
}

/*
 * The registered pages belong to the exporter: the imported UMEM has no
 * address and no size, so its dereg undoes no fork protection here.
 */
struct mlx5dv_devx_umem *
mlx5dv_devx_umem_import(struct ibv_context *context, void *data)
{
	struct mlx5_devx_umem *umem;
	struct blob b;

	umem = share_import(context, data, BLOB_KIND_DEVX_UMEM, &b,
			    sizeof(*umem));
	if (!umem)
		return NULL;
	umem->dv_devx_umem.umem_id = b.umem.umem_id;
	umem->context = context;
	umem->handle = b.umem.handle;
	return &umem->dv_devx_umem;
}

void mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *dv_devx_umem)
{
	if (!dv_devx_umem)
		return;
	free(container_of(dv_devx_umem, struct mlx5_devx_umem, dv_devx_umem));
}

int mlx5dv_var_export(struct mlx5dv_var *dv_var, void *data)
{
	struct mlx5_var_obj *var;
	struct blob b = {};

	if (!share_args_ok(dv_var, data))
		return errno;
	var = container_of(dv_var, struct mlx5_var_obj, dv_var);
	b.var.handle = var->handle;
	b.var.page_id = dv_var->page_id;
	b.var.length = dv_var->length;
	b.var.mmap_off = dv_var->mmap_off;
	return share_encode(var->context, &b, BLOB_KIND_VAR, data);
}

struct mlx5dv_var *mlx5dv_var_import(struct ibv_context *context, void *data)
{
	struct mlx5_var_obj *var;
	struct blob b;

	var = share_import(context, data, BLOB_KIND_VAR, &b, sizeof(*var));
	if (!var)
		return NULL;
	var->context = context;
	var->handle = b.var.handle;
	var->dv_var.page_id = b.var.page_id;
	var->dv_var.length = b.var.length;
	var->dv_var.mmap_off = b.var.mmap_off;
	return &var->dv_var;
}

void mlx5dv_var_unimport(struct mlx5dv_var *dv_var)
{
	if (!dv_var)
		return;
	free(container_of(dv_var, struct mlx5_var_obj, dv_var));
}
