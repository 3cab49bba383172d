// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Built with everything else, so a wrong value fails the build: where the
 * kernel headers in use have a constant, rdma_uapi_compat.h's value must
 * be theirs; where they lack it, the name must still resolve, to ours.
 */
#include <stddef.h>

#include "rdma_uapi_compat.h"

#ifdef HAVE_MLX5_IB_OBJECT_STEERING_ANCHOR
_Static_assert(MLX5_IB_OBJECT_STEERING_ANCHOR ==
	       MLX5_SHARE_UAPI_MLX5_IB_OBJECT_STEERING_ANCHOR,
	       "MLX5_IB_OBJECT_STEERING_ANCHOR differs from the kernel's");
#endif
#ifdef HAVE_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD
_Static_assert(MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD,
	       "DEVX_UMEM_REG_DMABUF_FD differs from the kernel's");
#endif

/* The neighbours the values count from are the headers' own. */
_Static_assert(MLX5_IB_OBJECT_UAR + 1 ==
	       MLX5_SHARE_UAPI_MLX5_IB_OBJECT_STEERING_ANCHOR,
	       "STEERING_ANCHOR follows UAR");
_Static_assert(MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP + 1 ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD,
	       "DMABUF_FD follows PGSZ_BITMAP");

/* The names resolve in ordinary code too, whichever defines them. */
unsigned int rdma_uapi_compat_check(void);

unsigned int rdma_uapi_compat_check(void)
{
	return (unsigned int)MLX5_IB_OBJECT_STEERING_ANCHOR ^
	       (unsigned int)MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD;
}

/* The handle query's answer is 24 bytes on every ABI, no padding. */
_Static_assert(sizeof(struct mlx5_ib_devx_handle_info) == 24,
	       "struct mlx5_ib_devx_handle_info is 24 bytes");
_Static_assert(MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT + 1 ==
	       MLX5_SHARE_UAPI_MLX5_IB_METHOD_DEVX_QUERY_HANDLES,
	       "QUERY_HANDLES follows SUBSCRIBE_EVENT");
_Static_assert(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT + 1 ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL,
	       "DEVX_OBJ_CREATE_SERIAL follows CMD_OUT");
/* FLAGS (mainline, after PAGE_ID) is missing from older headers. */
_Static_assert(MLX5_IB_ATTR_VAR_OBJ_ALLOC_PAGE_ID + 2 ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL,
	       "VAR_OBJ_ALLOC_SERIAL follows FLAGS");
_Static_assert(MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD + 1 ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL,
	       "DEVX_UMEM_REG_SERIAL follows DMABUF_FD");

/*
 * Against a kernel with the handle query (the patched headers of the
 * kernel label's test): its every id, limit, kind and field offset must be
 * ours.  Elsewhere these check our own definitions.
 */
#ifdef HAVE_MLX5_IB_METHOD_DEVX_QUERY_HANDLES
_Static_assert(MLX5_IB_METHOD_DEVX_QUERY_HANDLES ==
	       MLX5_SHARE_UAPI_MLX5_IB_METHOD_DEVX_QUERY_HANDLES,
	       "METHOD_DEVX_QUERY_HANDLES differs from the kernel's");
_Static_assert(MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN,
	       "DEVX_QUERY_HANDLES_IN differs from the kernel's");
_Static_assert(MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT,
	       "DEVX_QUERY_HANDLES_OUT differs from the kernel's");
_Static_assert(MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL,
	       "DEVX_OBJ_CREATE_SERIAL differs from the kernel's");
_Static_assert(MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL,
	       "DEVX_UMEM_REG_SERIAL differs from the kernel's");
_Static_assert(MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL ==
	       MLX5_SHARE_UAPI_MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL,
	       "VAR_OBJ_ALLOC_SERIAL differs from the kernel's");
#endif
_Static_assert(MLX5_IB_DEVX_QUERY_HANDLES_MAX ==
	       MLX5_SHARE_UAPI_MLX5_IB_DEVX_QUERY_HANDLES_MAX,
	       "MLX5_IB_DEVX_QUERY_HANDLES_MAX differs");
_Static_assert(MLX5_IB_DEVX_HANDLE_KIND_OBJ ==
	       MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_OBJ &&
	       MLX5_IB_DEVX_HANDLE_KIND_UMEM ==
	       MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_UMEM &&
	       MLX5_IB_DEVX_HANDLE_KIND_VAR ==
	       MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_VAR,
	       "enum mlx5_ib_devx_handle_kind differs");
/* The answer's layout: serial, kind, obj_id, opcode, obj_type, reserved. */
_Static_assert(offsetof(struct mlx5_ib_devx_handle_info, serial) == 0 &&
	       offsetof(struct mlx5_ib_devx_handle_info, kind) == 8 &&
	       offsetof(struct mlx5_ib_devx_handle_info, obj_id) == 12 &&
	       offsetof(struct mlx5_ib_devx_handle_info, opcode) == 16 &&
	       offsetof(struct mlx5_ib_devx_handle_info, obj_type) == 18 &&
	       offsetof(struct mlx5_ib_devx_handle_info, reserved) == 20,
	       "struct mlx5_ib_devx_handle_info's layout differs");

/*
 * The core handle query: against headers that have it (the patched
 * kernel's), every id must be ours; elsewhere the names must resolve.
 */
#ifdef HAVE_UVERBS_METHOD_QUERY_HANDLE
_Static_assert(UVERBS_METHOD_QUERY_HANDLE ==
	       MLX5_SHARE_UAPI_UVERBS_METHOD_QUERY_HANDLE,
	       "UVERBS_METHOD_QUERY_HANDLE differs from the kernel's");
_Static_assert(UVERBS_ATTR_QUERY_HANDLE_HANDLE ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_HANDLE &&
	       UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID &&
	       UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE,
	       "uverbs_attrs_query_handle_cmd_attr_ids differ");
#endif
/* 9 lies past every method the headers in use list. */
_Static_assert(UVERBS_METHOD_QUERY_GID_ENTRY <
	       MLX5_SHARE_UAPI_UVERBS_METHOD_QUERY_HANDLE,
	       "QUERY_HANDLE comes after QUERY_GID_ENTRY");
_Static_assert(UVERBS_ATTR_QUERY_HANDLE_HANDLE == 0 &&
	       UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID == 1 &&
	       UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE == 2,
	       "the query's attributes are HANDLE, OBJECT_ID, RESP_COOKIE");
