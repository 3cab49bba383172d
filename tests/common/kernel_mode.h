/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Which Linux release the tests run against: the one mlx5-emu answers as
 * (mlx5-emu run --kernel=VERSION, in MLX5_EMU_KERNEL), else the running
 * kernel's (uname), for the scenarios whose proof is weaker on older
 * kernels (before 5.18: firmware failures come back as mapped errnos).
 */
#ifndef MLX5_SHARE_TEST_KERNEL_MODE_H
#define MLX5_SHARE_TEST_KERNEL_MODE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

/* Is the kernel older than maj.min?  (Unreadable: no.) */
static inline bool test_kernel_before(unsigned int maj, unsigned int min)
{
	const char *v = getenv("MLX5_EMU_KERNEL");
	unsigned int a, b;
	struct utsname u;

	if ((!v || !*v) && !uname(&u))
		v = u.release;
	if (!v || sscanf(v, "%u.%u", &a, &b) != 2)
		return false;
	return a < maj || (a == maj && b < min);
}

#endif
