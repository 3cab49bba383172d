// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 1: export and import in the creating context.  The imported
 * object reaches the same firmware object as the original; unimport
 * leaves the original working; destroy through the original.
 */
#include <string.h>

#include "check.h"
#include "e2e.h"

#define NAME "e2e_same_context"

static void counter_case(struct ibv_context *ctx)
{
	uint8_t blob[E2E_BLOB_MAX], a[32], b[32];
	struct mlx5dv_devx_obj *obj, *imp;
	long live;
	uint32_t id;

	obj = fc_alloc(ctx, &id);
	REQUIRE(obj);
	live = e2e_live_devx_objs(ctx);
	e2e_export(obj, blob);
	CHECK_EQ(e2e_blob_object_id(blob), id);

	imp = mlx5dv_devx_obj_import(ctx, blob);
	REQUIRE(imp);
	CHECK(imp != obj);
	/* Import asks the kernel; it creates nothing there. */
	CHECK_EQ(e2e_live_devx_objs(ctx), live);

	CHECK_EQ(fc_query(obj, id, a), 0);
	CHECK_EQ(fc_query(imp, id, b), 0);
	CHECK(memcmp(a + 16, b + 16, 16) == 0);

	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(fc_query(obj, id, a), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
	CHECK_EQ(e2e_live_devx_objs(ctx), live - 1);
}

static void meter_case(struct ibv_context *ctx)
{
	uint8_t blob[E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *obj, *imp;
	bool active = false;
	uint32_t id;

	obj = meter_create(ctx, &id);
	if (!obj && e2e_on_hw())
		return;	/* not every NIC has the flow meter object */
	REQUIRE(obj);
	e2e_export(obj, blob);
	imp = mlx5dv_devx_obj_import(ctx, blob);
	REQUIRE(imp);

	/* A change made through one object is seen through the other. */
	CHECK_EQ(meter_set_active(imp, id, true), 0);
	CHECK_EQ(meter_query(obj, id, &active), 0);
	CHECK(active);
	CHECK_EQ(meter_set_active(obj, id, false), 0);
	CHECK_EQ(meter_query(imp, id, &active), 0);
	CHECK(!active);

	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(meter_query(obj, id, &active), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;

	ctx = e2e_start(argc, argv, NAME);
	counter_case(ctx);
	meter_case(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
