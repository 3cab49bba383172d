/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's core handle query (UVERBS_METHOD_QUERY_HANDLE of
 * UVERBS_OBJECT_DEVICE, kernel-headers/rdma_uapi_compat.h): the cookie of
 * the object one handle of the caller's uverbs file holds, if it is a
 * live object of the given type.  The uverbs core gives every object one
 * cookie when it allocates it, from one generator for the whole system:
 * never 0, never given to another object while the system runs, whatever
 * file, device or PCI function.  One ioctl, no object lock (a concurrent
 * destroy never meets EBUSY because of it), no firmware command.
 *
 * Which errnos mean "this kernel has no such method" follows
 * ib_uverbs_cmd_verbs() (drivers/infiniband/core/uverbs_ioctl.c): an
 * object or method the kernel does not know is EPROTONOSUPPORT (a method
 * handler's own EPROTONOSUPPORT is turned into EINVAL there, so it can
 * only be the framework's); it is kept for the process (one kernel per
 * process): the next call does not ask.  ENOTTY (a kernel without the
 * RDMA_VERBS_IOCTL interface, or a descriptor that is no uverbs file) and
 * EOPNOTSUPP (what some paths answer for an unknown method) also mean
 * "no answer here", for this descriptor only, and are not kept.
 */
#ifndef MLX5_SHARE_HANDLE_QUERY_H
#define MLX5_SHARE_HANDLE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "blob.h"

/*
 * Asks the kernel for the cookie of the object of uverbs type object_id
 * under handle in the uverbs file behind fd.  Returns 0 and sets *cookie,
 * HANDLE_QUERY_ABSENT (no such method: fall back to the checks a kernel
 * without it allows), or the kernel's positive errno: ENOENT (no live
 * object of that type under the handle: destroyed, never created, still
 * being created, or of another type), EINVAL (a type the device does not
 * know), EPROTO (the kernel answered without writing the cookie, or
 * wrote 0).  Never changes errno.
 */
int handle_query(int fd, uint32_t handle, uint16_t object_id,
		 uint64_t *cookie);

/* handle_query()'s "no such method" (not an errno). */
#define HANDLE_QUERY_ABSENT (-2)

/* Is the method known to be absent (a call would not even be made)? */
bool handle_query_known_absent(void);

/* The uverbs object type of a blob kind's objects (0: unknown kind). */
uint16_t handle_query_object_id(enum blob_kind kind);

#ifdef MLX5_SHARE_TEST_HOOKS
/* Test builds only: forget what the process learnt of the kernel. */
void handle_query_test_reset(void);
#endif

#endif
