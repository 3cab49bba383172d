// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * When the emulated machine's daemon dies, calls fail with an error (EIO,
 * as on a disassociated device) instead of hanging: threads that keep
 * calling, each on its own channel, see it, later calls see it, a new
 * open fails.  alarm() turns a
 * hang into a failure.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_util.h"

static int started;

static void *caller(void *arg)
{
	struct ibv_context *ctx = arg;
	bool counted = false;
	uint32_t eqn;
	long ret;

	for (;;) {
		ret = mlx5dv_devx_query_eqn(ctx, 0, &eqn);
		if (!counted) {
			__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
			counted = true;
		}
		if (ret)
			return (void *)ret;
	}
}

int main(void)
{
	struct ibv_context *ctx;
	struct mlx5dv_var *var;
	uint32_t in[4] = {}, out[8] = {}, eqn;
	pthread_t t[4];
	void *tret;
	pid_t daemon;
	int i;

	emu_require("emu_daemon_killed");
	daemon = emu_daemon_pid("emu_daemon_killed");
	alarm(60);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	/* each on its own channel, in the middle of calls */
	for (i = 0; i < 4; i++)
		REQUIRE(pthread_create(&t[i], NULL, caller, ctx) == 0);
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 4)
		usleep(1000);

	REQUIRE(kill(daemon, SIGKILL) == 0);
	for (i = 0; i < 4; i++) {
		REQUIRE(pthread_join(t[i], &tret) == 0);
		CHECK_EQ((long)tret, EIO);
	}

	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 0, &eqn), EIO);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	CHECK_EQ(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					 sizeof(out)), EIO);
	errno = 0;
	CHECK(!fc_alloc_bulk(ctx, 0, NULL));
	CHECK_EQ(errno, EIO);
	CHECK_ERRNO(mmap(NULL, var->length, PROT_READ, MAP_SHARED,
			 ctx->cmd_fd, var->mmap_off) == MAP_FAILED, EIO);
	/* the device node is still there, nobody answers behind it */
	CHECK_ERRNO(open("/dev/infiniband/uverbs0", O_RDWR) < 0, ENXIO);
	CHECK(devx_open(NULL, 0) == NULL);
	free(var);
	ibv_close_device(ctx);
	return check_done("emu_daemon_killed");
}
