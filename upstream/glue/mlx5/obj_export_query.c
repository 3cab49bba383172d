/* No MLX5_IB_METHOD_DEVX_QUERY_HANDLES: the checks above decide. */
#define SHARE_NO_METHOD (-1)

/*
 * Asks the kernel what b's handle names, with no firmware command, and
 * judges b by it: ENOENT for a dead handle or another object, even one
 * with the same handle and firmware id.  SHARE_NO_METHOD on a kernel
 * without the method.
 */
static int share_query_handle(struct ibv_context *context,
			      const struct blob *b)
{
	DECLARE_COMMAND_BUFFER(cmd, MLX5_IB_OBJECT_DEVX,
			       MLX5_IB_METHOD_DEVX_QUERY_HANDLES, 2);
	struct mlx5_ib_devx_handle_info info = {};
	uint32_t handle = b->handle;
	struct ib_uverbs_attr *out;
	int ret;

	fill_attr_in_objs_arr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN,
			      &handle, 1);
	out = fill_attr_out_ptr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT,
				&info);
	ret = execute_ioctl(context, cmd);
	if (uverbs_no_method(ret))
		return SHARE_NO_METHOD;
	if (ret == EINVAL)
		return ENOENT;	/* not a DEVX object, UMEM or VAR */
	if (ret)
		return ret;
	if (!(out->flags & UVERBS_ATTR_F_VALID_OUTPUT))
		return EPROTO;
	return import_policy_judge(b, &info);
}

