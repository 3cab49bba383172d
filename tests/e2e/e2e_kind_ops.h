/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The export, import and unimport calls of each shareable kind behind
 * one signature, for tests that run the same steps over every kind
 * (e2e_identity, e2e_launder).  Each test keeps its own make and destroy:
 * they differ in what they record and check.
 */
#ifndef MLX5_SHARE_TESTS_E2E_KIND_OPS_H
#define MLX5_SHARE_TESTS_E2E_KIND_OPS_H

#include <infiniband/mlx5dv.h>

#include "blob.h"

struct e2e_kind_ops {
	enum blob_kind blob_kind;
	int (*export)(void *obj, void *blob);
	void *(*import)(struct ibv_context *ctx, void *blob);
	void (*unimport)(void *obj);
};

static inline int e2e_obj_export(void *obj, void *blob)
{
	return mlx5dv_devx_obj_export(obj, blob);
}

static inline void *e2e_obj_import(struct ibv_context *ctx, void *blob)
{
	return mlx5dv_devx_obj_import(ctx, blob);
}

static inline void e2e_obj_unimport(void *obj)
{
	mlx5dv_devx_obj_unimport(obj);
}

static inline int e2e_umem_export(void *obj, void *blob)
{
	return mlx5dv_devx_umem_export(obj, blob);
}

static inline void *e2e_umem_import(struct ibv_context *ctx, void *blob)
{
	return mlx5dv_devx_umem_import(ctx, blob);
}

static inline void e2e_umem_unimport(void *obj)
{
	mlx5dv_devx_umem_unimport(obj);
}

static inline int e2e_var_export(void *obj, void *blob)
{
	return mlx5dv_var_export(obj, blob);
}

static inline void *e2e_var_import(struct ibv_context *ctx, void *blob)
{
	return mlx5dv_var_import(ctx, blob);
}

static inline void e2e_var_unimport(void *obj)
{
	mlx5dv_var_unimport(obj);
}

static const struct e2e_kind_ops e2e_obj_ops = {
	BLOB_KIND_DEVX_OBJ, e2e_obj_export, e2e_obj_import, e2e_obj_unimport
};
static const struct e2e_kind_ops e2e_umem_ops = {
	BLOB_KIND_DEVX_UMEM, e2e_umem_export, e2e_umem_import,
	e2e_umem_unimport
};
static const struct e2e_kind_ops e2e_var_ops = {
	BLOB_KIND_VAR, e2e_var_export, e2e_var_import, e2e_var_unimport
};

#endif
