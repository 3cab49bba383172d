// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The uverbs paths the sharing tests do not take, for a debug kernel to
 * watch (vmdbg_cx_rereg_fdtypes): rereg_mr of the translation, then of
 * the translation and the PD (mlx5_ib makes a new mkey for each, which
 * the core puts under the MR's handle; a change of the access flags
 * alone would take a UMR work request, which the emulated function does
 * not execute: on Debian's kernel it had not returned after 150 s),
 * and the objects that are files -- a completion channel with a CQ
 * armed on it, the context's async event file, a DEVX async command
 * file with one answer read and one left unread, a DEVX event channel.
 * Everything is made twice: once destroyed call by call, once left to
 * the kernel by a child process that exits holding it all.  Exits 0
 * when every call answered as it must (check.h); the kernel's reports,
 * if any, are the runner's to find on the console.
 *
 * Usage: cx_rereg_fds [DEVICE]   (default: the first mlx5 device)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "devx_objs.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

enum { MR_LEN = 64 * 1024, WR_ID = 0x5eed };

/* The files and the objects on them, as one context holds them. */
struct fd_objs {
	struct ibv_comp_channel *channel;
	struct ibv_cq *cq;
	struct mlx5dv_devx_cmd_comp *cmd_comp;
	struct mlx5dv_devx_event_channel *event_channel;
	struct mlx5dv_devx_obj *fc;
	uint32_t fc_id;
};

/* QUERY_FLOW_COUNTER of fds->fc, answered on its command file. */
static int fc_query_async(struct fd_objs *fds)
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = { 0 };

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, fds->fc_id);
	return mlx5dv_devx_obj_query_async(fds->fc, in, sizeof(in),
					   PRM_QUERY_FC_OUT_LEN, WR_ID,
					   fds->cmd_comp);
}

/* Where the test is, for a guest that hangs. */
static void step(const char *what)
{
	printf("- %s\n", what);
	fflush(stdout);
}

static void rereg(struct ibv_pd *pd)
{
	void *a = calloc(1, MR_LEN), *b = calloc(1, MR_LEN);
	struct ibv_pd *pd2 = ibv_alloc_pd(pd->context);
	struct ibv_mr *mr;
	uint32_t handle;

	REQUIRE(a && b && pd2);
	mr = ibv_reg_mr(pd, a, MR_LEN, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(mr);
	handle = mr->handle;
	step("rereg_mr: translation");
	CHECK_EQ(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, b,
			      MR_LEN, 0), 0);
	CHECK(mr->addr == b);
	step("rereg_mr: translation and PD");
	CHECK_EQ(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION |
			      IBV_REREG_MR_CHANGE_PD, pd2, a, MR_LEN, 0), 0);
	CHECK(mr->addr == a);
	CHECK(mr->pd == pd2);
	/* the MR keeps its handle, whatever the driver did under it */
	CHECK_EQ(mr->handle, handle);
	CHECK_EQ(ibv_dereg_mr(mr), 0);
	CHECK_EQ(ibv_dealloc_pd(pd2), 0);
	free(a);
	free(b);
}

/*
 * Makes every file and its object; the first command answered, the
 * second left in the file.
 */
static void fds_open(struct ibv_context *ctx, struct fd_objs *fds)
{
	uint8_t resp[sizeof(struct mlx5dv_devx_async_cmd_hdr) +
		     PRM_QUERY_FC_OUT_LEN];
	struct mlx5dv_devx_async_cmd_hdr *hdr = (void *)resp;

	step("completion channel, CQ");
	fds->channel = ibv_create_comp_channel(ctx);
	REQUIRE(fds->channel);
	fds->cq = ibv_create_cq(ctx, 8, NULL, fds->channel, 0);
	REQUIRE(fds->cq);
	CHECK_EQ(ibv_req_notify_cq(fds->cq, 0), 0);
	step("DEVX command file, event channel, flow counter");
	fds->cmd_comp = mlx5dv_devx_create_cmd_comp(ctx);
	REQUIRE(fds->cmd_comp);
	fds->event_channel = mlx5dv_devx_create_event_channel(ctx,
		MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA);
	REQUIRE(fds->event_channel);
	fds->fc = fc_alloc(ctx, &fds->fc_id);
	REQUIRE(fds->fc);
	step("QUERY_FLOW_COUNTER on the command file");
	CHECK_EQ(fc_query_async(fds), 0);
	CHECK_EQ(mlx5dv_devx_get_async_cmd_comp(fds->cmd_comp, hdr,
						sizeof(resp)), 0);
	CHECK_EQ(hdr->wr_id, WR_ID);
	CHECK_EQ(prm_get(hdr->out_data, PRM_OUT_STATUS), 0);
	CHECK_EQ(fc_query_async(fds), 0);
}

/* Nothing waits on the context's async event file. */
static void async_fd_quiet(struct ibv_context *ctx)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };

	CHECK_EQ(poll(&p, 1, 0), 0);
}

static void fds_close(struct fd_objs *fds)
{
	CHECK_EQ(mlx5dv_devx_obj_destroy(fds->fc), 0);
	mlx5dv_devx_destroy_event_channel(fds->event_channel);
	mlx5dv_devx_destroy_cmd_comp(fds->cmd_comp);
	CHECK_EQ(ibv_destroy_cq(fds->cq), 0);
	CHECK_EQ(ibv_destroy_comp_channel(fds->channel), 0);
}

/* A child makes it all and exits holding it: the kernel cleans up. */
static void left_to_exit(const char *name)
{
	pid_t pid = fork();
	int status;

	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct ibv_context *ctx = devx_open(name, 0);
		struct fd_objs fds;
		struct ibv_pd *pd;

		if (!ctx)
			_exit(2);
		pd = ibv_alloc_pd(ctx);
		if (!pd || !ibv_reg_mr(pd, calloc(1, MR_LEN), MR_LEN,
				       IBV_ACCESS_LOCAL_WRITE))
			_exit(3);
		fds_open(ctx, &fds);
		_exit(check_failed ? 4 : 0);
	}
	step("the same left to a child's exit");
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	struct ibv_context *ctx = devx_open(name, 0);
	struct fd_objs fds;
	struct ibv_pd *pd;

	if (!ctx)
		check_skip("cx_rereg_fds", "no mlx5 device opens with DEVX");
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	rereg(pd);
	fds_open(ctx, &fds);
	async_fd_quiet(ctx);
	fds_close(&fds);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	left_to_exit(name);
	return check_done("cx_rereg_fds");
}
