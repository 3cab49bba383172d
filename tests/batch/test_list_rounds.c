// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The last INFO_HANDLES round judged by its answer, on a kernel without
 * the verbs file id (mlx5-emu run --handles=lowest-free).
 *
 * Without an earlier answer on a descriptor, the library asks for 256
 * handles and doubles the buffer while the answer comes back full: 256,
 * 512 ... 8,192, then the largest answer, 16,383 (the list attribute's
 * u16 length).  With 8,192 to 16,382 live DEVX objects that last round
 * comes back complete (fewer than it could hold): a handle it does not
 * list is dead, and the blob naming it must be refused with ENOENT, as
 * in any earlier round.  Only a full answer of the largest size may be
 * truncated (batch_counts: 16,383 live).  A library that took "this was
 * the last round" for "cannot tell" would accept a destroyed PD's blob
 * there (the bug issue 29 found in the rdma-core series' copy).
 *
 * Checked at 8,192 live (the doubling reaches 16,383 in its seventh
 * ioctl) and 16,382 live (the same on a fresh descriptor; in two ioctls
 * on a descriptor whose last answer, 8,192, sizes its first buffer; in
 * one when that answer was 14,000, whose first buffer is the largest):
 * a destroyed PD's blob is refused with ENOENT, single and batch, and a
 * live PD's blob imports, so the refusal is the list's answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "ioctl_watch.h"
#include "file_id_probe.h"

#define NAME "batch_list_rounds"

enum { LIST_MAX = 16383, FIRST = 8192, MID = 14000 };

static unsigned long info_handles;

void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (hdr && hdr->object_id == UVERBS_OBJECT_DEVICE &&
	    hdr->method_id == UVERBS_METHOD_INFO_HANDLES)
		info_handles++;
}

/* The same ufile behind a descriptor with no answer of its own yet. */
static struct ibv_context *fresh(struct ibv_context *ctx)
{
	struct ibv_context *dup_ctx;
	int fd = dup(ctx->cmd_fd);

	REQUIRE(fd >= 0);
	dup_ctx = ibv_import_device(fd);
	REQUIRE(dup_ctx);
	return dup_ctx;
}

/*
 * Imports dead (a destroyed PD's blob) and live (a live PD's) into ctx,
 * single then batch: ENOENT and success.  The single import of dead must
 * take rounds INFO_HANDLES ioctls (0: not checked).
 */
static void judge(struct ibv_context *ctx, uint8_t *dead, uint8_t *live,
		  unsigned long rounds, const char *what)
{
	struct mlx5dv_devx_obj *obj, *objs[2];
	void *both[2] = { dead, live };
	int errs[2];

	info_handles = 0;
	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, dead);
	CHECK(!obj);
	CHECK_EQ(obj ? 0 : errno, ENOENT);
	printf("%s: %s: destroyed PD, single import: %s after %lu "
	       "INFO_HANDLES\n", NAME, what, obj ? "ACCEPTED" : "refused",
	       info_handles);
	if (rounds)
		CHECK_EQ(info_handles, rounds);
	mlx5dv_devx_obj_unimport(obj);

	obj = mlx5dv_devx_obj_import(ctx, live);
	CHECK(obj != NULL);
	mlx5dv_devx_obj_unimport(obj);

	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, both, 2, objs, errs),
		 1);
	CHECK_EQ(errs[0], ENOENT);
	CHECK_EQ(errs[1], 0);
	printf("%s: %s: destroyed PD, batch import: %s\n", NAME, what,
	       errs[0] ? "refused" : "ACCEPTED");
	mlx5dv_devx_obj_unimport(objs[0]);
	mlx5dv_devx_obj_unimport(objs[1]);
}

/* One PD among pds[0..n) exported and destroyed; n - 1 stay live. */
static void kill_one(struct mlx5dv_devx_obj **pds, int at, uint8_t *blob)
{
	e2e_export(pds[at], blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pds[at]), 0);
	pds[at] = NULL;
}

static void alloc_to(struct ibv_context *ctx, struct mlx5dv_devx_obj **pds,
		     int from, int to)
{
	for (int i = from; i < to; i++) {
		pds[i] = pd_alloc(ctx, NULL);
		REQUIRE(pds[i]);
	}
}

int main(int argc, char **argv)
{
	uint8_t dead1[E2E_BLOB_MAX], dead2[E2E_BLOB_MAX], live[E2E_BLOB_MAX];
	struct ibv_context *ctx = e2e_start(argc, argv, NAME);
	struct ibv_context *hinted, *hinted_max, *f;
	struct mlx5dv_devx_obj **pds;
	int i;

	if (file_id_of(ctx->cmd_fd))
		check_skip(NAME, "needs a kernel without the verbs file id "
			   "(mlx5-emu run --handles=lowest-free)");
	pds = calloc(LIST_MAX + 2, sizeof(*pds));
	REQUIRE(pds);

	/* 8,192 live: the seventh round is the last, and complete. */
	alloc_to(ctx, pds, 0, FIRST + 1);
	kill_one(pds, FIRST / 2, dead1);
	e2e_export(pds[FIRST], live);
	CHECK_EQ(e2e_live_devx_objs(ctx), FIRST);
	f = fresh(ctx);
	judge(f, dead1, live, 7, "8,192 live, fresh descriptor");
	hinted = f;	/* its last answer: 8,192 */

	/* 14,000 live: an answer that sizes the next first buffer. */
	alloc_to(ctx, pds, FIRST + 1, MID + 1);
	CHECK_EQ(e2e_live_devx_objs(ctx), MID);
	hinted_max = fresh(ctx);
	judge(hinted_max, dead1, live, 0, "14,000 live");

	/* 16,382 live. */
	alloc_to(ctx, pds, MID + 1, LIST_MAX + 1);
	kill_one(pds, MID, dead2);
	CHECK_EQ(e2e_live_devx_objs(ctx), LIST_MAX - 1);
	f = fresh(ctx);
	judge(f, dead1, live, 7, "16,382 live, fresh descriptor");
	judge(f, dead2, live, 1, "16,382 live, after an answer of 16,382");
	CHECK_EQ(ibv_close_device(f), 0);
	judge(hinted, dead2, live, 2, "16,382 live, after an answer of 8,192");
	judge(hinted_max, dead2, live, 1,
	      "16,382 live, after an answer of 14,000");

	CHECK_EQ(ibv_close_device(hinted), 0);
	CHECK_EQ(ibv_close_device(hinted_max), 0);
	for (i = 0; i <= LIST_MAX; i++)
		if (pds[i])
			CHECK_EQ(mlx5dv_devx_obj_destroy(pds[i]), 0);
	free(pds);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
