// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX UMEM export/import under mlx5-emu, through the real libibverbs and
 * libmlx5: same context, another process (fork, SCM_RIGHTS,
 * ibv_import_device), dereg by the importer, and the blobs import must
 * refuse (corrupted, other kind, other device) or that reach nothing
 * (stale: umv_check_umem_gone()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "check.h"
#include "umv.h"

#define UMEM_BYTES (4 * 4096)

static struct ibv_context *ctx0, *ctx1;
static uint32_t blob_len;

/* A registered UMEM and the page-aligned memory behind it. */
struct umem {
	void *buf;
	struct mlx5dv_devx_umem *dv;
};

static struct umem umem_reg(struct ibv_context *ctx)
{
	struct umem u;

	REQUIRE(!posix_memalign(&u.buf, 4096, UMEM_BYTES));
	memset(u.buf, 0x3c, UMEM_BYTES);
	u.dv = mlx5dv_devx_umem_reg(ctx, u.buf, UMEM_BYTES,
				    IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(u.dv);
	return u;
}

static bool listed(struct ibv_context *ctx, const void *blob)
{
	return umv_listed(ctx, MLX5_IB_OBJECT_DEVX_UMEM,
			  umv_blob_handle(blob));
}

static void test_sizes(void)
{
	struct mlx5dv_export_sizes s;

	mlx5dv_get_export_sizes(&s);
	blob_len = s.devx_umem_attrs_size;
	CHECK_EQ(blob_len, 64);
}

static void test_same_context(void)
{
	unsigned char blob[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *imp;
	struct umem u = umem_reg(ctx0);

	CHECK_EQ(mlx5dv_devx_umem_export(u.dv, blob), 0);
	CHECK(listed(ctx0, blob));

	imp = mlx5dv_devx_umem_import(ctx0, blob);
	REQUIRE(imp);
	CHECK(imp != u.dv);
	CHECK_EQ(imp->umem_id, u.dv->umem_id);

	/* Unimport leaves the registration: listed, importable, dereg-able. */
	mlx5dv_devx_umem_unimport(imp);
	CHECK(listed(ctx0, blob));
	imp = mlx5dv_devx_umem_import(ctx0, blob);
	REQUIRE(imp);
	CHECK_EQ(imp->umem_id, u.dv->umem_id);
	mlx5dv_devx_umem_unimport(imp);

	CHECK_EQ(mlx5dv_devx_umem_dereg(u.dv), 0);
	CHECK(!listed(ctx0, blob));
	/* The memory is the exporter's again, whole and writable. */
	CHECK_EQ(((unsigned char *)u.buf)[UMEM_BYTES - 1], 0x3c);
	memset(u.buf, 0, UMEM_BYTES);
	free(u.buf);
}

/*
 * libmlx5's dereg on an imported UMEM: the registration goes, the
 * creator's struct is then released with unimport, and its memory is
 * untouched by the importer's dereg (it held no address range).
 */
static void test_importer_dereg(void)
{
	unsigned char blob[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *imp;
	struct umem u = umem_reg(ctx0);

	CHECK_EQ(mlx5dv_devx_umem_export(u.dv, blob), 0);
	imp = mlx5dv_devx_umem_import(ctx0, blob);
	REQUIRE(imp);
	CHECK_EQ(mlx5dv_devx_umem_dereg(imp), 0);
	CHECK(!listed(ctx0, blob));
	umv_check_umem_gone(ctx0, blob);
	mlx5dv_devx_umem_unimport(u.dv);
	CHECK_EQ(((unsigned char *)u.buf)[0], 0x3c);
	free(u.buf);
}

static void test_refused(void)
{
	unsigned char blob[UMV_BLOB_MAX], bad[UMV_BLOB_MAX];
	struct umem u = umem_reg(ctx0);
	uint32_t i;

	CHECK_EQ(mlx5dv_devx_umem_export(u.dv, blob), 0);

	/* Another kind's import refuses a UMEM blob. */
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx0, blob), EINVAL);
	CHECK_ERRNO(!mlx5dv_var_import(ctx0, blob), EINVAL);

	/* Another device's context: the blob is bound to mlx5_0. */
	CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx1, blob), EXDEV);

	/* Any corrupted byte (here: in the handle and in the id). */
	for (i = 32; i < 40; i++) {
		memcpy(bad, blob, sizeof(bad));
		bad[i] ^= 0x01;
		CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx0, bad), EINVAL);
	}
	memcpy(bad, blob, sizeof(bad));
	bad[4] = 0x7f;		/* another format version */
	CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx0, bad), EPROTO);

	/* Stale: deregistered before import. */
	CHECK_EQ(mlx5dv_devx_umem_dereg(u.dv), 0);
	umv_check_umem_gone(ctx0, blob);
	free(u.buf);
}

/* The child of test_two_process. */
static int importer(int sock)
{
	unsigned char blob_a[UMV_BLOB_MAX], blob_b[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *a, *b;
	struct ibv_context *ctx;
	uint32_t ids[2];
	char ok = 1;

	ctx = umv_import_device(sock, ids, sizeof(ids));
	REQUIRE(!fdpass_recv_exact(sock, NULL, blob_a, blob_len));
	REQUIRE(!fdpass_recv_exact(sock, NULL, blob_b, blob_len));

	/* The same ufile: the exporter's handles are live here too. */
	CHECK(listed(ctx, blob_a));
	a = mlx5dv_devx_umem_import(ctx, blob_a);
	REQUIRE(a);
	CHECK_EQ(a->umem_id, ids[0]);
	mlx5dv_devx_umem_unimport(a);

	b = mlx5dv_devx_umem_import(ctx, blob_b);
	REQUIRE(b);
	CHECK_EQ(b->umem_id, ids[1]);
	CHECK_EQ(mlx5dv_devx_umem_dereg(b), 0);
	CHECK(!listed(ctx, blob_b));

	/* An import in another device's context is still refused. */
	CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx1, blob_a), EXDEV);

	CHECK_EQ(ibv_close_device(ctx), 0);
	REQUIRE(!fdpass_send(sock, -1, &ok, 1));
	return check_done("umem importer");
}

static void test_two_process(void)
{
	unsigned char blob_a[UMV_BLOB_MAX], blob_b[UMV_BLOB_MAX];
	struct umem a = umem_reg(ctx0), b = umem_reg(ctx0);
	uint32_t ids[2] = { a.dv->umem_id, b.dv->umem_id };
	int sock, fd;
	pid_t pid;
	char ok = 0;

	CHECK_EQ(mlx5dv_devx_umem_export(a.dv, blob_a), 0);
	CHECK_EQ(mlx5dv_devx_umem_export(b.dv, blob_b), 0);
	pid = umv_fork(importer, &sock);
	REQUIRE(!fdpass_send(sock, ctx0->cmd_fd, ids, sizeof(ids)));
	REQUIRE(!fdpass_send(sock, -1, blob_a, blob_len));
	REQUIRE(!fdpass_send(sock, -1, blob_b, blob_len));
	CHECK(!fdpass_recv_exact(sock, &fd, &ok, 1) && ok == 1);
	CHECK_EQ(umv_wait(pid), 0);
	close(sock);

	/* A was only unimported there: still ours. B was deregistered. */
	CHECK(listed(ctx0, blob_a));
	CHECK_EQ(mlx5dv_devx_umem_dereg(a.dv), 0);
	CHECK(!listed(ctx0, blob_b));
	umv_check_umem_gone(ctx0, blob_b);
	mlx5dv_devx_umem_unimport(b.dv);
	free(a.buf);
	free(b.buf);
}

int main(void)
{
	return umv_run("test_umem_share", &ctx0, &ctx1, test_sizes,
		       test_same_context, test_importer_dereg, test_refused,
		       test_two_process, (umv_test)NULL);
}
