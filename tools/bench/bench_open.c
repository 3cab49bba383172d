// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>

#include "bench_open.h"

struct ibv_context *bench_open_or_emulate(const char *prog, char **argv)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	char self[PATH_MAX], emu[PATH_MAX + 16];
	char *args[64] = { emu, "run", "--devices", "1", "--" };
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n, i, a = 5;
	ssize_t len;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (mlx5dv_is_supported(list[i]))
			ctx = mlx5dv_open_device(list[i], &attr);
	if (list)
		ibv_free_device_list(list);
	if (ctx || getenv("MLX5_EMU_DIR"))
		return ctx;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0)
		return NULL;
	self[len] = '\0';
	snprintf(emu, sizeof(emu), "%s/mlx5-emu", dirname(self));
	if (access(emu, X_OK))
		snprintf(emu, sizeof(emu), "mlx5-emu");
	fprintf(stderr, "%s: no mlx5 device: running under %s\n", prog, emu);
	for (i = 0; argv[i] && a < 63; i++)
		args[a++] = argv[i];
	args[a] = NULL;
	execvp(emu, args);
	fprintf(stderr, "%s: cannot start mlx5-emu: %s\n", prog,
		strerror(errno));
	exit(1);
}
