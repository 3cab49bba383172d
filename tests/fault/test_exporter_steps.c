// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The exporter is killed (SIGKILL, no clean-up) at each step of the
 * hand-over: before it sent anything, after the command fd, halfway
 * through the blobs, and after the last blob.  The importer must see a
 * clean end of stream where the exporter stopped, never hang, and keep
 * what it received working:
 *
 *   nothing   no fd: nothing to import; the emulated kernel tore the
 *             exporter's ufile down, and the daemon serves a new context
 *   fd only   the ufile lives on in the importer's fd: all its objects
 *             are still listed by INFO_HANDLES, though no blob names them
 *   some      the blobs that arrived import and work
 *   all       every blob imports (singly and as a batch) and works
 *
 * The hand-over: one message with the fd and the object count, then one
 * message per blob.  alarm() turns a hang into a failure.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"

#define NAME "fault_exporter_steps"

enum { N_OBJS = 6, GUARD_SECONDS = 60 };

/* Exporter: sends `steps` messages of the hand-over, then dies. */
static int exporter(int steps)
{
	struct mlx5dv_devx_obj *objs[N_OBJS];
	uint8_t blob[E2E_BLOB_MAX];
	struct ibv_context *ctx;
	uint32_t count = N_OBJS, id;
	int i;

	ctx = e2e_open(0);
	for (i = 0; i < N_OBJS; i++) {
		objs[i] = fc_alloc(ctx, &id);
		REQUIRE(objs[i]);
	}
	for (i = 0; i < steps; i++) {
		if (i == 0) {
			REQUIRE(fdpass_send(e2e_sock(), ctx->cmd_fd, &count,
					    sizeof(count)) == 0);
			continue;
		}
		e2e_export(objs[i - 1], blob);
		REQUIRE(fdpass_send(e2e_sock(), -1, blob, E2E_BLOB_MAX) == 0);
	}
	kill(getpid(), SIGKILL);
	return 1;
}

/* The daemon still serves a fresh context after the exporter's death. */
static void check_daemon_serves(void)
{
	struct ibv_context *ctx = e2e_open(0);
	struct mlx5dv_devx_obj *fc;
	uint8_t out[32];
	uint32_t id;

	fc = fc_alloc(ctx, &id);
	CHECK(fc != NULL);
	if (fc) {
		CHECK_EQ(fc_query(fc, id, out), 0);
		CHECK_EQ(e2e_live_devx_objs(ctx), 1);
		CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	}
	CHECK_EQ(ibv_close_device(ctx), 0);
}

static void importer(int steps)
{
	static uint8_t blobs[N_OBJS][E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *objs[N_OBJS];
	void *ptrs[N_OBJS];
	int errs[N_OBJS], sock, fd = -1, got = 0, i;
	struct ibv_context *ctx;
	uint32_t count = 0;
	uint8_t out[32];
	ssize_t n;
	pid_t pid;
	char role[32];

	snprintf(role, sizeof(role), "exporter-%d", steps);
	pid = e2e_spawn(role, &sock);
	n = fdpass_recv(sock, &fd, &count, sizeof(count));
	if (steps == 0) {
		CHECK_EQ(n, 0);		/* end of stream, no fd */
		CHECK_EQ(fd, -1);
	} else {
		CHECK_EQ(n, sizeof(count));
		CHECK_EQ(count, N_OBJS);
		REQUIRE(fd >= 0);
	}
	while (steps && got < N_OBJS &&
	       fdpass_recv(sock, NULL, blobs[got], E2E_BLOB_MAX) ==
	       E2E_BLOB_MAX)
		got++;
	CHECK_EQ(got, steps ? steps - 1 : 0);
	CHECK_EQ(e2e_wait(pid), 128 + SIGKILL);
	close(sock);

	if (fd >= 0) {
		ctx = ibv_import_device(fd);
		REQUIRE(ctx);
		/* The exporter's objects outlive it in our fd. */
		CHECK_EQ(e2e_live_devx_objs(ctx), N_OBJS);
		for (i = 0; i < got; i++) {
			objs[i] = mlx5dv_devx_obj_import(ctx, blobs[i]);
			CHECK(objs[i] != NULL);
			if (objs[i])
				CHECK_EQ(fc_query(objs[i],
						  e2e_blob_object_id(blobs[i]),
						  out), 0);
			mlx5dv_devx_obj_unimport(objs[i]);
			ptrs[i] = blobs[i];
		}
		if (got) {
			CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, ptrs, got,
								 objs, errs),
				 got);
			for (i = 0; i < got; i++)
				mlx5dv_devx_obj_unimport(objs[i]);
		}
		CHECK_EQ(ibv_close_device(ctx), 0);
	}
	check_daemon_serves();
}

int main(int argc, char **argv)
{
	static const int steps[] = { 0, 1, 1 + N_OBJS / 2, 1 + N_OBJS };
	const char *role;
	size_t i;

	e2e_init(argc, argv, NAME);
	role = e2e_role();
	if (role && !strncmp(role, "exporter-", 9))
		return exporter(atoi(role + 9));
	alarm(GUARD_SECONDS);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		importer(steps[i]);
	return check_done(NAME);
}
