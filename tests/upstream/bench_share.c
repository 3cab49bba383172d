// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_bench: ns per export and per import, and uverbs ioctls per
 * import, of whichever libmlx5 this program is linked against (built by
 * tests/upstream/against for patched and for unpatched rdma-core), for a
 * flow counter (one id query), a DEVX PD (untyped: INFO_HANDLES), a UMEM
 * and a VAR.  Run under mlx5-emu:
 *   mlx5-emu run --devices 1 -- upstream_bench [iterations]
 * It prints figures only; it asserts nothing about speed.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_user_ioctl.h>

#include "check.h"
#include "e2e.h"
#include "ioctl_watch.h"

static unsigned long ioctls;

/* Counts the uverbs ioctls libibverbs and libmlx5 make. */
void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr)
{
	(void)hdr;
	ioctls++;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * The three kinds' export, import and unimport with one signature each,
 * for run(): kind_export(), kind_import(), kind_unimport().
 */
#define SHARE_OPS(kind, exp, imp, unimp)				\
	static int kind##_export(void *o, void *b)			\
	{								\
		return exp(o, b);					\
	}								\
	static void *kind##_import(struct ibv_context *c, void *b)	\
	{								\
		return imp(c, b);					\
	}								\
	static void kind##_unimport(void *o)				\
	{								\
		unimp(o);						\
	}

SHARE_OPS(obj, mlx5dv_devx_obj_export, mlx5dv_devx_obj_import,
	  mlx5dv_devx_obj_unimport)
SHARE_OPS(umem, mlx5dv_devx_umem_export, mlx5dv_devx_umem_import,
	  mlx5dv_devx_umem_unimport)
SHARE_OPS(var, mlx5dv_var_export, mlx5dv_var_import, mlx5dv_var_unimport)

static void run(const char *what, struct ibv_context *ctx, void *obj,
		int (*exp)(void *, void *),
		void *(*imp)(struct ibv_context *, void *),
		void (*unimp)(void *), unsigned int n)
{
	uint8_t blob[E2E_BLOB_MAX];
	unsigned long calls;
	double t0, t_exp, t_imp;
	unsigned int i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		REQUIRE(exp(obj, blob) == 0);
	t_exp = (now_ns() - t0) / n;

	calls = ioctls;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		void *imported = imp(ctx, blob);

		REQUIRE(imported);
		unimp(imported);
	}
	t_imp = (now_ns() - t0) / n;
	printf("%-13s export %8.0f ns  import %8.0f ns  ioctls/import %.2f\n",
	       what, t_exp, t_imp, (double)(ioctls - calls) / n);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *fc, *pd;
	struct ibv_context *ctx;
	struct mlx5dv_var *var;
	uint32_t id;
	void *buf;

	e2e_init(1, argv, "upstream_bench");
	if (!n)
		n = 1;
	ctx = e2e_open(0);
	printf("blob size %zu bytes, %u iterations\n", e2e_obj_blob_size(), n);

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	run("flow counter", ctx, fc, obj_export, obj_import, obj_unimport, n);
	pd = pd_alloc(ctx, NULL);
	REQUIRE(pd);
	run("DEVX PD", ctx, pd, obj_export, obj_import, obj_unimport, n);

	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, 7);
	REQUIRE(umem);
	run("UMEM", ctx, umem, umem_export, umem_import, umem_unimport, n);

	var = mlx5dv_alloc_var(ctx, 0);
	if (var)
		run("VAR", ctx, var, var_export, var_import, var_unimport, n);
	else
		printf("VAR           not supported by this device\n");

	if (var)
		mlx5dv_free_var(var);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pd), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	ibv_close_device(ctx);
	return check_done("upstream_bench");
}
