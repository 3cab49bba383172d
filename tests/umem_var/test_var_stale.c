// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A stale VAR blob under the kernel's mmap entry rules (mlx5-emu models
 * them: ib_core_uverbs.c's rdma_user_mmap_entry_*, mlx5_ib_mmap_free()).
 * A VAR destroyed while its page is mapped keeps its page index and its
 * mmap offset until the last munmap(), then its page index is reused
 * lowest-free; its offset too on every released kernel, while kernel
 * series v3 (patch 3) gives an offset once per pass through its range
 * (16,187,392 offsets for VARs and UARs: no test reaches a second pass).
 *
 * Without the verbs file id (--handles=lowest-free, every released
 * kernel) the handle is reused lowest-free at once, and import can only
 * ask whether the blob's handle is a live VAR:
 *   - while nothing took the handle: ENOENT;
 *   - once a new VAR took the handle but the old page is still mapped:
 *     imports (the handle is a VAR), but the new VAR has another page
 *     and offset, and the blob's offset maps nothing (EINVAL);
 *   - after the last munmap(), a VAR made then gets the old handle, page
 *     index and offset: the blob imports and its offset maps the new
 *     VAR's page.  Nothing the kernel answers tells it from the old one.
 * With it (series v3, --handles=unique) no handle and no mmap offset is
 * given twice (within a pass of its range) and import asks nothing:
 * the stale blob imports at every step, its handle names nothing (the
 * new VARs have other handles), and after the last munmap() the new
 * VAR gets the old page but another offset, so the blob's offset maps
 * nothing (EINVAL).  The program reads
 * the offset rule from the kernel (a VAR freed and made again) and checks
 * that it goes with the file id: the series is one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "check.h"
#include "file_id_probe.h"
#include "umv.h"

#define NAME "umem_var_var_stale"

static void *map(int fd, const struct mlx5dv_var *var, int *err)
{
	void *p = mmap(NULL, var->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, var->mmap_off);

	*err = p == MAP_FAILED ? errno : 0;
	return p;
}

static struct mlx5dv_var *var_alloc(struct ibv_context *ctx)
{
	struct mlx5dv_var *var = mlx5dv_alloc_var(ctx, 0);

	REQUIRE(var);
	return var;
}

/* Does the kernel report the verbs file id (series v3)? */
static bool file_ids;

/*
 * Does the ucontext give each mmap offset once per pass (series v3,
 * patch 3)?  A
 * VAR never mapped is freed at once, so a released kernel gives its
 * offset to the next VAR.
 */
static bool offsets_once(struct ibv_context *ctx)
{
	struct mlx5dv_var *v = var_alloc(ctx);
	off_t off = v->mmap_off;
	bool once;

	mlx5dv_free_var(v);
	v = var_alloc(ctx);
	once = v->mmap_off != off;
	mlx5dv_free_var(v);
	return once;
}

/* The stale blob once a new VAR exists: it imports in both modes. */
static struct mlx5dv_var *stale_import(struct ibv_context *ctx,
				       uint8_t *blob)
{
	struct mlx5dv_var *imp = mlx5dv_var_import(ctx, blob);

	CHECK(imp != NULL);
	return imp;
}

int main(void)
{
	struct ibv_context *ctx = umv_open("mlx5_0");
	struct mlx5dv_var *a, *b, *c, *imp;
	uint8_t blob[UMV_BLOB_MAX] = {};
	uint32_t a_page, a_handle;
	volatile uint32_t *pa, *pc, *stale;
	off_t a_off;
	bool once;
	int err;

	file_ids = file_id_expected(ctx->cmd_fd);
	once = offsets_once(ctx);
	printf("the kernel gives mmap offsets %s\n",
	       once ? "once per pass (series v3)" : "lowest free first");
	CHECK_EQ(once, file_ids);
	a = var_alloc(ctx);
	CHECK_EQ(mlx5dv_var_export(a, blob), 0);
	a_page = a->page_id;
	a_off = a->mmap_off;
	a_handle = umv_blob_handle(blob);
	/* rdma_user_mmap_io(): only a shared mapping */
	CHECK_ERRNO(mmap(NULL, a->length, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			 ctx->cmd_fd, a_off) == MAP_FAILED, EINVAL);
	pa = map(ctx->cmd_fd, a, &err);
	REQUIRE(!err);
	pa[0] = 0x5a5a;

	/* destroyed while mapped: the mapping stays, the offset maps no more */
	mlx5dv_free_var(a);
	CHECK_EQ(pa[0], 0x5a5a);
	CHECK_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ctx->cmd_fd, a_off) == MAP_FAILED, EINVAL);
	CHECK(!umv_listed(ctx, MLX5_IB_OBJECT_VAR, a_handle));
	imp = mlx5dv_var_import(ctx, blob);
	if (file_ids) {
		CHECK(imp != NULL);	/* nothing asked */
		if (imp)
			mlx5dv_var_unimport(imp);
	} else {
		CHECK(imp == NULL && errno == ENOENT);
	}

	/*
	 * A new VAR: not the page or offset still mapped; the handle on
	 * a kernel without file ids, another with them.
	 */
	b = var_alloc(ctx);
	CHECK_EQ(umv_listed(ctx, MLX5_IB_OBJECT_VAR, a_handle), !file_ids);
	CHECK(b->page_id != a_page);
	CHECK(b->mmap_off != a_off);
	imp = stale_import(ctx, blob);
	if (imp) {
		CHECK_EQ(imp->page_id, a_page);
		map(ctx->cmd_fd, imp, &err);
		CHECK_EQ(err, EINVAL);
		mlx5dv_var_unimport(imp);
	}

	/*
	 * The last munmap() gives page and offset back: the page is reused
	 * lowest-free, the offset only where offsets are not given once.
	 */
	CHECK_EQ(munmap((void *)pa, 4096), 0);
	mlx5dv_free_var(b);
	c = var_alloc(ctx);
	CHECK_EQ(c->page_id, a_page);
	CHECK_EQ(c->mmap_off == a_off, !once);
	CHECK_EQ(umv_listed(ctx, MLX5_IB_OBJECT_VAR, a_handle), !file_ids);

	/*
	 * The stale blob's offset: on a released kernel it maps the new
	 * VAR's page (and the blob's handle names the new VAR); with the
	 * series it maps nothing.
	 */
	imp = stale_import(ctx, blob);
	if (imp) {
		pc = map(ctx->cmd_fd, c, &err);
		REQUIRE(!err);
		stale = map(ctx->cmd_fd, imp, &err);
		CHECK_EQ(err, once ? EINVAL : 0);
		if (!err) {
			pc[1] = 0xc0ffee;
			CHECK_EQ(stale[1], 0xc0ffee);
			munmap((void *)stale, imp->length);
		}
		munmap((void *)pc, c->length);
		mlx5dv_var_unimport(imp);
	}
	mlx5dv_free_var(c);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
