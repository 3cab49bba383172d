// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_share_*: the sharing scenarios against rdma-core with the
 * series (upstream/patches), under mlx5-emu with two devices.
 *
 *   --query-handles=on   the kernel has UVERBS_METHOD_QUERY_HANDLE: a
 *                        record of an object that is gone, of another
 *                        command file, another device or another kind
 *                        fails with ENOENT;
 *   --query-handles=off  it has not: import checks nothing, as before
 *                        the series (a stale record imports).
 *
 * In both: import in the same context and in another process (this
 * program run again) that got the command fd over SCM_RIGHTS
 * (ibv_import_device()), the imported
 * object usable there; the export of an imported object is the same
 * bytes; a successful export or import leaves errno alone.
 *
 * Whether the kernel has the method is asked apart from the libraries,
 * with the ioctl itself: with "on" and a kernel (mlx5-emu) without it the
 * test skips; with "off" and a kernel with it, it fails.  Against
 * rdma-core without the series (upstream_unpatched_share) the "on" run
 * must fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "query_handle_probe.h"
#include "devx_objs.h"
#include "fdpass.h"

#define NAME "upstream_share"
#define REC_MAX 256
static bool checked;
static struct mlx5dv_export_sizes sizes;

static void obj_export(struct mlx5dv_devx_obj *obj, uint8_t *rec)
{
	int saved;

	memset(rec, 0xa5, REC_MAX);
	errno = saved = 4321;
	REQUIRE(mlx5dv_devx_obj_export(obj, rec) == 0);
	CHECK_EQ(errno, saved);
}

/* Imports rec into ctx: NULL when refused (errno is checked to be want). */
static struct mlx5dv_devx_obj *import_expect(struct ibv_context *ctx,
					     const uint8_t *rec, int want)
{
	struct mlx5dv_devx_obj *obj;
	uint8_t copy[REC_MAX];

	memcpy(copy, rec, REC_MAX);
	errno = 4321;
	obj = mlx5dv_devx_obj_import(ctx, copy);
	if (want) {
		CHECK(!obj);
		CHECK_EQ(obj ? 0 : errno, want);
		if (obj)
			mlx5dv_devx_obj_unimport(obj);
		return NULL;
	}
	CHECK(obj != NULL);
	if (obj)
		CHECK_EQ(errno, 4321);
	return obj;
}

/* A stale record's answer: ENOENT with the method, an import without. */
static void import_stale(struct ibv_context *ctx, const uint8_t *rec)
{
	struct mlx5dv_devx_obj *obj = import_expect(ctx, rec,
						    checked ? ENOENT : 0);

	if (obj)
		mlx5dv_devx_obj_unimport(obj);
}

static void same_context(struct ibv_context *ctx)
{
	uint8_t rec[REC_MAX], again[REC_MAX];
	struct mlx5dv_devx_obj *fc, *imp;
	uint32_t id;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	imp = import_expect(ctx, rec, 0);
	REQUIRE(imp);
	CHECK_EQ(fc_query_status(imp, id, NULL), 0);
	obj_export(imp, again);
	CHECK(!memcmp(rec, again, sizes.devx_obj_attrs_size));
	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

/* The child: imports the device and the counter, queries it, exits 0. */
static int child_import(int sock)
{
	struct mlx5dv_devx_obj *imp;
	struct ibv_context *ctx;
	uint8_t rec[REC_MAX];
	uint32_t id;
	int fd;

	if (fdpass_recv_exact(sock, &fd, rec, REC_MAX) ||
	    read(sock, &id, sizeof(id)) != sizeof(id))
		return 2;
	ctx = ibv_import_device(fd);
	if (!ctx)
		return 3;
	imp = mlx5dv_devx_obj_import(ctx, rec);
	if (!imp)
		return 4;
	if (fc_query_status(imp, id, NULL))
		return 5;
	mlx5dv_devx_obj_unimport(imp);
	/* Told the counter is gone: the stale record's answer. */
	if (write(sock, "q", 1) != 1 || read(sock, &id, 1) != 1)
		return 6;
	imp = mlx5dv_devx_obj_import(ctx, rec);
	if (checked ? (imp || errno != ENOENT) : !imp)
		return 7;
	if (imp)
		mlx5dv_devx_obj_unimport(imp);
	ibv_close_device(ctx);
	return 0;
}

static void two_process(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *fc;
	uint8_t rec[REC_MAX];
	int sv[2], status;
	uint32_t id;
	pid_t pid;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		char fd[16];

		/* A new program, as another process of the application. */
		close(sv[0]);
		snprintf(fd, sizeof(fd), "%d", sv[1]);
		execl("/proc/self/exe", "upstream_share", checked ?
		      "--query-handles=on" : "--query-handles=off", "--child",
		      fd, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	CHECK_EQ(fdpass_send(sv[0], ctx->cmd_fd, rec, REC_MAX), 0);
	CHECK(write(sv[0], &id, sizeof(id)) == sizeof(id));
	/* The child has imported and queried the counter. */
	CHECK(read(sv[0], &id, 1) == 1);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK(write(sv[0], "d", 1) == 1);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	close(sv[0]);
}

/* Destroyed, then its handle taken by a new counter of the same file. */
static void stale(struct ibv_context *ctx)
{
	uint8_t rec[REC_MAX], nrec[REC_MAX];
	struct mlx5dv_devx_obj *fc, *reuse, *imp;
	uint32_t id, nid;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	import_stale(ctx, rec);

	reuse = fc_alloc(ctx, &nid);
	REQUIRE(reuse);
	obj_export(reuse, nrec);
	/* The handle is the record's first field. */
	CHECK(!memcmp(rec, nrec, sizeof(uint32_t)));
	import_stale(ctx, rec);
	imp = import_expect(ctx, nrec, 0);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(reuse), 0);
}

/* A record of ctx given to another file (of the same or another device). */
static void other_file(struct ibv_context *ctx, struct ibv_context *other)
{
	struct mlx5dv_devx_obj *fc, *theirs;
	uint8_t rec[REC_MAX], trec[REC_MAX];
	uint32_t id, tid;

	fc = fc_alloc(ctx, &id);
	theirs = fc_alloc(other, &tid);
	REQUIRE(fc && theirs);
	obj_export(fc, rec);
	obj_export(theirs, trec);
	/* Whether or not the handle names an object there. */
	import_stale(other, rec);
	CHECK_EQ(mlx5dv_devx_obj_destroy(theirs), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

/* A UMEM's record given to the DEVX object import: another kind. */
static void other_kind(struct ibv_context *ctx)
{
	uint8_t urec[REC_MAX] = { 0 };
	struct mlx5dv_devx_umem *umem;
	void *buf;

	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, 0);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, urec) == 0);
	import_stale(ctx, urec);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);
}

/* UMEMs and VARs: a stale record. */
static void umem_var(struct ibv_context *ctx)
{
	struct mlx5dv_devx_umem *umem, *uimp;
	uint8_t rec[REC_MAX];
	struct mlx5dv_var *var, *vimp;
	void *buf;

	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, 0);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, rec) == 0);
	uimp = mlx5dv_devx_umem_import(ctx, rec);
	CHECK(uimp && uimp->umem_id == umem->umem_id);
	if (uimp)
		mlx5dv_devx_umem_unimport(uimp);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	uimp = mlx5dv_devx_umem_import(ctx, rec);
	if (checked)
		CHECK_EQ(uimp ? 0 : errno, ENOENT);
	else
		CHECK(uimp != NULL);
	if (uimp)
		mlx5dv_devx_umem_unimport(uimp);
	free(buf);

	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	REQUIRE(mlx5dv_var_export(var, rec) == 0);
	vimp = mlx5dv_var_import(ctx, rec);
	CHECK(vimp && vimp->page_id == var->page_id);
	if (vimp)
		mlx5dv_var_unimport(vimp);
	mlx5dv_free_var(var);
	vimp = mlx5dv_var_import(ctx, rec);
	if (checked)
		CHECK_EQ(vimp ? 0 : errno, ENOENT);
	else
		CHECK(vimp != NULL);
	if (vimp)
		mlx5dv_var_unimport(vimp);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx, *other, *dev1;
	bool has;

	if (argc < 2 || (strcmp(argv[1], "--query-handles=on") &&
			 strcmp(argv[1], "--query-handles=off"))) {
		fprintf(stderr, "usage: %s --query-handles=on|off\n", argv[0]);
		return 2;
	}
	checked = !strcmp(argv[1], "--query-handles=on");
	if (argc == 4 && !strcmp(argv[2], "--child"))
		return child_import(atoi(argv[3]));
	ctx = devx_open(NULL, 0);
	other = devx_open(NULL, 0);
	dev1 = devx_open(NULL, 1);
	if (!ctx || !other || !dev1)
		check_skip(NAME, "needs two mlx5 devices with DEVX");
	mlx5dv_get_export_sizes(&sizes);
	REQUIRE(sizes.devx_obj_attrs_size <= REC_MAX &&
		sizes.devx_umem_attrs_size <= REC_MAX &&
		sizes.var_attrs_size <= REC_MAX);

	has = query_handle_present(ctx->cmd_fd);
	if (checked && !has)
		check_skip(NAME, "no UVERBS_METHOD_QUERY_HANDLE in the kernel");
	CHECK_EQ(has, checked);

	same_context(ctx);
	two_process(ctx);
	stale(ctx);
	other_file(ctx, other);
	other_file(ctx, dev1);
	other_kind(ctx);
	umem_var(ctx);

	ibv_close_device(dev1);
	ibv_close_device(other);
	ibv_close_device(ctx);
	return check_done(NAME);
}
