// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 8: 8 threads import and unimport the same blobs concurrently,
 * 10,000 times each: no error, nothing left behind in the kernel, and no
 * heap growth (what 160,000 leaked objects would show).
 */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"
#include "e2e.h"

#define NAME "e2e_threads"
#define THREADS 8
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
/*
 * Instrumented builds are here to catch races and bad accesses, which
 * show in far fewer rounds; 10,000 would take them past CI's time.
 */
#define ROUNDS 1000
#else
#define ROUNDS 10000
#endif
#define LEAK_SLACK (256 * 1024)

static struct ibv_context *ctx;
static uint8_t fc_blob[E2E_BLOB_MAX], meter_blob[E2E_BLOB_MAX];
static uint32_t fc_id;
static bool have_meter;
static atomic_uint failures;

static void rounds(int n)
{
	struct mlx5dv_devx_obj *fc, *meter;
	uint8_t out[32];
	int i;

	for (i = 0; i < n; i++) {
		fc = mlx5dv_devx_obj_import(ctx, fc_blob);
		meter = have_meter ?
			mlx5dv_devx_obj_import(ctx, meter_blob) : NULL;
		if (!fc || (have_meter && !meter))
			atomic_fetch_add(&failures, 1);
		if (fc && i % 1000 == 0 && fc_query(fc, fc_id, out))
			atomic_fetch_add(&failures, 1);
		mlx5dv_devx_obj_unimport(fc);
		mlx5dv_devx_obj_unimport(meter);
	}
}

static void *worker(void *arg)
{
	rounds(ROUNDS);
	return arg;
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc, *meter;
	struct mallinfo2 before, after;
	pthread_t tid[THREADS];
	uint32_t meter_id;
	long live;
	int i;

	ctx = e2e_start(argc, argv, NAME);
	fc = fc_alloc(ctx, &fc_id);
	REQUIRE(fc);
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter || e2e_on_hw());
	have_meter = meter;
	e2e_export(fc, fc_blob);
	if (meter)
		e2e_export(meter, meter_blob);
	live = e2e_live_devx_objs(ctx);

	/* Warm up once so lazily made state is not counted as a leak. */
	rounds(100);
	before = mallinfo2();
	for (i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&tid[i], NULL, worker, NULL) == 0);
	for (i = 0; i < THREADS; i++)
		REQUIRE(pthread_join(tid[i], NULL) == 0);
	after = mallinfo2();

	CHECK_EQ(atomic_load(&failures), 0);
	CHECK_EQ(e2e_live_devx_objs(ctx), live);
	if (after.uordblks > before.uordblks + LEAK_SLACK)
		fprintf(stderr, "heap in use grew from %zu to %zu bytes\n",
			before.uordblks, after.uordblks);
	CHECK(after.uordblks <= before.uordblks + LEAK_SLACK);

	if (meter)
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
