// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Many callers on one command fd at once: 8 threads x 2000 ioctls in this
 * process, and a forked child with 4 more threads on the same (inherited)
 * fd.  Every answer is checked against what that caller alone expects, so
 * a reply delivered to the wrong caller or mixed with another fails.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_util.h"

#define THREADS 8
#define CHILD_THREADS 4
#define ITERS 2000

static void *run(void *arg)
{
	struct emu_worker *w = arg;
	unsigned int man = 10 + w->index, exp = w->index % 32, i;
	struct mlx5dv_devx_obj *meter;
	uint32_t id, eqn_ref = 0;

	meter = meter_create_cbs(w->ctx, exp, man, &id);
	if (!meter ||
	    mlx5dv_devx_query_eqn(w->ctx, w->index % 4, &eqn_ref)) {
		w->failures++;
		return NULL;
	}
	for (i = 0; i < ITERS; i++) {
		unsigned int e = 99, m = 99;
		uint32_t eqn = ~0u;
		uint8_t status = 0xff;

		switch (i % 3) {
		case 0:
			if (meter_query_cbs(meter, id, &e, &m, &status) ||
			    status || e != exp || m != man)
				w->failures++;
			break;
		case 1:
			if (mlx5dv_devx_query_eqn(w->ctx, w->index % 4, &eqn) ||
			    eqn != eqn_ref)
				w->failures++;
			break;
		default:
			/* someone else's id must fail, every time */
			if (meter_query_cbs(meter, id + 1000, NULL, NULL,
					    NULL) != EINVAL)
				w->failures++;
			break;
		}
	}
	if (mlx5dv_devx_obj_destroy(meter))
		w->failures++;
	return NULL;
}

int main(void)
{
	struct ibv_context *ctx;
	uint32_t list[8], total;
	int status;
	pid_t pid;

	ctx = emu_start("emu_stress");
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		unsigned int f = emu_run_workers(ctx, CHILD_THREADS, THREADS,
						 run);

		if (f)
			fprintf(stderr, "child: %u wrong answers\n", f);
		_exit(f ? 1 : 0);
	}
	CHECK_EQ(emu_run_workers(ctx, THREADS, 0, run), 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* everybody cleaned up after themselves, in the one shared ufile */
	CHECK_EQ(emu_info_handles(ctx->cmd_fd, MLX5_IB_OBJECT_DEVX_OBJ, list,
				  8, &total), 0);
	CHECK_EQ(total, 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_stress");
}
