/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's DEVX handle query (MLX5_IB_METHOD_DEVX_QUERY_HANDLES,
 * kernel-headers/rdma_uapi_compat.h): what object each of up to
 * MLX5_IB_DEVX_QUERY_HANDLES_MAX handles of the caller's uverbs file
 * holds, in one ioctl and with no firmware command.
 *
 * Which errnos mean "this kernel has no such method" follows
 * ib_uverbs_cmd_verbs() (drivers/infiniband/core/uverbs_ioctl.c): an
 * object or method the kernel does not know is EPROTONOSUPPORT (a method
 * handler's own EPROTONOSUPPORT is turned into EINVAL there, so it can
 * only be the framework's); it is kept for the process (one kernel per
 * process): the next call does not ask.  ENOTTY (a kernel without the
 * RDMA_VERBS_IOCTL interface, or a descriptor that is no uverbs file) and
 * EOPNOTSUPP (what a driver answers for a context it will not serve) also
 * mean "no answer here", for this descriptor only, and are not kept.
 */
#ifndef MLX5_SHARE_HANDLE_QUERY_H
#define MLX5_SHARE_HANDLE_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import_policy.h"

/*
 * Asks the kernel about handles[0..n-1] of the uverbs file behind fd
 * (1 <= n <= MLX5_IB_DEVX_QUERY_HANDLES_MAX) and fills info[0..n-1].
 * Returns 0, HANDLE_QUERY_ABSENT (no such method: fall back to the
 * checks a kernel without it allows), or the kernel's positive errno:
 * ENOENT (a handle is dead), EINVAL (a handle is not a DEVX object, UMEM
 * or VAR), EBUSY (one is held exclusive, still after
 * uverbs_cmd_execute_busy()'s retries), EPROTO (the kernel answered
 * without writing the answer).  Never changes errno.
 */
int handle_query(int fd, const uint32_t *handles, size_t n,
		 struct mlx5_ib_devx_handle_info *info);

/* handle_query()'s "no such method" (not an errno). */
#define HANDLE_QUERY_ABSENT (-2)

/* Is the method known to be absent (a call would not even be made)? */
bool handle_query_known_absent(void);

#ifdef MLX5_SHARE_TEST_HOOKS
/* Test builds only: forget what the process learnt of the kernel. */
void handle_query_test_reset(void);
#endif

#endif
