/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * How the benchmarks find a device: a real mlx5 one when there is one,
 * else the same program again under the emulator next to it.
 */
#ifndef MLX5_SHARE_BENCH_OPEN_H
#define MLX5_SHARE_BENCH_OPEN_H

#include <infiniband/verbs.h>

/*
 * A DEVX context on the first mlx5 device.  With none, and not already
 * under mlx5-emu (MLX5_EMU_DIR unset), execs `mlx5-emu run --devices 1 --
 * argv...` (the mlx5-emu beside this program, else the one on PATH) and
 * exits 1, saying so as prog, when that fails.  NULL (errno set by the
 * failed step) when there is no device to run on.
 */
struct ibv_context *bench_open_or_emulate(const char *prog, char **argv);

#endif
