// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 6: the exporter is killed with SIGKILL right after it sent its
 * command fd and blobs.  The ufile lives on in the fd the importer holds:
 * the importer imports and uses every object.  When the importer closes
 * that last fd, the kernel (here mlx5-emu) tears the objects down.
 *
 * The witness of the teardown is the firmware itself: the exporter also
 * takes every flow counter the device has (in bulks of 2^14), so that
 * while its ufile lives nobody can allocate one, and after the last close
 * somebody can take as many again.  (Under mlx5-emu only: a real NIC has
 * too many counters to fill in a test.)
 */
#include <signal.h>
#include <unistd.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define NAME "e2e_exporter_killed"

#define MAX_BULKS 256

struct msg {
	uint8_t fc_blob[E2E_BLOB_MAX];
	uint8_t meter_blob[E2E_BLOB_MAX];
	int bulks;
};

/* Allocates flow counter bulks until the firmware refuses. */
static int take_bulks(struct ibv_context *ctx,
		      struct mlx5dv_devx_obj *got[MAX_BULKS])
{
	int n;

	for (n = 0; n < MAX_BULKS; n++) {
		uint8_t in[PRM_ALLOC_FC_IN_LEN] = { 0 };
		uint8_t out[PRM_HDR_LEN] = { 0 };

		prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
		prm_set(in, PRM_ALLOC_FC_BULK_LOG, 14);
		got[n] = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out,
						sizeof(out));
		if (!got[n])
			break;
	}
	return n;
}

/* How many bulks a fresh ufile can take; it gives them back on close. */
static int probe_bulks(void)
{
	struct mlx5dv_devx_obj *got[MAX_BULKS];
	struct ibv_context *ctx = e2e_open(0);
	int n, i;

	n = take_bulks(ctx, got);
	CHECK_EQ(ibv_close_device(ctx), 0);
	for (i = 0; i < n; i++)
		mlx5dv_devx_obj_unimport(got[i]);
	return n;
}

/* The exporter's objects, still referenced when it is killed. */
static struct mlx5dv_devx_obj *kept[2 + MAX_BULKS];

static int exporter(void)
{
	struct mlx5dv_devx_obj *fc, *meter;
	struct ibv_context *ctx;
	uint32_t fc_id, meter_id;
	struct msg m = { .bulks = 0 };

	ctx = e2e_open(0);
	fc = fc_alloc(ctx, &fc_id);
	REQUIRE(fc);
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter);
	kept[0] = fc;
	kept[1] = meter;
	e2e_export(fc, m.fc_blob);
	e2e_export(meter, m.meter_blob);
	if (!e2e_on_hw())
		m.bulks = take_bulks(ctx, kept + 2);
	REQUIRE(fdpass_send(e2e_sock(), ctx->cmd_fd, &m, sizeof(m)) == 0);
	/* Die without a chance to clean anything up. */
	kill(getpid(), SIGKILL);
	return 1;
}

int main(int argc, char **argv)
{
	struct e2e_pair p;
	struct ibv_context *ctx;
	bool active = false;
	uint8_t out[32];
	int sock, fd = -1;
	struct msg m;
	pid_t pid;

	e2e_init(argc, argv, NAME);
	if (e2e_role())
		return exporter();
	if (e2e_on_hw() && !e2e_meter_supported())
		check_skip(NAME, "this NIC has no flow p.meter object");

	pid = e2e_spawn("exporter", &sock);
	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	CHECK_EQ(e2e_wait(pid), 128 + SIGKILL);
	close(sock);

	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	e2e_pair_import(ctx, &p, m.fc_blob, m.meter_blob);
	CHECK_EQ(e2e_live_devx_objs(ctx), 2 + m.bulks);
	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);
	CHECK_EQ(meter_set_active(p.meter, p.meter_id, true), 0);
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	CHECK(active);
	if (!e2e_on_hw()) {
		CHECK(m.bulks > 0);
		CHECK_EQ(probe_bulks(), 0);
	}

	/* Last close: the objects must go with the ufile. */
	mlx5dv_devx_obj_unimport(p.fc);
	mlx5dv_devx_obj_unimport(p.meter);
	CHECK_EQ(ibv_close_device(ctx), 0);
	if (!e2e_on_hw())
		CHECK(probe_bulks() >= m.bulks);
	return check_done(NAME);
}
