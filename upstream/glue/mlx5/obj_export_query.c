/* No MLX5_IB_METHOD_DEVX_QUERY_HANDLES: the checks above decide. */
#define SHARE_NO_METHOD (-1)

static enum blob_kind share_kind_of(uint32_t kind)
{
	switch (kind) {
	case MLX5_IB_DEVX_HANDLE_KIND_OBJ:
		return BLOB_KIND_DEVX_OBJ;
	case MLX5_IB_DEVX_HANDLE_KIND_UMEM:
		return BLOB_KIND_DEVX_UMEM;
	case MLX5_IB_DEVX_HANDLE_KIND_VAR:
		return BLOB_KIND_VAR;
	}
	return 0;	/* a kind unknown here matches no blob */
}

/*
 * Asks the kernel what b's handle names, with no firmware command, and
 * judges b by it: ENOENT for a dead handle or another object, even one
 * with the same handle and firmware id.  SHARE_NO_METHOD, errno kept, on
 * a kernel without the method.
 */
static int share_query_handle(struct ibv_context *context,
			      const struct blob *b)
{
	DECLARE_COMMAND_BUFFER(cmd, MLX5_IB_OBJECT_DEVX,
			       MLX5_IB_METHOD_DEVX_QUERY_HANDLES, 2);
	struct mlx5_ib_devx_handle_info info = {};
	uint32_t handle = blob_handle(b);
	struct import_handle_info k;
	struct ib_uverbs_attr *out;
	int saved = errno;
	int ret;

	fill_attr_in_objs_arr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN,
			      &handle, 1);
	out = fill_attr_out_ptr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT,
				&info);
	ret = execute_ioctl(context, cmd);
	switch (ret) {
	case 0:
		break;
	case EPROTONOSUPPORT:
	case EOPNOTSUPP:
	case ENOTTY:
		errno = saved;
		return SHARE_NO_METHOD;
	case EINVAL:
		return ENOENT;	/* not a DEVX object, UMEM or VAR */
	default:
		return ret;
	}
	if (!(out->flags & UVERBS_ATTR_F_VALID_OUTPUT))
		return EPROTO;
	k.serial = info.serial;
	k.kind = share_kind_of(info.kind);
	k.obj_id = info.obj_id;
	k.opcode = info.opcode;
	k.obj_type = info.obj_type;
	return import_policy_judge(b, &k);
}

