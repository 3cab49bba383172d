// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_blob_compat: what the data one delivery exports gets from the
 * other.  The backport library writes a checked blob (magic "M5SX",
 * format, kind, length, checksum, ...: providers/mlx5/blob.h); the
 * rdma-core series writes libmlx5's own record (its struct's fields, a
 * flag in their padding and the verbs file's id, no header).  Neither
 * reads the other's:
 *
 *   backport blob -> series import: the series reads the blob as its
 *     record: either the byte where its flag would be says "file id" and
 *     the bytes read as one differ from the importing file's (EXDEV), or
 *     it returns an object made of the blob's bytes (as rdma-core does
 *     today), whose handle is the magic; on a kernel that reports the
 *     file id (series v3), that handle names nothing and a command
 *     through it fails.
 *   series record -> backport import: no magic, EINVAL.
 *
 * The sizes differ too (mlx5dv_get_export_sizes() of each), so processes
 * that share objects must use one delivery.  The same source is built
 * against the backport library (A: --peer B) and against rdma-core with
 * the series (B: --sock N, tests/upstream/against); A sends B its
 * command fd and a blob, B imports the fd (ibv_import_device), tries the
 * blob, exports a counter of its own and sends the record back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"
#include "file_id_probe.h"

#define NAME "upstream_blob_compat"

struct msg {
	uint32_t id;
	uint8_t blob[E2E_BLOB_MAX];
};

/* B, on rdma-core with the series. */
static int peer(int sock)
{
	struct mlx5dv_devx_obj *own, *imp;
	struct ibv_context *ctx;
	struct msg m, back;
	int fd = -1;

	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);

	imp = mlx5dv_devx_obj_import(ctx, m.blob);
	if (!imp) {
		printf("%s: the series refused the backport's blob as "
		       "another file's record\n", NAME);
		CHECK_EQ(errno, EXDEV);
	} else {
		uint8_t again[E2E_BLOB_MAX];

		printf("%s: the series imported the backport's blob "
		       "unchecked\n", NAME);
		/* Its handle, the record's first field, is the magic. */
		REQUIRE(mlx5dv_devx_obj_export(imp, again) == 0);
		CHECK(!memcmp(again, "M5SX", 4));
		if (file_id_of(ctx->cmd_fd))
			CHECK(fc_query_status(imp, m.id, NULL) != 0);
		mlx5dv_devx_obj_unimport(imp);
	}

	memset(&back, 0, sizeof(back));
	own = fc_alloc(ctx, &back.id);
	REQUIRE(own);
	REQUIRE(mlx5dv_devx_obj_export(own, back.blob) == 0);
	REQUIRE(fdpass_send(sock, -1, &back, sizeof(back)) == 0);
	/* Until A has tried the record. */
	REQUIRE(fdpass_recv(sock, NULL, &m, sizeof(m)) == sizeof(m));
	CHECK_EQ(mlx5dv_devx_obj_destroy(own), 0);
	ibv_close_device(ctx);
	return check_done(NAME " (series side)");
}

int main(int argc, char **argv)
{
	const char *peer_args[2] = { NULL, NULL };
	struct mlx5dv_devx_obj *fc;
	struct ibv_context *ctx;
	struct msg m, back;
	int sock, status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--sock"))
		return peer(atoi(argv[2]));
	if (argc != 3 || strcmp(argv[1], "--peer")) {
		fprintf(stderr, "usage: %s --peer PROGRAM\n", argv[0]);
		return 2;
	}
	e2e_init(1, argv, NAME);

	ctx = e2e_open(0);
	memset(&m, 0, sizeof(m));
	fc = fc_alloc(ctx, &m.id);
	REQUIRE(fc);
	e2e_export(fc, m.blob);
	REQUIRE(!memcmp(m.blob, "M5SX", 4));

	peer_args[0] = argv[2];
	pid = e2e_spawn_program(argv[2], peer_args, &sock);
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);
	REQUIRE(fdpass_recv(sock, NULL, &back, sizeof(back)) ==
		sizeof(back));
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, back.blob), EINVAL);
	REQUIRE(fdpass_send(sock, -1, &m, sizeof(m)) == 0);

	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	ibv_close_device(ctx);
	return check_done(NAME);
}
