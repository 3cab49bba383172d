// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_share_*: the sharing scenarios against rdma-core with the
 * series (upstream/patches), under mlx5-emu with two devices (or on the
 * real kernel in the VM, tests/vm/cx).
 *
 *   --handles=unique       a kernel with series v3: a file never gives a
 *                          handle number twice and QUERY_CONTEXT reports
 *                          the file's id.  mlx5dv_query_device() reports
 *                          MLX5DV_CONTEXT_FLAGS_DEVX_OBJ_IMPORT_FILE; a
 *                          DEVX object's data imported in a context of
 *                          another file fails with EXDEV; the import of a
 *                          destroyed object succeeds (no kernel call) and
 *                          every command through it fails, also once the
 *                          creator made a new object of the same kind
 *                          (DEVX object, UMEM, VAR), which survives;
 *   --handles=lowest-free  every released kernel: no flag, nothing
 *                          checked, as before the series (another file's
 *                          data imports; a new object takes a destroyed
 *                          one's handle).
 *
 * In both: import in the same context and in another process (this
 * program run again) that got the command fd over SCM_RIGHTS
 * (ibv_import_device()); the export of an imported object is the same
 * bytes; a successful export or import leaves errno alone; and the data
 * libmlx5 63 and 64 exported (their layout below) ending right before an
 * unmapped page imports, unchecked, without a read past its end.
 *
 * Whether the kernel reports the file's id is asked apart from the
 * libraries (file_id_probe.h): with "unique" and a kernel without it the
 * test skips; with "lowest-free" and a kernel with it, it fails.  Against
 * rdma-core without the series (upstream_unpatched_share) the "unique"
 * run must fail.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "file_id_probe.h"
#include "devx_objs.h"
#include "fdpass.h"

#ifndef HAVE_MLX5DV_CONTEXT_FLAGS_DEVX_OBJ_IMPORT_FILE
/* rdma-core without the series: the flag is never reported */
#define MLX5DV_CONTEXT_FLAGS_DEVX_OBJ_IMPORT_FILE 0
#endif

#define NAME "upstream_share"
#define REC_MAX 256
static bool unique;
static struct mlx5dv_export_sizes sizes;

/*
 * What libmlx5 63 and 64 export (their struct mlx5dv_devx_obj_attrs,
 * mlx5dv_devx_umem_attrs, mlx5dv_var_attrs in providers/mlx5/mlx5.h):
 * the fields, the padding zeroed.
 */
struct v64_obj_rec {
	uint32_t handle;
	uint32_t type;
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
};

struct v64_umem_rec {
	uint32_t handle;
	uint32_t umem_id;
};

struct v64_var_rec {
	uint32_t handle;
	uint32_t page_id;
	uint32_t length;
	off_t mmap_off;
};

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

/* The kernel's answer to a command through a handle that names nothing. */
static void check_no_object(int err)
{
	CHECK(err == ENOENT || err == EINVAL);
}

static void context_flag(struct ibv_context *ctx)
{
	struct mlx5dv_context attrs = {};

	REQUIRE(mlx5dv_query_device(ctx, &attrs) == 0);
	CHECK_EQ(!!(attrs.flags & MLX5DV_CONTEXT_FLAGS_DEVX_OBJ_IMPORT_FILE),
		 unique);
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

/*
 * The child: imports the device and the counter, queries it; told the
 * counter is destroyed, imports the data again (no kernel call, so it
 * succeeds) and a query through it must fail.  Exits 0 when all held.
 */
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
	if (write(sock, "q", 1) != 1 || read(sock, &id, 1) != 1)
		return 6;
	imp = mlx5dv_devx_obj_import(ctx, rec);
	if (!imp)
		return 7;
	if (!fc_query_status(imp, id, NULL))
		return 8;
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
		execl("/proc/self/exe", "upstream_share", unique ?
		      "--handles=unique" : "--handles=lowest-free", "--child",
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

/*
 * Destroyed, then a new counter of the same file: on a series v3 kernel
 * under another handle, which the stale import's destroy cannot reach;
 * on a released kernel under the same handle (what stays open there).
 */
static void reuse(struct ibv_context *ctx)
{
	uint8_t rec[REC_MAX], nrec[REC_MAX];
	struct mlx5dv_devx_obj *fc, *fresh, *imp;
	uint32_t id, nid;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	fresh = fc_alloc(ctx, &nid);
	REQUIRE(fresh);
	obj_export(fresh, nrec);
	/* The handle is the data's first field. */
	CHECK_EQ(!memcmp(rec, nrec, sizeof(uint32_t)), !unique);
	imp = import_expect(ctx, rec, 0);
	REQUIRE(imp);
	if (unique) {
		check_no_object(mlx5dv_devx_obj_destroy(imp));
		mlx5dv_devx_obj_unimport(imp);
		CHECK_EQ(fc_query_status(fresh, nid, NULL), 0);
	} else {
		mlx5dv_devx_obj_unimport(imp);
	}
	CHECK_EQ(mlx5dv_devx_obj_destroy(fresh), 0);
}

/* A DEVX object's data given to another file (same or another device). */
static void other_file(struct ibv_context *ctx, struct ibv_context *other)
{
	struct mlx5dv_devx_obj *fc, *imp;
	uint8_t rec[REC_MAX];
	uint32_t id;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	imp = import_expect(other, rec, unique ? EXDEV : 0);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

/* UMEMs and VARs: destroyed, then a new one; data carry no file id. */
static void umem_var(struct ibv_context *ctx)
{
	struct mlx5dv_devx_umem *umem, *fresh, *uimp;
	struct mlx5dv_var *var, *nvar, *vimp;
	uint8_t rec[REC_MAX], nrec[REC_MAX];
	void *buf, *map;

	REQUIRE(posix_memalign(&buf, 4096, 8192) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, 0);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, rec) == 0);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	fresh = mlx5dv_devx_umem_reg(ctx, (uint8_t *)buf + 4096, 4096, 0);
	REQUIRE(fresh);
	REQUIRE(mlx5dv_devx_umem_export(fresh, nrec) == 0);
	CHECK_EQ(!memcmp(rec, nrec, sizeof(uint32_t)), !unique);
	uimp = mlx5dv_devx_umem_import(ctx, rec);
	REQUIRE(uimp);
	if (unique)
		check_no_object(mlx5dv_devx_umem_dereg(uimp));
	mlx5dv_devx_umem_unimport(uimp);
	CHECK_EQ(mlx5dv_devx_umem_dereg(fresh), 0);
	free(buf);

	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	REQUIRE(mlx5dv_var_export(var, rec) == 0);
	mlx5dv_free_var(var);
	nvar = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(nvar);
	REQUIRE(mlx5dv_var_export(nvar, nrec) == 0);
	CHECK_EQ(!memcmp(rec, nrec, sizeof(uint32_t)), !unique);
	vimp = mlx5dv_var_import(ctx, rec);
	REQUIRE(vimp);
	if (unique) {
		/* Its free reports nothing: the new VAR must still map. */
		mlx5dv_free_var(vimp);
		map = mmap(NULL, nvar->length, PROT_READ | PROT_WRITE,
			   MAP_SHARED, ctx->cmd_fd, nvar->mmap_off);
		CHECK(map != MAP_FAILED);
		if (map != MAP_FAILED)
			munmap(map, nvar->length);
	} else {
		mlx5dv_var_unimport(vimp);
	}
	mlx5dv_free_var(nvar);
}

/* len bytes of rec copied to end right before a PROT_NONE page. */
static void *at_guard(uint8_t *pages, const void *rec, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);

	memcpy(pages + page - len, rec, len);
	return pages + page - len;
}

/*
 * Data exported by libmlx5 63/64 (their sizes: 32, 8 and 24 bytes on
 * 64-bit), and the new DEVX object data (sizes.devx_obj_attrs_size),
 * each ending at a PROT_NONE page: an import that read past the end
 * would crash the test.  They import, unchecked, as the objects they
 * name.
 */
static void old_data(struct ibv_context *ctx)
{
	long page = sysconf(_SC_PAGESIZE);
	struct mlx5dv_devx_umem *umem, *uimp;
	struct mlx5dv_devx_obj *fc, *imp;
	struct mlx5dv_var *var, *vimp;
	struct v64_umem_rec urec;
	struct v64_var_rec vrec;
	struct v64_obj_rec orec;
	uint8_t rec[REC_MAX];
	uint8_t *pages;
	void *buf;
	uint32_t id;

	pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(pages != MAP_FAILED);
	REQUIRE(mprotect(pages + page, page, PROT_NONE) == 0);

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	obj_export(fc, rec);
	/* 63/64's data: the fields where they are now, no flag, no id */
	memset(&orec, 0, sizeof(orec));
	memcpy(&orec, rec, offsetof(struct v64_obj_rec, log_obj_range) + 1);
	/* (import_expect() would copy REC_MAX bytes: imported in place) */
	imp = mlx5dv_devx_obj_import(ctx, at_guard(pages, &orec,
						   sizeof(orec)));
	REQUIRE(imp);
	CHECK_EQ(fc_query_status(imp, id, NULL), 0);
	mlx5dv_devx_obj_unimport(imp);
	imp = mlx5dv_devx_obj_import(ctx, at_guard(pages, rec,
						   sizes.devx_obj_attrs_size));
	REQUIRE(imp);
	CHECK_EQ(fc_query_status(imp, id, NULL), 0);
	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);

	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, 0);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, rec) == 0);
	memcpy(&urec, rec, sizeof(urec));
	uimp = mlx5dv_devx_umem_import(ctx, at_guard(pages, &urec,
						     sizeof(urec)));
	CHECK(uimp && uimp->umem_id == umem->umem_id);
	if (uimp)
		mlx5dv_devx_umem_unimport(uimp);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);

	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	REQUIRE(mlx5dv_var_export(var, rec) == 0);
	memset(&vrec, 0, sizeof(vrec));
	vrec.handle = ((struct v64_var_rec *)rec)->handle;
	vrec.page_id = var->page_id;
	vrec.length = var->length;
	vrec.mmap_off = var->mmap_off;
	vimp = mlx5dv_var_import(ctx, at_guard(pages, &vrec, sizeof(vrec)));
	CHECK(vimp && vimp->page_id == var->page_id &&
	      vimp->mmap_off == var->mmap_off);
	if (vimp)
		mlx5dv_var_unimport(vimp);
	mlx5dv_free_var(var);
	munmap(pages, 2 * page);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx, *other, *dev1;
	bool has;

	if (argc < 2 || (strcmp(argv[1], "--handles=unique") &&
			 strcmp(argv[1], "--handles=lowest-free"))) {
		fprintf(stderr, "usage: %s --handles=unique|lowest-free\n",
			argv[0]);
		return 2;
	}
	unique = !strcmp(argv[1], "--handles=unique");
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

	has = file_id_of(ctx->cmd_fd) != 0;
	if (unique && !has)
		check_skip(NAME, "the kernel does not report the verbs file");
	CHECK_EQ(has, unique);

	context_flag(ctx);
	same_context(ctx);
	two_process(ctx);
	reuse(ctx);
	other_file(ctx, other);
	other_file(ctx, dev1);
	umem_var(ctx);
	old_data(ctx);

	ibv_close_device(dev1);
	ibv_close_device(other);
	ibv_close_device(ctx);
	return check_done(NAME);
}
