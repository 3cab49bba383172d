// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The clock info page: libmlx5 maps it when the ucontext reports version
 * 1, mlx5dv_get_clock_info() reads it, and a device timestamp converts to
 * a wall-clock time of this run (the emulated counter stays at 0: the
 * moment the device appeared).  It is read-only, like the kernel's.
 */
#include <time.h>

#include "emu_util.h"

int main(void)
{
	struct mlx5dv_clock_info ci;
	struct ibv_context *ctx;
	struct timespec now;
	uint64_t ns, now_ns;

	ctx = emu_start_verbs("emu_clock_info");
	REQUIRE(mlx5dv_get_clock_info(ctx, &ci) == 0);
	CHECK(ci.mult != 0);
	CHECK(ci.mask != 0);
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000ull + now.tv_nsec;
	ns = mlx5dv_ts_to_ns(&ci, 0);
	/* the device appeared in this run: within the last hour */
	CHECK(ns <= now_ns);
	CHECK(now_ns - ns < 3600ull * 1000000000ull);
	/* one second of the device's clock is one second */
	CHECK_EQ((mlx5dv_ts_to_ns(&ci, 156250000) - ns + 500) / 1000,
		 1000000);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_clock_info");
}
