// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 3: stale blobs.  After destroy, the old blob reaches nothing
 * (e2e_check_gone(): refused with ENOENT, or, on a kernel with the verbs
 * file id, imported into an object whose first command fails); after a
 * new object of the same type (or of another type) is made, it still
 * reaches nothing rather than aliasing the new object.  Without the file
 * id the new object takes the old handle; with it, it never does.
 *
 * Handles are allocated lowest-free per ufile, and firmware ids may be
 * too, so to give the new object the old handle but another id, a second
 * context (another ufile on the same device) holds a fresh object while
 * the old one's id is free.
 */
#include "check.h"
#include "e2e.h"

#define NAME "e2e_stale"

typedef struct mlx5dv_devx_obj *(*create_fn)(struct ibv_context *,
					     uint32_t *);

static void stale_case(const char *what, struct ibv_context *ctx,
		       struct ibv_context *other, create_fn create)
{
	struct mlx5dv_devx_obj *old, *hold, *reuse;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];
	uint32_t id, hold_id, reuse_id;

	old = create(ctx, &id);
	if (!old && e2e_on_hw())
		return;
	REQUIRE(old);
	e2e_export(old, blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(old), 0);

	/* Destroyed: the handle is gone. */
	e2e_check_gone(ctx, blob);

	hold = create(other, &hold_id);
	REQUIRE(hold);
	reuse = create(ctx, &reuse_id);
	REQUIRE(reuse);
	e2e_export(reuse, nblob);
	if (e2e_file_ids(ctx)) {
		CHECK(e2e_blob_handle(nblob) != e2e_blob_handle(blob));
	} else {
		if (e2e_blob_handle(nblob) != e2e_blob_handle(blob))
			fprintf(stderr, "%s: handle %u not reused (got %u)\n",
				what, e2e_blob_handle(blob),
				e2e_blob_handle(nblob));
		CHECK_EQ(e2e_blob_handle(nblob), e2e_blob_handle(blob));
	}
	CHECK(reuse_id != id);

	/* Another object of the same type: the old blob reaches nothing. */
	e2e_check_gone(ctx, blob);
	/* The new object's own blob still imports. */
	{
		struct mlx5dv_devx_obj *imp = mlx5dv_devx_obj_import(ctx,
								     nblob);

		CHECK(imp != NULL);
		mlx5dv_devx_obj_unimport(imp);
	}

	CHECK_EQ(mlx5dv_devx_obj_destroy(reuse), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(hold), 0);
}

/* The old handle taken by an object of another type. */
static void other_type_case(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *fc, *meter;
	uint8_t blob[E2E_BLOB_MAX], mblob[E2E_BLOB_MAX];
	uint32_t id, meter_id;

	fc = e2e_fc_exported(ctx, &id, blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	meter = meter_create(ctx, &meter_id);
	if (!meter && e2e_on_hw())
		return;
	REQUIRE(meter);
	e2e_export(meter, mblob);
	if (e2e_file_ids(ctx))
		CHECK(e2e_blob_handle(mblob) != e2e_blob_handle(blob));
	else
		CHECK_EQ(e2e_blob_handle(mblob), e2e_blob_handle(blob));
	e2e_check_gone(ctx, blob);
	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx, *other;

	ctx = e2e_start(argc, argv, NAME);
	other = e2e_open(0);

	stale_case("flow counter", ctx, other, fc_alloc);
	stale_case("flow meter", ctx, other, meter_create);
	other_type_case(ctx);

	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
