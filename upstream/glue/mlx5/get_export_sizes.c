/*
 * sizes_len is the caller's sizeof(struct mlx5dv_export_sizes), which is
 * shorter when the caller was built against an older header: every byte
 * it owns is zeroed, only the fields that fit whole are written, and no
 * byte past sizes_len is touched.
 */
void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len)
{
	if (!sizes) {
		errno = EINVAL;
		return;
	}

	memset(sizes, 0, sizes_len);
	if (offsetofend(struct mlx5dv_export_sizes, var_attrs_size) <=
	    sizes_len)
		sizes->var_attrs_size = sizeof(struct mlx5dv_var_attrs);
	if (offsetofend(struct mlx5dv_export_sizes, devx_umem_attrs_size) <=
	    sizes_len)
		sizes->devx_umem_attrs_size =
			sizeof(struct mlx5dv_devx_umem_attrs);
	if (offsetofend(struct mlx5dv_export_sizes, devx_obj_attrs_size) <=
	    sizes_len)
		sizes->devx_obj_attrs_size =
			sizeof(struct mlx5dv_devx_obj_attrs);
}
