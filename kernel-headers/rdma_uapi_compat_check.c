// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Built with everything else, so a wrong value fails the build: where the
 * kernel headers in use have a constant, rdma_uapi_compat.h's value must
 * be theirs; where they lack it, the name must still resolve, to ours.
 */
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

#ifdef HAVE_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID
_Static_assert(UVERBS_ATTR_QUERY_CONTEXT_FILE_ID ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID,
	       "UVERBS_ATTR_QUERY_CONTEXT_FILE_ID differs from the kernel's");
#endif
/* FILE_ID follows the two attributes every kernel since 5.x lists. */
_Static_assert(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT + 1 ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID,
	       "FILE_ID follows CORE_SUPPORT");
