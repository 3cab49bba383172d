// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The numbers README.md and mlx5-share(7) state about import's kernel
 * calls, measured, on a kernel without the verbs file id (mlx5-emu run
 * --handles=lowest-free, today's kernels):
 *
 *   kernel calls per import, by kind (ioctls counted by interposing
 *   ioctl() in this program: ioctl_watch.c)
 *     flow counters (id confirmed)      one DEVX_OBJ_QUERY per blob, single
 *                                       or batch; no INFO_HANDLES
 *     untyped DEVX objects (PDs)        one INFO_HANDLES per single import;
 *                                       one per batch, whatever N
 *     a batch of both                   one INFO_HANDLES + one query per
 *                                       counter
 *   one INFO_HANDLES is one ioctl while the ufile holds fewer than 256
 *   live DEVX objects: with 255, one; with 256 on a descriptor that has
 *   no earlier answer, two (the first buffer holds 256, and a full answer
 *   may be incomplete); the first list of a ufile with 16,383, seven
 *   (256 doubling to 16,383).
 *
 *   the INFO_HANDLES boundary: the kernel fills at most 16,383 handles per
 *   answer (the list attribute's length is a u16) and truncates the rest
 *   silently, so a full answer may be incomplete.  With 16,383 live DEVX
 *   objects in the importing ufile a destroyed PD's blob is accepted
 *   (single and batch); with 16,382 it is refused with ENOENT.  A
 *   destroyed flow counter's blob is refused with ENOENT on both sides of
 *   the boundary: its check is a query by id, not the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "ioctl_watch.h"

#define NAME "batch_counts"

/*
 * The kernel's largest INFO_HANDLES answer: UINT16_MAX / 4 handles; the
 * library's first buffer, without an earlier answer on the descriptor.
 */
enum { LIST_MAX = 16383, FIRST_LIST = 256, N = 10 };

static unsigned long info_handles, devx_queries;

void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (!hdr)
		return;
	if (hdr->object_id == UVERBS_OBJECT_DEVICE &&
	    hdr->method_id == UVERBS_METHOD_INFO_HANDLES)
		info_handles++;
	if (hdr->object_id == MLX5_IB_OBJECT_DEVX_OBJ &&
	    hdr->method_id == MLX5_IB_METHOD_DEVX_OBJ_QUERY)
		devx_queries++;
}

/* INFO_HANDLES ioctls of a batch import of blob into ctx (it is live). */
static unsigned long batch_lists(struct ibv_context *ctx, uint8_t *blob)
{
	struct mlx5dv_devx_obj *objs[1];
	void *one[1] = { blob };
	int errs[1];

	info_handles = 0;
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, one, 1, objs, errs), 1);
	CHECK_EQ(errs[0], 0);
	mlx5dv_devx_obj_unimport(objs[0]);
	return info_handles;
}

/*
 * The ioctls of one list around the first buffer's size: with 255 live
 * DEVX objects, then with 256 on a descriptor with no earlier answer (a
 * dup of ctx's, imported: the same ufile).
 */
static void first_list(struct ibv_context *ctx,
		       struct mlx5dv_devx_obj **pds)
{
	uint8_t blob[E2E_BLOB_MAX];
	struct ibv_context *dup_ctx;
	int fd;

	e2e_export(pds[0], blob);
	printf("%s: 255 live: %lu INFO_HANDLES\n", NAME,
	       batch_lists(ctx, blob));
	CHECK_EQ(info_handles, 1);
	pds[FIRST_LIST - 1] = pd_alloc(ctx, NULL);
	REQUIRE(pds[FIRST_LIST - 1]);
	fd = dup(ctx->cmd_fd);
	REQUIRE(fd >= 0);
	dup_ctx = ibv_import_device(fd);
	REQUIRE(dup_ctx);
	printf("%s: 256 live, a fresh descriptor: %lu INFO_HANDLES\n", NAME,
	       batch_lists(dup_ctx, blob));
	CHECK_EQ(info_handles, 2);
	CHECK_EQ(ibv_close_device(dup_ctx), 0);
}

static void reset(void)
{
	info_handles = 0;
	devx_queries = 0;
}

static uint8_t blobs[2 * N][E2E_BLOB_MAX];
static void *ptrs[2 * N];

/* Imports blobs [from, from + n) one by one; each must succeed. */
static void import_singly(struct ibv_context *ctx, int from, int n)
{
	struct mlx5dv_devx_obj *obj;
	int i;

	for (i = from; i < from + n; i++) {
		obj = mlx5dv_devx_obj_import(ctx, ptrs[i]);
		CHECK(obj != NULL);
		mlx5dv_devx_obj_unimport(obj);
	}
}

/* Imports blobs [from, from + n) as one batch; each must succeed. */
static void import_batch(struct ibv_context *ctx, int from, int n)
{
	struct mlx5dv_devx_obj *objs[2 * N];
	int errs[2 * N], i;

	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, &ptrs[from], n, objs,
						 errs), n);
	for (i = 0; i < n; i++) {
		CHECK_EQ(errs[i], 0);
		mlx5dv_devx_obj_unimport(objs[i]);
	}
}

static void report(const char *what)
{
	printf("%s: %s: %lu INFO_HANDLES, %lu DEVX_OBJ_QUERY\n", NAME, what,
	       info_handles, devx_queries);
}

/* Kernel calls per import and per batch of N, by kind. */
static void calls_per_kind(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *objs[2 * N];
	int i;

	/* blobs 0..N-1: flow counters; N..2N-1: DEVX PDs (untyped). */
	for (i = 0; i < N; i++) {
		objs[i] = fc_alloc(ctx, NULL);
		REQUIRE(objs[i]);
		e2e_export(objs[i], blobs[i]);
		objs[N + i] = pd_alloc(ctx, NULL);
		REQUIRE(objs[N + i]);
		e2e_export(objs[N + i], blobs[N + i]);
	}
	for (i = 0; i < 2 * N; i++)
		ptrs[i] = blobs[i];

	reset();
	import_singly(ctx, 0, N);
	report("10 flow counters, single");
	CHECK_EQ(info_handles, 0);
	CHECK_EQ(devx_queries, N);

	reset();
	import_batch(ctx, 0, N);
	report("10 flow counters, batch");
	CHECK_EQ(info_handles, 0);
	CHECK_EQ(devx_queries, N);

	reset();
	import_singly(ctx, N, N);
	report("10 PDs, single");
	CHECK_EQ(info_handles, N);
	CHECK_EQ(devx_queries, 0);

	reset();
	import_batch(ctx, N, N);
	report("10 PDs, batch");
	CHECK_EQ(info_handles, 1);
	CHECK_EQ(devx_queries, 0);

	reset();
	import_batch(ctx, 0, 2 * N);
	report("10 flow counters and 10 PDs, batch");
	CHECK_EQ(info_handles, 1);
	CHECK_EQ(devx_queries, N);

	for (i = 0; i < 2 * N; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(objs[i]), 0);
}

/* The destroyed PD's and counter's blobs, single and batch. */
static void check_stale(struct ibv_context *ctx, uint8_t *pd_blob,
			uint8_t *fc_blob, int want_pd, const char *what)
{
	struct mlx5dv_devx_obj *obj, *objs[1];
	void *one[1] = { pd_blob };
	int errs[1];

	reset();
	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, pd_blob);
	if (!want_pd)	/* the first list of this descriptor at 16,383 */
		CHECK_EQ(info_handles, 7);
	CHECK_EQ(obj ? 0 : errno, want_pd);
	mlx5dv_devx_obj_unimport(obj);
	printf("%s: %s, single import: %s\n", NAME, what,
	       want_pd ? "refused" : "accepted");
	report("  its kernel calls");
	reset();
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, one, 1, objs, errs),
		 want_pd ? 0 : 1);
	CHECK_EQ(errs[0], want_pd);
	mlx5dv_devx_obj_unimport(objs[0]);
	report("  the batch's kernel calls");
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, fc_blob), ENOENT);
}

/*
 * The boundary, in a ufile of its own: LIST_MAX + 1 PDs, then a counter;
 * the counter and one PD destroyed leave LIST_MAX live DEVX objects.
 */
static void boundary(void)
{
	uint8_t pd_blob[E2E_BLOB_MAX], fc_blob[E2E_BLOB_MAX];
	struct mlx5dv_devx_obj **pds, *fc;
	struct ibv_context *ctx = e2e_open(0);
	long live;
	int i;

	pds = calloc(LIST_MAX + 1, sizeof(*pds));
	REQUIRE(pds);
	for (i = 0; i < FIRST_LIST - 1; i++) {
		pds[i] = pd_alloc(ctx, NULL);
		REQUIRE(pds[i]);
	}
	first_list(ctx, pds);
	for (i = FIRST_LIST; i <= LIST_MAX; i++) {
		pds[i] = pd_alloc(ctx, NULL);
		REQUIRE(pds[i]);
	}
	fc = fc_alloc(ctx, NULL);
	REQUIRE(fc);
	e2e_export(fc, fc_blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	/* A PD in the middle: its handle is neither first nor last. */
	e2e_export(pds[LIST_MAX / 2], pd_blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pds[LIST_MAX / 2]), 0);
	pds[LIST_MAX / 2] = NULL;

	/* 16,383 live: the answer is full, so it may be truncated. */
	live = e2e_live_devx_objs(ctx);
	CHECK_EQ(live, -1);	/* the list is full: cannot be complete */
	check_stale(ctx, pd_blob, fc_blob, 0, "16,383 live, destroyed PD");

	/* 16,382 live: the answer is complete, the PD is not in it. */
	CHECK_EQ(mlx5dv_devx_obj_destroy(pds[0]), 0);
	pds[0] = NULL;
	CHECK_EQ(e2e_live_devx_objs(ctx), LIST_MAX - 1);
	check_stale(ctx, pd_blob, fc_blob, ENOENT,
		    "16,382 live, destroyed PD");

	for (i = 0; i <= LIST_MAX; i++)
		if (pds[i])
			CHECK_EQ(mlx5dv_devx_obj_destroy(pds[i]), 0);
	free(pds);
	CHECK_EQ(ibv_close_device(ctx), 0);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx = e2e_start(argc, argv, NAME);

	calls_per_kind(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	boundary();
	return check_done(NAME);
}
