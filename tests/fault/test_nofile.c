// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Descriptor exhaustion: with every descriptor of RLIMIT_NOFILE in use,
 * import (single and batch) and export either work or fail with an
 * errno, and leave nothing allocated behind; once descriptors are free
 * again the same blobs import and the objects work.
 *
 * On a real kernel an import needs no new descriptor and works; under
 * mlx5-emu only a thread's first call on a device needs one (its channel
 * to the daemon), so there it works too, or fails with EMFILE in a thread
 * that had made no call yet: either way the call must come back clean.
 */
#include <fcntl.h>
#include <infiniband/mlx5_share_batch.h>

#include "alloc_track.h"
#include "check.h"
#include "e2e.h"
#include "fd_fill.h"

#define NAME "fault_nofile"

enum { N_OBJS = 3 };

int main(int argc, char **argv)
{
	static uint8_t blobs[N_OBJS][E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *fcs[N_OBJS], *objs[N_OBJS], *obj;
	void *ptrs[N_OBJS];
	int errs[N_OBJS], i, ret, err;
	struct fd_fill fill;
	struct ibv_context *ctx;
	uint32_t ids[N_OBJS];
	uint8_t out[32];
	bool failed;
	size_t live;

	ctx = e2e_start(argc, argv, NAME);
	for (i = 0; i < N_OBJS; i++) {
		fcs[i] = fc_alloc(ctx, &ids[i]);
		REQUIRE(fcs[i]);
		e2e_export(fcs[i], blobs[i]);
		ptrs[i] = blobs[i];
	}

	/* Use up every descriptor under a small limit. */
	fd_fill(&fill);
	CHECK(fill.n < FD_FILL_LIMIT);
	CHECK_ERRNO(open("/dev/null", O_RDONLY) < 0, EMFILE);

	alloc_track_start(0);
	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, blobs[0]);
	err = errno;
	if (obj) {
		CHECK_EQ(fc_query(obj, ids[0], out), 0);
		mlx5dv_devx_obj_unimport(obj);
	} else {
		CHECK(err != 0);
	}
	ret = mlx5share_devx_obj_import_batch(ctx, ptrs, N_OBJS, objs, errs);
	CHECK(ret >= 0 && ret <= N_OBJS);
	for (i = 0; i < N_OBJS; i++) {
		CHECK(!objs[i] == !!errs[i]);
		mlx5dv_devx_obj_unimport(objs[i]);
	}
	CHECK_EQ(mlx5dv_devx_obj_export(fcs[0], blobs[0]), 0);
	alloc_track_stop(&live, &failed);
	CHECK_EQ(live, 0);		/* nothing half-built */
	if (!obj)	/* (stdio allocates: report outside the window) */
		printf("%s: import with no descriptor left: %s\n", NAME,
		       strerror(err));

	fd_unfill(&fill);

	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, ptrs, N_OBJS, objs,
						 errs), N_OBJS);
	for (i = 0; i < N_OBJS; i++) {
		CHECK_EQ(errs[i], 0);
		CHECK_EQ(fc_query(objs[i], ids[i], out), 0);
		mlx5dv_devx_obj_unimport(objs[i]);
		CHECK_EQ(mlx5dv_devx_obj_destroy(fcs[i]), 0);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
