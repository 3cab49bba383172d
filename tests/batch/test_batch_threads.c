// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Threads share one context and one set of blobs: each imports them as a
 * batch and one by one, again and again, while the main thread creates
 * and destroys other objects on the same context.  Every import of a
 * live object works, every answer of the batch equals the single one,
 * and nothing leaks (run under TSan by the sanitize-thread entry).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "e2e.h"

#define NAME "batch_threads"

enum { N_THREADS = 4, ROUNDS = 200, N_BLOBS = 6 };

static struct ibv_context *ctx;
static uint8_t blobs[N_BLOBS][E2E_BLOB_MAX];
static void *ptrs[N_BLOBS];
static atomic_uint failures;

static void *worker(void *arg)
{
	struct mlx5dv_devx_obj *objs[N_BLOBS], *obj;
	int errs[N_BLOBS], r, i, n;

	for (r = 0; r < ROUNDS; r++) {
		n = mlx5share_devx_obj_import_batch(ctx, ptrs, N_BLOBS, objs,
						    errs);
		if (n != N_BLOBS)
			atomic_fetch_add(&failures, 1);
		for (i = 0; i < N_BLOBS; i++) {
			mlx5dv_devx_obj_unimport(objs[i]);
			obj = mlx5dv_devx_obj_import(ctx, ptrs[i]);
			if (!obj || errs[i])
				atomic_fetch_add(&failures, 1);
			mlx5dv_devx_obj_unimport(obj);
		}
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *mine[N_BLOBS], *churn;
	pthread_t t[N_THREADS];
	uint32_t id;
	int i, r;

	ctx = e2e_start(argc, argv, NAME);
	for (i = 0; i < N_BLOBS; i++) {
		mine[i] = i % 2 ? pd_alloc(ctx, NULL) : fc_alloc(ctx, &id);
		REQUIRE(mine[i]);
		e2e_export(mine[i], blobs[i]);
		ptrs[i] = blobs[i];
	}
	for (i = 0; i < N_THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, worker, NULL) == 0);
	/* Objects come and go beside the shared ones. */
	for (r = 0; r < ROUNDS; r++) {
		churn = r % 2 ? pd_alloc(ctx, NULL) : fc_alloc(ctx, &id);
		CHECK(churn != NULL);
		if (churn)
			CHECK_EQ(mlx5dv_devx_obj_destroy(churn), 0);
	}
	for (i = 0; i < N_THREADS; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(atomic_load(&failures), 0);
	for (i = 0; i < N_BLOBS; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(mine[i]), 0);
	CHECK_EQ(e2e_live_devx_objs(ctx), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
