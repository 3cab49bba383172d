// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * EBUSY from the kernel (issue 20 item 5, the library's part; issue 30
 * item 5): a call that takes an object shared fails with EBUSY while
 * another holds it exclusive (rdma_core.c, uverbs_try_lock_object(): an
 * owner's destroy in progress; a DEVX modify holds it shared).  On a
 * kernel without the verbs file id, import confirms a flow counter's id
 * with a DEVX object query, which takes the object shared: it asks again
 * UVERBS_BUSY_RETRIES times after a short sleep, then fails with EBUSY,
 * leaving every object as it was; a batch fails only the busy object's
 * blob.  With the file id (series v3), import and export make no kernel
 * call at all once the context's id is known: whatever holds the object,
 * they succeed.
 *
 * The kernel's EBUSY is injected here: this program's ioctl()
 * (ioctl_watch.c) asks ioctl_answer(), which answers EBUSY for the DEVX
 * object queries that name the "busy" handle while busy_left lasts, and
 * counts every uverbs ioctl, handing every call on.  Registered with the
 * file id (--handles=unique) and without it (--handles=lowest-free).
 */
#include <errno.h>
#include <string.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "ioctl_watch.h"
#include "file_id_probe.h"
#include "uverbs_ioctl.h"

#define NAME "e2e_busy"

static uint32_t busy_handle = UINT32_MAX;
static int busy_left;		/* calls still to fail; -1: all */
static int busy_calls;		/* calls that named the busy handle */

static int all_calls;		/* uverbs ioctls of any kind */

/* Does this RDMA_VERBS_IOCTL take busy_handle shared? */
static bool names_busy(const struct ib_uverbs_ioctl_hdr *hdr)
{
	const struct ib_uverbs_attr *a = hdr->attrs;
	unsigned int i;

	for (i = 0; i < hdr->num_attrs; i++) {
		if (hdr->object_id == MLX5_IB_OBJECT_DEVX_OBJ &&
		    hdr->method_id == MLX5_IB_METHOD_DEVX_OBJ_QUERY &&
		    a[i].attr_id == MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE &&
		    a[i].data == busy_handle)
			return true;
	}
	return false;
}

int ioctl_answer(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (hdr)
		all_calls++;
	if (!hdr || !names_busy(hdr))
		return 0;
	busy_calls++;
	if (!busy_left)
		return 0;
	if (busy_left > 0)
		busy_left--;
	return EBUSY;
}

static void busy(uint32_t handle, int calls)
{
	busy_handle = handle;
	busy_left = calls;
	busy_calls = 0;
	all_calls = 0;
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc[3], *imp, *objs[3];
	uint8_t blob[3][E2E_BLOB_MAX], copy[E2E_BLOB_MAX];
	void *list[3] = { blob[0], blob[1], blob[2] };
	struct ibv_context *ctx;
	int errs[3], i;
	uint8_t out[PRM_QUERY_FC_OUT_LEN];
	uint32_t id[3];
	bool file_ids;

	e2e_init(argc, argv, NAME);
	ctx = e2e_open(0);
	file_ids = file_id_expected(ctx->cmd_fd);
	for (i = 0; i < 3; i++) {
		fc[i] = fc_alloc(ctx, &id[i]);
		REQUIRE(fc[i]);
		e2e_export(fc[i], blob[i]);
	}

	/* Busy for fewer calls than the retries: the import succeeds. */
	busy(e2e_blob_handle(blob[1]), UVERBS_BUSY_RETRIES);
	imp = mlx5dv_devx_obj_import(ctx, blob[1]);
	CHECK(imp != NULL);
	CHECK_EQ(busy_calls, file_ids ? 0 : UVERBS_BUSY_RETRIES + 1);
	if (file_ids)
		CHECK_EQ(all_calls, 0);
	mlx5dv_devx_obj_unimport(imp);

	/*
	 * Busy for longer: without the file id EBUSY after the last retry,
	 * nothing changed; with it, nothing to be busy about.
	 */
	busy(e2e_blob_handle(blob[1]), -1);
	errno = 0;
	imp = mlx5dv_devx_obj_import(ctx, blob[1]);
	if (file_ids) {
		CHECK(imp != NULL);
		CHECK_EQ(busy_calls, 0);
		mlx5dv_devx_obj_unimport(imp);
	} else {
		CHECK(imp == NULL && errno == EBUSY);
		CHECK_EQ(busy_calls, UVERBS_BUSY_RETRIES + 1);
	}
	busy(UINT32_MAX, 0);
	CHECK_EQ(fc_query(fc[1], id[1], out), 0);

	/* Export asks the kernel nothing (the context's ids are known). */
	busy(e2e_blob_handle(blob[1]), -1);
	memset(copy, 0xa5, sizeof(copy));
	CHECK_EQ(mlx5dv_devx_obj_export(fc[1], copy), 0);
	CHECK_EQ(all_calls, 0);
	CHECK_EQ(busy_calls, 0);

	/* A batch: only the busy object's blob fails, with EBUSY. */
	busy(e2e_blob_handle(blob[1]), -1);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, list, 3, objs, errs),
		 file_ids ? 3 : 2);
	CHECK_EQ(errs[0], 0);
	CHECK_EQ(errs[1], file_ids ? 0 : EBUSY);
	CHECK_EQ(errs[2], 0);
	CHECK_EQ(objs[1] == NULL, !file_ids);
	CHECK_EQ(busy_calls, file_ids ? 0 : UVERBS_BUSY_RETRIES + 1);
	if (file_ids)
		CHECK_EQ(all_calls, 0);
	for (i = 0; i < 3; i++)
		if (objs[i])
			mlx5dv_devx_obj_unimport(objs[i]);

	/* No longer busy: all import, and every object works. */
	busy(UINT32_MAX, 0);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, list, 3, objs, errs), 3);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(fc_query(objs[i], id[i], out), 0);
		mlx5dv_devx_obj_unimport(objs[i]);
		CHECK_EQ(mlx5dv_devx_obj_destroy(fc[i]), 0);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
