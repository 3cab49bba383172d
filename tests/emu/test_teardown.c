// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The last close of a ufile destroys everything in it, as the kernel's
 * uverbs_destroy_ufile_hw() does, and only the last close does:
 *  - with a dup of the command fd alive, closing the context keeps every
 *    object (INFO_HANDLES on the dup still lists them);
 *  - a process that fills the firmware's flow counters and the device's
 *    VAR pages and is then killed gives them all back: afterwards another
 *    context can take exactly as many again.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_util.h"

#define DEVX_OBJ MLX5_IB_OBJECT_DEVX_OBJ
#define MAX_TAKE 64

/* what libmlx5 allocated for objects left to the teardown */
static void *taken[5 * MAX_TAKE];
static int ntaken;

static void forget_taken(void)
{
	while (ntaken)
		free(taken[--ntaken]);
}

/* takes 16384-counter bulks until the firmware refuses; returns how many */
static int take_counters(struct ibv_context *ctx)
{
	int n;

	for (n = 0; n < MAX_TAKE; n++) {
		uint32_t in[4] = {}, out[4] = {};
		void *obj;

		prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
		prm_set(in, PRM_ALLOC_FC_BULK_LOG, 14);
		obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out,
					     sizeof(out));
		if (!obj)
			break;
		taken[ntaken++] = obj;
	}
	return n;
}

static int take_vars(struct ibv_context *ctx)
{
	int n;

	for (n = 0; n < 4 * MAX_TAKE; n++) {
		void *var = mlx5dv_alloc_var(ctx, 0);

		if (!var)
			break;
		taken[ntaken++] = var;
	}
	return n;
}

/* a child fills the device, reports the counts, and is killed */
static void fill_child(void *arg, int fd)
{
	struct ibv_context *ctx = devx_open(NULL, 0);
	int got[2];

	(void)arg;
	got[0] = ctx ? take_counters(ctx) : -1;
	got[1] = ctx ? take_vars(ctx) : -1;
	if (write(fd, got, sizeof(got)) != sizeof(got))
		_exit(1);
	pause();
}

static void fill_and_die(int *counters, int *vars)
{
	int got[2];

	emu_report_and_kill(fill_child, NULL, got, sizeof(got));
	*counters = got[0];
	*vars = got[1];
}

int main(void)
{
	struct mlx5dv_devx_obj *a, *b;
	struct ibv_context *ctx, *ctx2;
	uint32_t list[8], total;
	int dupfd, c1, v1, c2, v2;

	emu_require("emu_teardown");

	/* a close that is not the last one destroys nothing */
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	a = fc_alloc_bulk(ctx, 0, NULL);
	b = meter_create_cbs(ctx, 1, 1, NULL);
	REQUIRE(a && b);
	dupfd = dup(ctx->cmd_fd);
	REQUIRE(dupfd >= 0);
	free(a);	/* libmlx5 memory only: the objects stay */
	free(b);
	CHECK_EQ(ibv_close_device(ctx), 0);
	CHECK_EQ(emu_info_handles(dupfd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 2);
	ctx2 = ibv_import_device(dupfd);
	REQUIRE(ctx2);
	CHECK_EQ(emu_info_handles(ctx2->cmd_fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 2);
	CHECK_EQ(ibv_close_device(ctx2), 0);

	/*
	 * the last close gives the firmware and the kernel their
	 * resources back
	 */
	fill_and_die(&c1, &v1);
	CHECK(c1 > 0 && c1 < MAX_TAKE);
	CHECK(v1 > 0 && v1 < 4 * MAX_TAKE);
	fill_and_die(&c2, &v2);
	CHECK_EQ(c2, c1);
	CHECK_EQ(v2, v1);
	/* and a clean exit does the same */
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	CHECK_EQ(take_counters(ctx), c1);
	CHECK_EQ(take_vars(ctx), v1);
	CHECK_EQ(ibv_close_device(ctx), 0);
	forget_taken();
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	CHECK_EQ(take_counters(ctx), c1);
	CHECK_EQ(ibv_close_device(ctx), 0);
	forget_taken();
	return check_done("emu_teardown");
}
