// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export and import of DEVX objects, UMEMs and VARs between processes
 * sharing one uverbs file (ibv_import_device()).  Export writes a blob
 * (blob.h) bound to the device; import checks it and asks the kernel that
 * its handle still names the exported object before building its struct.
 */

#include <config.h>

#include <endian.h>
#include <errno.h>
#include <stdlib.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "mlx5.h"
#include "mlx5_ifc.h"
#include "blob.h"
#include "import_policy.h"

/* The list attribute's length is 16 bits wide. */
#define INFO_HANDLES_MAX ((uint32_t)(UINT16_MAX / sizeof(uint32_t)))

/* mlx5_context.export_vhca_id: 0 until asked, then one of these. */
enum {
	EXPORT_VHCA_ID_VALID = 1 << 16,	/* | the vhca_id */
	EXPORT_VHCA_ID_NONE = 1 << 17,	/* the device refused to say */
};

/*
 * A device without DEVX, or whose firmware lacks the query, has no
 * vhca_id, for good.  Any other failure is returned and not kept: a
 * device known by its node GUID alone could be another PCI function.
 */
static int share_vhca_id(struct mlx5_context *mctx, uint32_t *state)
{
	uint32_t out[DEVX_ST_SZ_DW(query_hca_cap_out)] = {};
	uint32_t in[DEVX_ST_SZ_DW(query_hca_cap_in)] = {};
	uint8_t status;
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
	status = DEVX_GET(query_hca_cap_out, out, status);
	if (ret == EREMOTEIO && (status == MLX5_CMD_STAT_BAD_OP_ERR ||
				 status == MLX5_CMD_STAT_BAD_PARAM_ERR))
		ret = EINVAL;	/* refused, as kernels before 5.18 say */
	if (!ret)
		*state = EXPORT_VHCA_ID_VALID |
			 DEVX_GET(query_hca_cap_out, out,
				  capability.cmd_hca_cap.vhca_id);
	else if (ret == EINVAL || ret == EOPNOTSUPP || ret == EPROTONOSUPPORT)
		*state = EXPORT_VHCA_ID_NONE;
	else
		return ret;
	atomic_store(&mctx->export_vhca_id, *state);
	return 0;
}

/*
 * Only an mlx5 verbs context has a uverbs file to share: a VFIO context
 * is refused before it is read as a struct mlx5_context.
 */
static int share_device(struct ibv_context *context, struct blob_device *dev)
{
	uint32_t state = 0;
	int ret;

	if (!is_mlx5_dev(context->device))
		return EOPNOTSUPP;
	ret = share_vhca_id(to_mctx(context), &state);
	dev->node_guid = be64toh(ibv_get_device_guid(context->device));
	dev->has_vhca_id = state & EXPORT_VHCA_ID_VALID;
	dev->vhca_id = state & 0xffff;
	return ret;
}

/* Encodes b, bound to context's device, into data; errno kept on success. */
static int share_encode(struct ibv_context *context, struct blob *b,
			enum blob_kind kind, void *data)
{
	struct blob_device dev;
	int ret, saved = errno;

	ret = share_device(context, &dev);
	errno = ret ? ret : saved;
	if (ret)
		return ret;
	blob_set_device(b, &dev);
	b->version = BLOB_FORMAT_VERSION;
	b->kind = kind;
	blob_encode(b, data);
	return 0;
}

/*
 * 0 when handle is a live object of type object_id in context's uverbs
 * file, ENOENT when it is not.  Without INFO_HANDLES, or when the list is
 * too long to read whole, the blob's own checks stand alone.
 */
static int share_handle_live(struct ibv_context *context, uint16_t object_id,
			     uint32_t handle)
{
	uint32_t *list = NULL, *bigger;
	uint32_t max = 256, num, i;
	int ret;

	for (;; max = min_t(uint32_t, max * 2, INFO_HANDLES_MAX)) {
		bigger = realloc(list, max * sizeof(*list));
		if (!bigger) {
			ret = ENOMEM;
			break;
		}
		list = bigger;
		ret = ibv_cmd_info_handles(context, object_id, list, max, &num);
		if (uverbs_no_method(ret)) {
			ret = 0;
			break;
		}
		if (ret)
			break;
		for (i = 0; i < num && list[i] != handle; i++)
			;
		if (i < num || max == INFO_HANDLES_MAX)
			break;
		if (num < max) {
			ret = ENOENT;
			break;
		}
	}
	free(list);
	return ret;
}

/*
 * Does the kernel report a command the firmware failed as EREMOTEIO
 * (Linux 5.18 and later) rather than as an errno like its own refusal?
 * Asked with a QUERY_HCA_CAP of a capability type (op_mod bits 15:1) no
 * device defines, which the firmware must fail, until the answer is
 * clear: then kept for the process, 1 for EREMOTEIO, -1 for EINVAL.
 */
static _Atomic int share_fw_errors;

static bool share_fw_errors_reported(struct ibv_context *context)
{
	uint32_t out[DEVX_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	uint32_t in[DEVX_ST_SZ_DW(query_hca_cap_in)] = {};
	int ret;

	if (share_fw_errors)
		return share_fw_errors > 0;
	DEVX_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	DEVX_SET(query_hca_cap_in, in, op_mod,
		 0x7fff << 1 | HCA_CAP_OPMOD_GET_CUR);
	ret = mlx5dv_devx_general_cmd(context, in, sizeof(in), out,
				      sizeof(out));
	if (ret == EREMOTEIO || ret == EINVAL)
		share_fw_errors = ret == EREMOTEIO ? 1 : -1;
	return ret == EREMOTEIO;
}

static int share_check_devx_obj(struct ibv_context *context,
				const struct blob *b)
{
	DECLARE_COMMAND_BUFFER(cmd, MLX5_IB_OBJECT_DEVX_OBJ,
			       MLX5_IB_METHOD_DEVX_OBJ_QUERY, 3);
	const struct import_policy *p = import_policy_find(b->obj.type);
	uint8_t in[IMPORT_QUERY_IN_MAX], out[IMPORT_QUERY_OUT_MAX];
	bool listed = false, reported = false;
	size_t inlen;
	int ret;

	if (import_policy_needs_list(p, b->obj.object_id)) {
		ret = share_handle_live(context, MLX5_IB_OBJECT_DEVX_OBJ,
					b->handle);
		if (ret)
			return ret;
		listed = true;
	}
	inlen = import_policy_build_query(p, b->obj.object_id, in);
	if (!inlen)
		return 0;

	fill_attr_in_obj(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, b->handle);
	fill_attr_in(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, inlen);
	fill_attr_out(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out,
		      p->out_len);
	ret = execute_ioctl(context, cmd);
	if (p->fw_may_fail && ret && ret != EREMOTEIO && ret != ENOENT)
		reported = share_fw_errors_reported(context);
	ret = import_policy_verdict(p, ret, reported);
	if (ret != IMPORT_UNDECIDED)
		return ret;
	/* An old kernel's ambiguous answer: liveness and type only. */
	return listed ? 0 : share_handle_live(context, MLX5_IB_OBJECT_DEVX_OBJ,
					      b->handle);
}

/* Does b's handle still name a live object of b's kind and id? */
static int share_check_live(struct ibv_context *context,
			    const struct blob *b)
{
	if (b->kind == BLOB_KIND_DEVX_OBJ)
		return share_check_devx_obj(context, b);
	return share_handle_live(context, b->kind == BLOB_KIND_VAR ?
				 MLX5_IB_OBJECT_VAR : MLX5_IB_OBJECT_DEVX_UMEM,
				 b->handle);
}

/*
 * The checks, then a zeroed struct of size bytes: NULL with errno set
 * when a check fails or memory is short.  Import has no length argument:
 * nothing past the length the blob's header states is read.
 */
static void *share_import(struct ibv_context *context, const void *data,
			  enum blob_kind kind, struct blob *b, size_t size)
{
	struct blob_device dev;
	int saved = errno;
	void *obj = NULL;
	int ret = EINVAL;

	if (context && context->device && data)
		ret = share_device(context, &dev);
	if (!ret)
		ret = blob_decode(data, SIZE_MAX, kind, b);
	if (!ret)
		ret = blob_check_device(b, &dev);
	if (!ret)
		ret = share_check_live(context, b);
	if (!ret) {
		obj = calloc(1, size);
		ret = obj ? 0 : ENOMEM;
	}
	errno = ret ? ret : saved;
	return obj;
}

int mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data)
{
	struct blob b = {};

	if (!obj || !data)
		return errno = EINVAL;
	b.handle = obj->handle;
	b.obj.type = obj->type;
	b.obj.object_id = obj->object_id;
	b.obj.rx_icm_addr = obj->rx_icm_addr;
	b.obj.log_obj_range = obj->log_obj_range;
	return share_encode(obj->context, &b, BLOB_KIND_DEVX_OBJ, data);
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
	obj->handle = b.handle;
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

	if (!dv_devx_umem || !data)
		return errno = EINVAL;
	umem = container_of(dv_devx_umem, struct mlx5_devx_umem,
			    dv_devx_umem);
	b.umem.umem_id = dv_devx_umem->umem_id;
	b.handle = umem->handle;
	return share_encode(umem->context, &b, BLOB_KIND_DEVX_UMEM, data);
}

/* The pages stay the exporter's: the import has no address or size. */
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
	umem->handle = b.handle;
	return &umem->dv_devx_umem;
}

void mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *dv_devx_umem)
{
	if (dv_devx_umem)
		free(container_of(dv_devx_umem, struct mlx5_devx_umem,
				  dv_devx_umem));
}

int mlx5dv_var_export(struct mlx5dv_var *dv_var, void *data)
{
	struct mlx5_var_obj *var;
	struct blob b = {};

	if (!dv_var || !data)
		return errno = EINVAL;
	var = container_of(dv_var, struct mlx5_var_obj, dv_var);
	b.handle = var->handle;
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
	var->handle = b.handle;
	var->dv_var.page_id = b.var.page_id;
	var->dv_var.length = b.var.length;
	var->dv_var.mmap_off = b.var.mmap_off;
	return &var->dv_var;
}

void mlx5dv_var_unimport(struct mlx5dv_var *dv_var)
{
	if (dv_var)
		free(container_of(dv_var, struct mlx5_var_obj, dv_var));
}
