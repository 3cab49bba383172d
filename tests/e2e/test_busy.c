// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * EBUSY from the kernel (issue 20 item 5, the library's part): a call
 * that takes an object shared fails with EBUSY while another holds it
 * exclusive (rdma_core.c, uverbs_try_lock_object(): an owner's destroy
 * in progress; a DEVX modify holds it shared).  Import and export ask again
 * UVERBS_BUSY_RETRIES times after a short sleep, then fail with EBUSY,
 * leaving every object as it was.  A batch whose chunk meets EBUSY asks
 * per handle, so only the busy object's blob fails.
 *
 * The kernel's EBUSY is injected here: this program's ioctl()
 * (ioctl_watch.c) asks ioctl_answer(), which answers EBUSY for the calls
 * that name the "busy" handle (the DEVX handle query, or without it the
 * DEVX object query) while busy_left lasts, handing every other call on.
 * Registered with the handle query and without it.
 */
#include <errno.h>
#include <string.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "ioctl_watch.h"
#include "query_handles_probe.h"
#include "uverbs_ioctl.h"

#define NAME "e2e_busy"

static uint32_t busy_handle = UINT32_MAX;
static int busy_left;		/* calls still to fail; -1: all */
static int busy_calls;		/* calls that named the busy handle */

/* Does this RDMA_VERBS_IOCTL take busy_handle shared? */
static bool names_busy(const struct ib_uverbs_ioctl_hdr *hdr)
{
	const struct ib_uverbs_attr *a = hdr->attrs;
	uint32_t h[8];
	unsigned int i, j, n;

	for (i = 0; i < hdr->num_attrs; i++) {
		if (hdr->object_id == MLX5_IB_OBJECT_DEVX &&
		    hdr->method_id == MLX5_IB_METHOD_DEVX_QUERY_HANDLES &&
		    a[i].attr_id == MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN) {
			const uint32_t *p = a[i].len <= 8 ?
				(const uint32_t *)&a[i].data :
				(const uint32_t *)(uintptr_t)a[i].data;

			n = a[i].len / 4;
			for (j = 0; j < n; j++) {
				memcpy(h, p + j, 4);
				if (h[0] == busy_handle)
					return true;
			}
		}
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
	bool method;

	e2e_init(argc, argv, NAME);
	ctx = e2e_open(0);
	method = query_handles_present(ctx->cmd_fd);
	for (i = 0; i < 3; i++) {
		fc[i] = fc_alloc(ctx, &id[i]);
		REQUIRE(fc[i]);
		e2e_export(fc[i], blob[i]);
	}

	/* Busy for fewer calls than the retries: the import succeeds. */
	busy(e2e_blob_handle(blob[1]), UVERBS_BUSY_RETRIES);
	imp = mlx5dv_devx_obj_import(ctx, blob[1]);
	CHECK(imp != NULL);
	CHECK_EQ(busy_calls, UVERBS_BUSY_RETRIES + 1);
	mlx5dv_devx_obj_unimport(imp);

	/* Busy for longer: EBUSY after the last retry, nothing changed. */
	busy(e2e_blob_handle(blob[1]), -1);
	errno = 0;
	imp = mlx5dv_devx_obj_import(ctx, blob[1]);
	CHECK(imp == NULL && errno == EBUSY);
	CHECK_EQ(busy_calls, UVERBS_BUSY_RETRIES + 1);
	busy(UINT32_MAX, 0);
	CHECK_EQ(fc_query(fc[1], id[1], out), 0);

	/* Export asks the handle query too: EBUSY, the blob untouched. */
	if (method) {
		busy(e2e_blob_handle(blob[1]), -1);
		memset(copy, 0xa5, sizeof(copy));
		CHECK_EQ(mlx5dv_devx_obj_export(fc[1], copy), EBUSY);
		CHECK_EQ(errno, EBUSY);
		CHECK_EQ(copy[0], 0xa5);
		CHECK_EQ(copy[E2E_BLOB_MAX - 1], 0xa5);
	}

	/* A batch: only the busy object's blob fails, with EBUSY. */
	busy(e2e_blob_handle(blob[1]), -1);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, list, 3, objs, errs), 2);
	CHECK_EQ(errs[0], 0);
	CHECK_EQ(errs[1], EBUSY);
	CHECK_EQ(errs[2], 0);
	CHECK(objs[1] == NULL);
	/* with the query: the chunk's call and the handle's, each retried */
	CHECK_EQ(busy_calls, (method ? 2 : 1) * (UVERBS_BUSY_RETRIES + 1));
	mlx5dv_devx_obj_unimport(objs[0]);
	mlx5dv_devx_obj_unimport(objs[2]);

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
