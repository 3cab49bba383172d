// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_vhca_failure (mlx5-emu run --devices 2 --same-guid): the
 * vhca_id query failing for a reason other than a refusal fails the
 * export or the import with its errno, writes nothing, keeps nothing,
 * and the next call asks again; no blob crosses to the other function of
 * the same node GUID.  A refusal (EINVAL) binds by node GUID alone, and
 * the export that met it succeeds with errno as it was.
 *
 * The failure is injected here: this program's ioctl() (ioctl_watch.c)
 * takes the place of libc's (and of mlx5-emu's preload, which it calls
 * on), and its ioctl_answer() fails the next DEVX general command that is
 * a QUERY_HCA_CAP of the general capabilities with the errno asked for.
 */
#include <errno.h>
#include <string.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "ioctl_watch.h"

#define NAME "upstream_vhca_failure"

/* The errno the next general capabilities query fails with, or 0. */
static int inject;

static bool is_vhca_query(const struct ib_uverbs_ioctl_hdr *hdr)
{
	const uint8_t *in;
	unsigned int i;

	if (!hdr || hdr->object_id != MLX5_IB_OBJECT_DEVX ||
	    hdr->method_id != MLX5_IB_METHOD_DEVX_OTHER)
		return false;
	for (i = 0; i < hdr->num_attrs; i++) {
		if (hdr->attrs[i].attr_id != MLX5_IB_ATTR_DEVX_OTHER_CMD_IN ||
		    hdr->attrs[i].len < 8)
			continue;
		in = (const uint8_t *)(uintptr_t)hdr->attrs[i].data;
		/* opcode QUERY_HCA_CAP, op_mod general device, current */
		return in[0] == 0x01 && in[1] == 0x00 && in[6] == 0x00 &&
		       in[7] == 0x01;
	}
	return false;
}

int ioctl_answer(const struct ib_uverbs_ioctl_hdr *hdr)
{
	int err = 0;

	if (inject && is_vhca_query(hdr)) {
		err = inject;
		inject = 0;
	}
	return err;
}

static const int transient[] = { EMFILE, ENOMEM, EAGAIN, EINTR, EIO };

static bool untouched(const uint8_t *blob)
{
	size_t i;

	for (i = 0; i < E2E_BLOB_MAX; i++)
		if (blob[i] != 0xa5)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc0, *fc1, *fc2, *imp;
	uint8_t blob0[E2E_BLOB_MAX], blob1[E2E_BLOB_MAX];
	struct ibv_context *ctx0, *ctx1, *ctx2;
	uint32_t id0, id1, id2;
	struct blob b;
	size_t i;

	e2e_init(argc, argv, NAME);
	if (e2e_num_devices() < 2)
		check_skip(NAME, "needs two mlx5 devices");
	ctx0 = e2e_open(0);
	ctx1 = e2e_open(1);
	if (ibv_get_device_guid(ctx0->device) !=
	    ibv_get_device_guid(ctx1->device))
		check_skip(NAME, "the two devices have distinct node GUIDs "
			   "(run under mlx5-emu run --same-guid)");
	fc0 = fc_alloc(ctx0, &id0);
	fc1 = fc_alloc(ctx1, &id1);
	REQUIRE(fc0 && fc1);

	/* Export: each failure is the export's, and nothing is written. */
	for (i = 0; i < sizeof(transient) / sizeof(transient[0]); i++) {
		memset(blob0, 0xa5, sizeof(blob0));
		inject = transient[i];
		CHECK_EQ(mlx5dv_devx_obj_export(fc0, blob0), transient[i]);
		CHECK_EQ(inject, 0);	/* the export asked */
		CHECK(untouched(blob0));
	}
	/* Nothing was kept: asked again, the device answers. */
	CHECK_EQ(mlx5dv_devx_obj_export(fc0, blob0), 0);
	REQUIRE(blob_decode(blob0, BLOB_MAX_SIZE, BLOB_KIND_DEVX_OBJ,
			    &b) == 0);
	CHECK(b.has_vhca_id);

	/* Import on the other function: each failure is the import's. */
	for (i = 0; i < sizeof(transient) / sizeof(transient[0]); i++) {
		inject = transient[i];
		errno = 0;
		imp = mlx5dv_devx_obj_import(ctx1, blob0);
		CHECK(!imp);
		CHECK_EQ(errno, transient[i]);
		CHECK_EQ(inject, 0);
		if (imp)
			mlx5dv_devx_obj_unimport(imp);
	}
	/* Then the binding holds: another function's blob. */
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx1, blob0), EXDEV);
	/* And each side's own blob still imports. */
	CHECK_EQ(mlx5dv_devx_obj_export(fc1, blob1), 0);
	imp = mlx5dv_devx_obj_import(ctx1, blob1);
	CHECK(imp != NULL);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);

	/* A fresh context of function 0 whose device refuses the query. */
	ctx2 = e2e_open(0);
	fc2 = fc_alloc(ctx2, &id2);
	REQUIRE(fc2);
	inject = EINVAL;
	errno = EDOM;
	CHECK_EQ(mlx5dv_devx_obj_export(fc2, blob1), 0);
	CHECK_EQ(errno, EDOM);
	CHECK_EQ(inject, 0);
	REQUIRE(blob_decode(blob1, BLOB_MAX_SIZE, BLOB_KIND_DEVX_OBJ,
			    &b) == 0);
	CHECK(!b.has_vhca_id);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc2), 0);
	CHECK_EQ(ibv_close_device(ctx2), 0);

	CHECK_EQ(mlx5dv_devx_obj_destroy(fc0), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc1), 0);
	CHECK_EQ(ibv_close_device(ctx0), 0);
	CHECK_EQ(ibv_close_device(ctx1), 0);
	return check_done(NAME);
}
