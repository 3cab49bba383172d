// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The importer is killed (SIGKILL) while it holds imported objects, in
 * the middle of using them.  Its copies were local memory only, so the
 * exporter's objects must stay intact and usable: each still answers its
 * query, a flow meter still takes a modify, INFO_HANDLES still lists
 * them all, they export and import again, and destroy works.  A second
 * importer started afterwards gets the same objects.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"

#define NAME "fault_importer_killed"

enum { N_FC = 4, GUARD_SECONDS = 60 };

struct handover {
	uint32_t n;
	uint8_t blobs[N_FC + 1][E2E_BLOB_MAX];
};

/*
 * Importer: imports every object, queries each, says "ready", then keeps
 * querying until it is killed (or exits 0 when told "done" instead).
 */
static int importer(void)
{
	struct mlx5dv_devx_obj *objs[N_FC + 1];
	static struct handover h;
	struct ibv_context *ctx;
	uint8_t out[32];
	char c = 'r';
	int fd = -1;
	uint32_t i;

	REQUIRE(fdpass_recv(e2e_sock(), &fd, &h, sizeof(h)) == sizeof(h));
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	for (i = 0; i < h.n; i++) {
		objs[i] = mlx5dv_devx_obj_import(ctx, h.blobs[i]);
		REQUIRE(objs[i]);
	}
	REQUIRE(write(e2e_sock(), &c, 1) == 1);
	for (;;)
		for (i = 0; i < N_FC; i++)
			REQUIRE(fc_query(objs[i],
					 e2e_blob_object_id(h.blobs[i]),
					 out) == 0);
}

static void check_intact(struct ibv_context *ctx,
			 struct mlx5dv_devx_obj **fcs, const uint32_t *ids,
			 struct mlx5dv_devx_obj *meter, uint32_t meter_id)
{
	uint8_t out[32], blob[E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *again;
	bool active = false;
	int i;

	CHECK_EQ(e2e_live_devx_objs(ctx), N_FC + !!meter);
	for (i = 0; i < N_FC; i++) {
		CHECK_EQ(fc_query(fcs[i], ids[i], out), 0);
		e2e_export(fcs[i], blob);
		again = mlx5dv_devx_obj_import(ctx, blob);
		CHECK(again != NULL);
		if (again)
			CHECK_EQ(fc_query(again, ids[i], out), 0);
		mlx5dv_devx_obj_unimport(again);
	}
	if (meter) {
		CHECK_EQ(meter_set_active(meter, meter_id, true), 0);
		CHECK_EQ(meter_query(meter, meter_id, &active), 0);
		CHECK(active);
		CHECK_EQ(meter_set_active(meter, meter_id, false), 0);
	}
}

/* Hands the objects to a new importer; kills it once it holds them. */
static void round_with_kill(struct ibv_context *ctx, struct handover *h)
{
	int sock;
	pid_t pid;
	char c = 0;

	pid = e2e_spawn("importer", &sock);
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, h, sizeof(*h)) == 0);
	CHECK_EQ(read(sock, &c, 1), 1);
	CHECK_EQ(c, 'r');
	/* Let it run queries on the shared objects, then kill it. */
	usleep(20000);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(e2e_wait(pid), 128 + SIGKILL);
	close(sock);
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fcs[N_FC], *meter = NULL;
	static struct handover h;
	struct ibv_context *ctx;
	uint32_t ids[N_FC], meter_id = 0;
	int i;

	e2e_init(argc, argv, NAME);
	if (e2e_role())
		return importer();
	alarm(GUARD_SECONDS);

	ctx = e2e_open(0);
	for (i = 0; i < N_FC; i++) {
		fcs[i] = fc_alloc(ctx, &ids[i]);
		REQUIRE(fcs[i]);
		e2e_export(fcs[i], h.blobs[i]);
	}
	h.n = N_FC;
	meter = meter_create(ctx, &meter_id);
	if (meter)
		e2e_export(meter, h.blobs[h.n++]);

	round_with_kill(ctx, &h);
	check_intact(ctx, fcs, ids, meter, meter_id);
	/* And again: a second importer, also killed. */
	round_with_kill(ctx, &h);
	check_intact(ctx, fcs, ids, meter, meter_id);

	if (meter)
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	for (i = 0; i < N_FC; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(fcs[i]), 0);
	CHECK_EQ(e2e_live_devx_objs(ctx), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
