// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Allocation failure during import.  For each object kind and for the
 * batch import, the k-th allocation of the call fails with ENOMEM, for
 * k = 1, 2, ... until the call makes no more allocations than that.  Each
 * time: the call fails with ENOMEM (or copes and succeeds), everything it
 * allocated is freed again (nothing half-built), and the same blob then
 * imports fine.
 *
 * The allocations counted include the emulator's (its preload library
 * runs in this process), as a kernel's would not be: a failure there
 * must come back as an error of the call too.
 */
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "alloc_track.h"
#include "check.h"
#include "e2e.h"

#define NAME "fault_enomem"

enum { MAX_K = 500 };

/* One import with the k-th allocation failing.  true: no more to fail. */
static bool single_with_failure(struct ibv_context *ctx, uint8_t *blob,
				unsigned long k, const char *what)
{
	struct mlx5dv_devx_obj *obj;
	bool failed;
	size_t live;
	int err;

	alloc_track_start(k);
	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, blob);
	err = errno;
	alloc_track_stop(&live, &failed);

	if (!obj) {
		if (err != ENOMEM || live)
			fprintf(stderr, "%s: allocation %lu failed: import "
				"errno %d, %zu allocations left\n", what, k,
				err, live);
		CHECK_EQ(err, ENOMEM);
		CHECK_EQ(live, 0);
		CHECK(failed);
	} else {
		/* It coped: only the object itself may remain. */
		CHECK(live <= 1);
		alloc_track_start(0);
		mlx5dv_devx_obj_unimport(obj);
		alloc_track_stop(&live, &failed);
	}
	/* Nothing is left behind that would stop the next import. */
	obj = mlx5dv_devx_obj_import(ctx, blob);
	CHECK(obj != NULL);
	mlx5dv_devx_obj_unimport(obj);
	return !failed;
}

static bool batch_with_failure(struct ibv_context *ctx, void **blobs,
			       size_t n, unsigned long k)
{
	struct mlx5dv_devx_obj *objs[8];
	int errs[8], ok, ok_errs = 0;
	size_t live, i, made = 0;
	bool failed;

	alloc_track_start(k);
	ok = mlx5share_devx_obj_import_batch(ctx, blobs, n, objs, errs);
	alloc_track_stop(&live, &failed);

	CHECK(ok >= 0);
	for (i = 0; i < n; i++) {
		CHECK(errs[i] == 0 || errs[i] == ENOMEM);
		CHECK(!objs[i] == !!errs[i]);
		ok_errs += !errs[i];
		made += objs[i] != NULL;
	}
	CHECK_EQ(ok, ok_errs);
	/* Only the objects it returned may remain. */
	CHECK(live <= made);
	for (i = 0; i < n; i++)
		mlx5dv_devx_obj_unimport(objs[i]);
	if (!failed)
		CHECK_EQ(ok, (int)n);
	return !failed;
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc, *pd, *meter;
	static uint8_t blobs[3][E2E_BLOB_MAX];
	void *ptrs[3] = { blobs[0], blobs[1], blobs[2] };
	const char *names[3] = { "flow counter", "pd", "flow meter" };
	struct ibv_context *ctx;
	unsigned long k, total = 0;
	size_t n = 2, i;
	uint32_t id;

	e2e_init(argc, argv, NAME);
	if (!alloc_track_available())
		check_skip(NAME, "a sanitizer owns malloc in this build");
	ctx = e2e_open(0);
	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	pd = pd_alloc(ctx, NULL);
	REQUIRE(pd);
	e2e_export(fc, blobs[0]);
	e2e_export(pd, blobs[1]);
	meter = meter_create(ctx, &id);
	if (meter)
		e2e_export(meter, blobs[n++]);

	for (i = 0; i < n; i++) {
		for (k = 1; k <= MAX_K; k++)
			if (single_with_failure(ctx, blobs[i], k, names[i]))
				break;
		CHECK(k > 1);		/* import allocated something */
		CHECK(k <= MAX_K);
		total += k - 1;
	}
	for (k = 1; k <= MAX_K; k++)
		if (batch_with_failure(ctx, ptrs, n, k))
			break;
	CHECK(k > 1 && k <= MAX_K);
	total += k - 1;
	printf("%s: %lu injected allocation failures\n", NAME, total);

	if (meter)
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pd), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
