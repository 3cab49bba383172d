// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * VAR export/import under mlx5-emu, through the real libibverbs and
 * libmlx5: same context, another process (fork, SCM_RIGHTS,
 * ibv_import_device) that maps the imported VAR on its own command fd,
 * free by the importer, and the blobs import must refuse (corrupted,
 * other kind, other device) or that reach nothing (stale:
 * umv_check_var_gone()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "check.h"
#include "umv.h"

static struct ibv_context *ctx0, *ctx1;
static uint32_t blob_len;

static bool listed(struct ibv_context *ctx, const void *blob)
{
	return umv_listed(ctx, MLX5_IB_OBJECT_VAR, umv_blob_handle(blob));
}

static struct mlx5dv_var *var_alloc(struct ibv_context *ctx)
{
	struct mlx5dv_var *var = mlx5dv_alloc_var(ctx, 0);

	REQUIRE(var);
	REQUIRE(var->length > 0);
	return var;
}

/*
 * Under mlx5-emu the VAR page is shared memory behind the mmap entry
 * (on hardware it is a doorbell page, which does not read back), so a
 * word written through one process's mapping shows in another's: the
 * proof that both mappings reach the same kernel object.
 */
static int var_poke(int fd, const struct mlx5dv_var *var, uint32_t *old,
		    uint32_t val)
{
	volatile uint32_t *p = mmap(NULL, var->length,
				    PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				    var->mmap_off);

	if (p == MAP_FAILED)
		return errno;
	*old = p[1];
	p[1] = val;
	munmap((void *)p, var->length);
	return 0;
}

static void test_sizes(void)
{
	struct mlx5dv_export_sizes s;

	mlx5dv_get_export_sizes(&s);
	blob_len = s.var_attrs_size;
	CHECK_EQ(blob_len, 80);
}

static void test_same_context(void)
{
	unsigned char blob[UMV_BLOB_MAX];
	struct mlx5dv_var *var = var_alloc(ctx0), *imp;

	CHECK_EQ(mlx5dv_var_export(var, blob), 0);
	CHECK(listed(ctx0, blob));
	imp = mlx5dv_var_import(ctx0, blob);
	REQUIRE(imp);
	CHECK(imp != var);
	CHECK_EQ(imp->page_id, var->page_id);
	CHECK_EQ(imp->length, var->length);
	CHECK_EQ(imp->mmap_off, var->mmap_off);
	CHECK_EQ(imp->comp_mask, 0);
	CHECK_EQ(umv_var_map(ctx0->cmd_fd, imp), 0);

	/* Unimport leaves the VAR: listed, still mappable, freeable. */
	mlx5dv_var_unimport(imp);
	CHECK(listed(ctx0, blob));
	CHECK_EQ(umv_var_map(ctx0->cmd_fd, var), 0);
	mlx5dv_free_var(var);
	CHECK(!listed(ctx0, blob));
}

/* libmlx5's free on an imported VAR destroys the kernel object. */
static void test_importer_free(void)
{
	unsigned char blob[UMV_BLOB_MAX];
	struct mlx5dv_var *var = var_alloc(ctx0), *imp;

	CHECK_EQ(mlx5dv_var_export(var, blob), 0);
	imp = mlx5dv_var_import(ctx0, blob);
	REQUIRE(imp);
	mlx5dv_free_var(imp);
	CHECK(!listed(ctx0, blob));
	umv_check_var_gone(ctx0, blob);
	mlx5dv_var_unimport(var);
}

static void test_refused(void)
{
	unsigned char blob[UMV_BLOB_MAX], bad[UMV_BLOB_MAX];
	struct mlx5dv_var *var = var_alloc(ctx0);
	uint32_t i;

	CHECK_EQ(mlx5dv_var_export(var, blob), 0);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx0, blob), EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx0, blob), EINVAL);
	CHECK_ERRNO(!mlx5dv_var_import(ctx1, blob), EXDEV);
	for (i = 32; i < 56; i += 4) {
		memcpy(bad, blob, sizeof(bad));
		bad[i] ^= 0x80;
		CHECK_ERRNO(!mlx5dv_var_import(ctx0, bad), EINVAL);
	}
	mlx5dv_free_var(var);
	umv_check_var_gone(ctx0, blob);
}

/* The child of test_two_process. */
static int importer(int sock)
{
	unsigned char blob_a[UMV_BLOB_MAX], blob_b[UMV_BLOB_MAX];
	struct mlx5dv_var *a, *b;
	struct ibv_context *ctx;
	uint32_t old = 0;
	char ok = 1;

	ctx = umv_import_device(sock, blob_a, blob_len);
	REQUIRE(!fdpass_recv_exact(sock, NULL, blob_b, blob_len));

	a = mlx5dv_var_import(ctx, blob_a);
	REQUIRE(a);
	/* Mapped on this process's own command fd, at the exported offset. */
	CHECK_EQ(umv_var_map(ctx->cmd_fd, a), 0);
	CHECK_EQ(var_poke(ctx->cmd_fd, a, &old, 0xc0de0002), 0);
	CHECK_EQ(old, 0xc0de0001);
	mlx5dv_var_unimport(a);

	b = mlx5dv_var_import(ctx, blob_b);
	REQUIRE(b);
	mlx5dv_free_var(b);
	CHECK(!listed(ctx, blob_b));

	CHECK_EQ(ibv_close_device(ctx), 0);
	REQUIRE(!fdpass_send(sock, -1, &ok, 1));
	return check_done("var importer");
}

static void test_two_process(void)
{
	unsigned char blob_a[UMV_BLOB_MAX], blob_b[UMV_BLOB_MAX];
	struct mlx5dv_var *a = var_alloc(ctx0), *b = var_alloc(ctx0);
	int sock, fd;
	uint32_t old = 0;
	pid_t pid;
	char ok = 0;

	CHECK(a->page_id != b->page_id);
	CHECK_EQ(mlx5dv_var_export(a, blob_a), 0);
	CHECK_EQ(mlx5dv_var_export(b, blob_b), 0);
	CHECK_EQ(var_poke(ctx0->cmd_fd, a, &old, 0xc0de0001), 0);
	pid = umv_fork(importer, &sock);
	REQUIRE(!fdpass_send(sock, ctx0->cmd_fd, blob_a, blob_len));
	REQUIRE(!fdpass_send(sock, -1, blob_b, blob_len));
	CHECK(!fdpass_recv_exact(sock, &fd, &ok, 1) && ok == 1);
	CHECK_EQ(umv_wait(pid), 0);
	close(sock);

	CHECK(listed(ctx0, blob_a));
	CHECK_EQ(var_poke(ctx0->cmd_fd, a, &old, 0), 0);
	CHECK_EQ(old, 0xc0de0002);
	mlx5dv_free_var(a);
	CHECK(!listed(ctx0, blob_b));
	mlx5dv_var_unimport(b);
}

int main(void)
{
	return umv_run("test_var_share", &ctx0, &ctx1, test_sizes,
		       test_same_context, test_importer_free, test_refused,
		       test_two_process, (umv_test)NULL);
}
