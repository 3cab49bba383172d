// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 4: a process that opens the device on its own (its own ufile,
 * not the exporter's passed fd) imports the exporter's blobs.  The
 * handles mean nothing in its ufile: refused with ENOENT, both when the
 * handle is free there and when it names one of its own objects of the
 * same type (told apart by the object id the kernel confirms).
 */
#include <unistd.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"

#define NAME "e2e_wrong_ufile"

struct msg {
	uint8_t fc_blob[E2E_BLOB_MAX];
	uint8_t meter_blob[E2E_BLOB_MAX];
};

static int stranger(void)
{
	struct mlx5dv_devx_obj *fc, *meter;
	struct ibv_context *ctx;
	uint8_t blob[E2E_BLOB_MAX];
	uint32_t fc_id, meter_id;
	struct msg m;

	REQUIRE(fdpass_recv(e2e_sock(), NULL, &m, sizeof(m)) == sizeof(m));
	ctx = e2e_open(0);

	/* Nothing of ours at those handles yet. */
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.fc_blob), ENOENT);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.meter_blob), ENOENT);

	/* Our own objects, at the same handles as the exporter's. */
	fc = e2e_fc_exported(ctx, &fc_id, blob);
	CHECK_EQ(e2e_blob_handle(blob), e2e_blob_handle(m.fc_blob));
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter);
	e2e_export(meter, blob);
	CHECK_EQ(e2e_blob_handle(blob), e2e_blob_handle(m.meter_blob));

	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.fc_blob), ENOENT);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.meter_blob), ENOENT);

	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME " (stranger)");
}

int main(int argc, char **argv)
{
	struct e2e_pair p;
	struct ibv_context *ctx;
	uint8_t out[32];
	bool active;
	struct msg m;
	int sock;
	pid_t pid;

	ctx = e2e_start_roles(argc, argv, NAME, stranger);
	e2e_pair_make(ctx, &p, m.fc_blob, m.meter_blob);

	pid = e2e_spawn("stranger", &sock);
	REQUIRE(fdpass_send(sock, -1, &m, sizeof(m)) == 0);
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);

	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
