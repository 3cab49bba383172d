// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX UMEMs and VARs through the real libmlx5: register and deregister
 * memory (the kernel's argument checks included), allocate a VAR and map
 * its page on the command fd (the same page for every mapping of the
 * offset, also in a forked child), a DEVX UAR, and the mmap offsets the
 * kernel refuses.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_util.h"

static void umems(struct ibv_context *ctx)
{
	size_t len = 3 * 4096 + 100;
	struct mlx5dv_devx_umem *u1, *u2;
	void *buf;

	REQUIRE(posix_memalign(&buf, 4096, 4 * 4096) == 0);
	u1 = mlx5dv_devx_umem_reg(ctx, buf, len, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(u1);
	u2 = mlx5dv_devx_umem_reg(ctx, (char *)buf + 100, 4096,
				  IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE);
	REQUIRE(u2);
	CHECK(u1->umem_id != 0 && u2->umem_id != 0);
	CHECK(u1->umem_id != u2->umem_id);
	CHECK_EQ(mlx5dv_devx_umem_dereg(u2), 0);
	/* remote write without local write: ib_check_mr_access() */
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_REMOTE_WRITE));
	CHECK_EQ(errno, EINVAL);
	/* an access bit DEVX does not take: uverbs_get_flags32() */
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_MW_BIND));
	CHECK_EQ(errno, EINVAL);
	/* memory that is not mapped cannot be pinned: EFAULT */
	{
		long psz = sysconf(_SC_PAGESIZE);
		char *hole = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		REQUIRE(hole != MAP_FAILED);
		REQUIRE(munmap(hole + psz, psz) == 0);
		errno = 0;
		CHECK(!mlx5dv_devx_umem_reg(ctx, hole, 3 * psz,
					    IBV_ACCESS_LOCAL_WRITE));
		CHECK_EQ(errno, EFAULT);
		u2 = mlx5dv_devx_umem_reg(ctx, hole, psz,
					  IBV_ACCESS_LOCAL_WRITE);
		CHECK(u2 != NULL);
		if (u2)
			CHECK_EQ(mlx5dv_devx_umem_dereg(u2), 0);
		munmap(hole, psz);
		munmap(hole + 2 * psz, psz);
	}
	/* zero length: ib_umem_get() */
	errno = 0;
	CHECK(!mlx5dv_devx_umem_reg(ctx, buf, 0, IBV_ACCESS_LOCAL_WRITE));
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(mlx5dv_devx_umem_dereg(u1), 0);
	free(buf);
}

static void vars(struct ibv_context *ctx)
{
	struct mlx5dv_var *v1, *v2;
	volatile uint32_t *p1, *p2, *p3;
	long psz = sysconf(_SC_PAGESIZE);
	off_t off1;
	pid_t pid;
	int status;

	v1 = mlx5dv_alloc_var(ctx, 0);
	v2 = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(v1 && v2);
	CHECK(v1->page_id != v2->page_id);
	CHECK(v1->mmap_off != v2->mmap_off);
	CHECK_EQ(v1->length, psz);
	p1 = mmap(NULL, v1->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  ctx->cmd_fd, v1->mmap_off);
	p2 = mmap(NULL, v1->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  ctx->cmd_fd, v1->mmap_off);
	p3 = mmap(NULL, v2->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  ctx->cmd_fd, v2->mmap_off);
	REQUIRE(p1 != MAP_FAILED && p2 != MAP_FAILED && p3 != MAP_FAILED);
	/* two mappings of one offset are one page; another VAR is another */
	p1[0] = 0x12345678;
	CHECK_EQ(p2[0], 0x12345678);
	CHECK(p3[0] != 0x12345678);

	/* a forked child mapping the offset on the inherited fd sees it too */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		volatile uint32_t *c = mmap(NULL, v1->length,
					    PROT_READ | PROT_WRITE, MAP_SHARED,
					    ctx->cmd_fd, v1->mmap_off);

		if (c == MAP_FAILED || c[0] != 0x12345678)
			_exit(1);
		c[1] = 0xabcdef;
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(p1[1], 0xabcdef);

	/* the wrong size for the entry: EINVAL */
	CHECK_ERRNO(mmap(NULL, 2 * psz, PROT_READ, MAP_SHARED, ctx->cmd_fd,
			 v1->mmap_off) == MAP_FAILED, EINVAL);
	/* an offset no entry has: EINVAL */
	CHECK_ERRNO(mmap(NULL, psz, PROT_READ, MAP_SHARED, ctx->cmd_fd,
			 v2->mmap_off + 64 * psz) == MAP_FAILED, EINVAL);
	/* the core clock page is read-only: EPERM */
	CHECK_ERRNO(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ctx->cmd_fd, (5 << 8) * psz) == MAP_FAILED, EPERM);

	off1 = v1->mmap_off;
	mlx5dv_free_var(v1);
	/* the mapping outlives the object; the offset does not */
	CHECK_EQ(p2[0], 0x12345678);
	CHECK_ERRNO(mmap(NULL, psz, PROT_READ, MAP_SHARED, ctx->cmd_fd,
			 off1) == MAP_FAILED, EINVAL);
	munmap((void *)p1, psz);
	munmap((void *)p2, psz);
	munmap((void *)p3, psz);
	mlx5dv_free_var(v2);
}

static void uars(struct ibv_context *ctx)
{
	struct mlx5dv_devx_uar *uar;

	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	REQUIRE(uar);
	CHECK(uar->reg_addr != NULL && uar->base_addr != NULL);
	/* the doorbell page is writable memory */
	*(volatile uint32_t *)uar->base_addr = 1;
	mlx5dv_devx_free_uar(uar);
}

int main(void)
{
	struct ibv_context *ctx;

	ctx = emu_start("emu_umem_var");
	umems(ctx);
	vars(ctx);
	uars(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_umem_var");
}
