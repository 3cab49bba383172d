// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 2: sharing between two processes.  The parent creates a flow
 * counter and a flow meter, exports them and sends its command fd
 * (SCM_RIGHTS) and the blobs to a freshly exec'ed child, which imports
 * the device with ibv_import_device() and then the objects.
 *   phase 1: the child queries and modifies, unimports; the parent sees
 *            the change and its objects still work;
 *   phase 2: the child destroys the meter through its imported object;
 *            the parent's query then fails, its blob reaches nothing
 *            (import refuses it, or, with the verbs file id, imports an
 *            object whose query fails), and the parent unimports its
 *            own (now dead) object and destroys the counter.
 */
#include <unistd.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"

#define NAME "e2e_two_process"

struct msg {
	char step;
	uint8_t fc_blob[E2E_BLOB_MAX];
	uint8_t meter_blob[E2E_BLOB_MAX];
};

static int child(void)
{
	struct e2e_pair p;
	int sock = e2e_sock(), fd = -1;
	struct ibv_context *ctx;
	uint8_t out[32];
	bool active = false;
	struct msg m;

	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);

	/* Phase 1: use, modify, unimport. */
	e2e_pair_import(ctx, &p, m.fc_blob, m.meter_blob);
	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);
	CHECK_EQ(meter_set_active(p.meter, p.meter_id, true), 0);
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	CHECK(active);
	mlx5dv_devx_obj_unimport(p.fc);
	mlx5dv_devx_obj_unimport(p.meter);
	e2e_send_step(sock, '1');

	/* Phase 2: destroy the meter through an imported object. */
	REQUIRE(e2e_wait_step(sock) == '2');
	p.meter = mlx5dv_devx_obj_import(ctx, m.meter_blob);
	REQUIRE(p.meter);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.meter), 0);
	e2e_check_gone(ctx, m.meter_blob);
	e2e_send_step(sock, '2');

	/* Closing our copy of the fd must not tear down the ufile. */
	REQUIRE(e2e_wait_step(sock) == '3');
	CHECK_EQ(ibv_close_device(ctx), 0);
	close(sock);
	return check_done(NAME " (child)");
}

int main(int argc, char **argv)
{
	struct e2e_pair p;
	struct ibv_context *ctx;
	bool active = true;
	uint8_t out[32];
	struct msg m = { .step = '0' };
	int sock;
	pid_t pid;

	ctx = e2e_start_roles(argc, argv, NAME, child);
	e2e_pair_make(ctx, &p, m.fc_blob, m.meter_blob);
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	CHECK(!active);

	pid = e2e_spawn("importer", &sock);
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);

	CHECK_EQ(e2e_wait_step(sock), '1');
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	CHECK(active);
	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);

	e2e_send_step(sock, '2');
	CHECK_EQ(e2e_wait_step(sock), '2');
	/* The child destroyed the meter: our handle is gone. */
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), ENOENT);
	e2e_check_gone(ctx, m.meter_blob);
	mlx5dv_devx_obj_unimport(p.meter);

	e2e_send_step(sock, '3');
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);

	/* The child closed its fd; ours keeps the ufile and the counter. */
	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
