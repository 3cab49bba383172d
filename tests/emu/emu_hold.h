/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-emu's test-only object hold (mlx5-emu(1), OBJECT LOCKS): it takes
 * the lock a concurrent call would hold on handle and keeps it while the
 * daemon serves other calls, so a test can make a lock collision happen
 * on demand instead of racing for it.
 */
#ifndef MLX5_SHARE_TESTS_EMU_HOLD_H
#define MLX5_SHARE_TESTS_EMU_HOLD_H

#include "emu_util.h"
#include "uapi_spec.h"

/* Holds handle of fd's file: mode 0 shared, 1 exclusive; 0 or errno. */
static inline int emu_hold(int fd, uint32_t handle, int mode)
{
	struct emu_raw r;

	raw_init(&r, EMU_OBJECT_TEST, EMU_METHOD_TEST_HOLD);
	raw_attr(&r, EMU_ATTR_TEST_HANDLE, 8, handle);
	raw_attr(&r, EMU_ATTR_TEST_MODE, 8, (uint64_t)mode);
	return raw_exec(fd, &r);
}

/* Releases the hold on handle (ENOENT when there is none). */
static inline int emu_release(int fd, uint32_t handle)
{
	struct emu_raw r;

	raw_init(&r, EMU_OBJECT_TEST, EMU_METHOD_TEST_RELEASE);
	raw_attr(&r, EMU_ATTR_TEST_HANDLE, 8, handle);
	return raw_exec(fd, &r);
}

#endif
