// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_series: compiled (syntax only) against the kernel headers of
 * an rdma-core tree after the series' header update.  The id the series
 * takes from the kernel series must be the one this repository writes
 * once in kernel-headers/rdma_uapi_compat.h, which the backport library
 * and mlx5-emu use.
 */
#include <rdma/ib_user_ioctl_cmds.h>

/* The tree's header has the attribute: rdma_uapi_compat.h must not. */
#define HAVE_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID 1
#include "rdma_uapi_compat.h"

_Static_assert(UVERBS_ATTR_QUERY_CONTEXT_FILE_ID ==
	       MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID,
	       "UVERBS_ATTR_QUERY_CONTEXT_FILE_ID differs");
