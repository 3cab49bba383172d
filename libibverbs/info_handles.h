/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * UVERBS_METHOD_INFO_HANDLES: which handles of one object type are live
 * in the ufile behind a command fd.
 *
 * The kernel (uverbs_std_types_device.c) fills the handle list up to its
 * capacity and reports in TOTAL how many it wrote, so a full list means
 * "there may be more: ask again larger".  The list attribute's length is a
 * u16, so one answer holds at most INFO_HANDLES_MAX entries.
 *
 * The kernel copies the first four bytes of its u64 count into the u32
 * TOTAL attribute: on a big-endian host, where those are the high half,
 * the count is taken from the list instead (info_handles.c).
 *
 * The first buffer is sized from the total last seen for the same fd and
 * type (a lock-free hint table), so the common case is one ioctl.
 *
 * Return values (all positive errno, never sets errno):
 *   0           answered
 *   EOPNOTSUPP  the kernel has no INFO_HANDLES (EPROTONOSUPPORT, or no
 *               ioctl interface at all): callers fall back
 *   ERANGE      more live handles than one answer can hold, and the one
 *               asked about was not among those returned (contains only)
 *   E2BIG       the same, for the full list
 *   ENOMEM      no memory for a larger buffer
 *   EINVAL      bad arguments
 *   other       the kernel's error
 * An object type the device does not have (the kernel's ENOENT from
 * uapi_get_object) is answered as "no live handles".
 */
#ifndef MLX5_SHARE_INFO_HANDLES_H
#define MLX5_SHARE_INFO_HANDLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	INFO_HANDLES_MAX = UINT16_MAX / sizeof(uint32_t),
};

/* Is handle a live object of type object_id in cmd_fd's ufile? */
int info_handles_contains(int cmd_fd, uint32_t driver_id, uint16_t object_id,
			  uint32_t handle, bool *present);

/*
 * All live handles of type object_id, sorted ascending, in a malloc()ed
 * array the caller frees (NULL when *count is 0).
 */
int info_handles_list(int cmd_fd, uint32_t driver_id, uint16_t object_id,
		      uint32_t **handles, size_t *count);

#ifdef MLX5_SHARE_TEST_HOOKS
/*
 * Test builds only: read the kernel's answers as a big-endian (1) or
 * little-endian (0) host would, or as this host does (-1).
 */
void info_handles_test_set_big_endian(int big);
#endif

#endif
