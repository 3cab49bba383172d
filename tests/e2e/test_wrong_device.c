// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 5: a blob exported from one device and imported into a
 * context of another is refused with EXDEV, in both directions, and
 * leaves both devices' objects working.
 */
#include "check.h"
#include "e2e.h"

#define NAME "e2e_wrong_device"

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc0, *fc1;
	uint8_t blob0[E2E_BLOB_MAX], blob1[E2E_BLOB_MAX];
	struct ibv_context *ctx0, *ctx1;
	uint32_t id0, id1;

	e2e_init(argc, argv, NAME);
	if (e2e_num_devices() < 2) {
		if (e2e_on_hw())
			check_skip(NAME, "needs two mlx5 devices");
		REQUIRE(e2e_num_devices() >= 2);
	}
	ctx0 = e2e_open(0);
	ctx1 = e2e_open(1);

	fc0 = e2e_fc_exported(ctx0, &id0, blob0);
	fc1 = e2e_fc_exported(ctx1, &id1, blob1);

	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx1, blob0), EXDEV);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx0, blob1), EXDEV);

	/* Each still imports where it belongs. */
	e2e_check_fc_import(ctx0, blob0, id0);
	e2e_check_fc_import(ctx1, blob1, id1);

	CHECK_EQ(mlx5dv_devx_obj_destroy(fc0), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc1), 0);
	CHECK_EQ(ibv_close_device(ctx1), 0);
	CHECK_EQ(ibv_close_device(ctx0), 0);
	return check_done(NAME);
}
