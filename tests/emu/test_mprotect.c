// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The core clock page is mapped read-only from the device fd, and the
 * kernel clears VM_MAYWRITE for it: mprotect() cannot make it writable
 * (EACCES), after a remap or in a forked child.
 * Other device pages (a VAR page) and memory mapped later at the same
 * address are not affected.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devx_objs.h"
#include "emu_util.h"

#define NAME "emu_mprotect"
/* MLX5_IB_MMAP_CORE_CLOCK: the mmap command in bits 8..15 of the page */
#define MMAP_CORE_CLOCK 5

int main(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	off_t clock_off = (off_t)(MMAP_CORE_CLOCK << 8) * psz;
	struct ibv_context *ctx;
	struct mlx5dv_var *var;
	uint8_t *clk, *p, *moved;
	int status;
	pid_t pid;

	emu_require(NAME);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);

	/* writable from the start: refused by mmap itself */
	CHECK_ERRNO(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ctx->cmd_fd, clock_off) == MAP_FAILED, EPERM);
	clk = mmap(NULL, psz, PROT_READ, MAP_SHARED, ctx->cmd_fd, clock_off);
	REQUIRE(clk != MAP_FAILED);
	CHECK_ERRNO(mprotect(clk, psz, PROT_READ | PROT_WRITE), EACCES);
	CHECK_ERRNO(mprotect(clk, psz, PROT_WRITE), EACCES);
	/* what stays allowed */
	CHECK_EQ(mprotect(clk, psz, PROT_NONE), 0);
	CHECK_EQ(mprotect(clk, psz, PROT_READ), 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(mprotect(clk, psz, PROT_READ | PROT_WRITE) == -1 &&
		      errno == EACCES ? 0 : 1);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* moved elsewhere, it is still the clock page */
	moved = mremap(clk, psz, psz, MREMAP_MAYMOVE | MREMAP_FIXED,
		       (p = mmap(NULL, psz, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)));
	REQUIRE(p != MAP_FAILED && moved == p);
	CHECK_ERRNO(mprotect(moved, psz, PROT_READ | PROT_WRITE), EACCES);
	CHECK_EQ(munmap(moved, psz), 0);
	/* unmapped, the address is free for memory that may be written */
	p = mmap(moved, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED, -1, 0);
	REQUIRE(p == moved);
	CHECK_EQ(mprotect(p, psz, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(munmap(p, psz), 0);
	/* mapped over with MAP_FIXED, likewise */
	clk = mmap(NULL, psz, PROT_READ, MAP_SHARED, ctx->cmd_fd, clock_off);
	REQUIRE(clk != MAP_FAILED);
	p = mmap(clk, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0);
	REQUIRE(p == clk);
	CHECK_EQ(mprotect(p, psz, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(munmap(p, psz), 0);

	/* a VAR page mapped read-only may become writable */
	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	p = mmap(NULL, var->length, PROT_READ, MAP_SHARED, ctx->cmd_fd,
		 var->mmap_off);
	REQUIRE(p != MAP_FAILED);
	CHECK_EQ(mprotect(p, var->length, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(munmap(p, var->length), 0);
	mlx5dv_free_var(var);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
