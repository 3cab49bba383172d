// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_blob_compat: a blob written by one implementation of the
 * export API is read by the other.  The same source is built against the
 * backport library (libmlx5-share on the system's rdma-core) and against
 * patched rdma-core (tests/upstream/against), and one runs the other:
 *
 *   A --peer B     A opens device 0, allocates a flow counter, exports
 *                  it and sends B its command fd, the blob and the id;
 *   B --sock N     B imports the fd (ibv_import_device), imports the blob
 *                  and queries the counter through it, then allocates a
 *                  counter of its own in the shared context, exports it
 *                  and sends the blob and id back; A imports and queries
 *                  that one.  A destroyed counter's blob is refused on
 *                  both sides with ENOENT.
 *
 * Each side also exports the object it imported: the bytes must be the
 * ones it received, serial included (format 3: patched rdma-core keeps
 * the serial the create method gave and carries it through import; the
 * backport library asks the kernel's DEVX handle query at export), so
 * one object has one blob whichever library wrote it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "fdpass.h"

struct msg {
	uint32_t id;
	uint8_t blob[E2E_BLOB_MAX];
};

/*
 * Imports blob into ctx, reads the counter through the import and
 * exports the import again: the same bytes.
 */
static void import_and_query(struct ibv_context *ctx, const struct msg *m,
			     const char *who)
{
	uint8_t again[E2E_BLOB_MAX] = { 0 };
	struct mlx5dv_devx_obj *obj;
	uint8_t out[32];

	obj = mlx5dv_devx_obj_import(ctx, (void *)m->blob);
	if (!obj)
		fprintf(stderr, "%s: import failed: %s\n", who,
			strerror(errno));
	REQUIRE(obj);
	CHECK_EQ(fc_query(obj, m->id, out), 0);
	e2e_export(obj, again);
	CHECK_EQ(memcmp(again, m->blob, BLOB_DEVX_OBJ_SIZE), 0);
	mlx5dv_devx_obj_unimport(obj);
}

static int peer(int sock)
{
	struct mlx5dv_devx_obj *own;
	struct ibv_context *ctx;
	struct msg m, back;
	int fd = -1;

	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	import_and_query(ctx, &m, "peer");

	own = fc_alloc(ctx, &back.id);
	REQUIRE(own);
	e2e_export(own, back.blob);
	REQUIRE(fdpass_send(sock, -1, &back, sizeof(back)) == 0);
	/* Wait until the first side has imported it, then destroy it. */
	REQUIRE(fdpass_recv(sock, NULL, &m, sizeof(m)) == sizeof(m));
	CHECK_EQ(mlx5dv_devx_obj_destroy(own), 0);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, back.blob), ENOENT);
	REQUIRE(fdpass_send(sock, -1, &back, sizeof(back)) == 0);
	ibv_close_device(ctx);
	return check_done("upstream_blob_compat peer");
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc;
	struct ibv_context *ctx;
	struct msg m, back;
	const char *peer_args[2] = { NULL, NULL };
	int sock, status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--sock"))
		return peer(atoi(argv[2]));
	if (argc != 3 || strcmp(argv[1], "--peer")) {
		fprintf(stderr, "usage: %s --peer PROGRAM\n", argv[0]);
		return 2;
	}
	e2e_init(1, argv, "upstream_blob_compat");

	ctx = e2e_open(0);
	fc = fc_alloc(ctx, &m.id);
	REQUIRE(fc);
	e2e_export(fc, m.blob);

	peer_args[0] = argv[2];
	pid = e2e_spawn_program(argv[2], peer_args, &sock);

	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);
	REQUIRE(fdpass_recv(sock, NULL, &back, sizeof(back)) ==
		sizeof(back));
	import_and_query(ctx, &back, "first");
	REQUIRE(fdpass_send(sock, -1, &m, sizeof(m)) == 0);
	REQUIRE(fdpass_recv(sock, NULL, &back, sizeof(back)) ==
		sizeof(back));
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, back.blob), ENOENT);

	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	ibv_close_device(ctx);
	return check_done("upstream_blob_compat");
}
