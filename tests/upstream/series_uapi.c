// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_series: compiled (syntax only) against the kernel headers of
 * an rdma-core tree after the series' header update.  The ids the series
 * takes from the kernel patch must be the ones this repository writes
 * once in kernel-headers/rdma_uapi_compat.h, which the backport library
 * and mlx5-emu use.
 */
#include <rdma/ib_user_ioctl_cmds.h>

/* The tree's header has the method: rdma_uapi_compat.h must not define it. */
#define HAVE_UVERBS_METHOD_QUERY_HANDLE 1
#include "rdma_uapi_compat.h"

_Static_assert(UVERBS_METHOD_QUERY_HANDLE ==
	       MLX5_SHARE_UAPI_UVERBS_METHOD_QUERY_HANDLE,
	       "UVERBS_METHOD_QUERY_HANDLE differs");
_Static_assert(UVERBS_ATTR_QUERY_HANDLE_HANDLE ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_HANDLE,
	       "UVERBS_ATTR_QUERY_HANDLE_HANDLE differs");
_Static_assert(UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID,
	       "UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID differs");
_Static_assert(UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE,
	       "UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE differs");
