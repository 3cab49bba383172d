// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An application written for rdma-core's DEVX export/import API, built
 * against an installed mlx5-share the way its users build: only
 * <infiniband/mlx5dv.h> and -lmlx5 -libverbs (or pkg-config).  It calls
 * every function of the family as the upstream man pages describe them:
 * size the buffers, create a flow counter, a UMEM and a VAR, export each,
 * import each into a context imported from a dup of the command fd, use
 * it there, unimport, then destroy in the creating context.  Finally the
 * stale records: the argument says how the kernel gives handle numbers.
 * "lowest-free" (every released kernel): mlx5-share's checked import
 * refuses them.  "unique" (a kernel that gives each number once per file
 * and reports the file's id): import asks the kernel nothing and builds
 * the objects, whose handles name nothing, so every command through
 * them fails.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "upstream_app_devx.h"

#define NAME "upstream_app"

static void check_stale(struct ibv_context *ictx, uint32_t counter_id,
			void *obj_buf, void *umem_buf, void *var_buf,
			bool unique);

int main(int argc, char **argv)
{
	struct mlx5dv_export_sizes sizes = {};
	struct mlx5dv_devx_obj *counter, *icounter;
	struct mlx5dv_devx_umem *umem, *iumem;
	struct mlx5dv_var *var, *ivar;
	struct ibv_context *ctx, *ictx;
	void *obj_buf, *umem_buf, *var_buf, *mem, *db;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t counter_id = 0;
	bool unique;

	if (argc != 2 || (strcmp(argv[1], "unique") &&
			  strcmp(argv[1], "lowest-free"))) {
		fprintf(stderr, "usage: %s unique|lowest-free\n", argv[0]);
		return 2;
	}
	unique = !strcmp(argv[1], "unique");

	ctx = open_devx_device();
	if (!ctx)
		check_skip(NAME,
			   "no mlx5 device with DEVX (run under mlx5-emu)");

	mlx5dv_get_export_sizes(&sizes);
	CHECK(sizes.devx_obj_attrs_size > 0);
	CHECK(sizes.devx_umem_attrs_size > 0);
	CHECK(sizes.var_attrs_size > 0);
	obj_buf = calloc(1, sizes.devx_obj_attrs_size);
	umem_buf = calloc(1, sizes.devx_umem_attrs_size);
	var_buf = calloc(1, sizes.var_attrs_size);
	REQUIRE(obj_buf && umem_buf && var_buf);

	counter = alloc_flow_counter(ctx, &counter_id);
	REQUIRE(counter);
	REQUIRE(posix_memalign(&mem, page, 2 * page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, mem, 2 * page,
				    IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);

	CHECK_EQ(mlx5dv_devx_obj_export(counter, obj_buf), 0);
	CHECK_EQ(mlx5dv_devx_umem_export(umem, umem_buf), 0);
	CHECK_EQ(mlx5dv_var_export(var, var_buf), 0);

	/* The importer's context shares the exporter's kernel file. */
	ictx = ibv_import_device(dup(ctx->cmd_fd));
	REQUIRE(ictx);

	icounter = mlx5dv_devx_obj_import(ictx, obj_buf);
	REQUIRE(icounter);
	CHECK_EQ(query_flow_counter(icounter, counter_id), 0);

	iumem = mlx5dv_devx_umem_import(ictx, umem_buf);
	REQUIRE(iumem);
	CHECK_EQ(iumem->umem_id, umem->umem_id);

	ivar = mlx5dv_var_import(ictx, var_buf);
	REQUIRE(ivar);
	CHECK_EQ(ivar->page_id, var->page_id);
	CHECK_EQ(ivar->length, var->length);
	CHECK_EQ(ivar->mmap_off, var->mmap_off);
	db = mmap(NULL, ivar->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  ictx->cmd_fd, ivar->mmap_off);
	CHECK(db != MAP_FAILED);
	if (db != MAP_FAILED)
		munmap(db, ivar->length);

	mlx5dv_devx_obj_unimport(icounter);
	mlx5dv_devx_umem_unimport(iumem);
	mlx5dv_var_unimport(ivar);

	/* Unimport left the kernel objects alone: their creator owns them. */
	CHECK_EQ(query_flow_counter(counter, counter_id), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(counter), 0);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	mlx5dv_free_var(var);

	check_stale(ictx, counter_id, obj_buf, umem_buf, var_buf, unique);

	CHECK_EQ(ibv_close_device(ictx), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(mem);
	free(obj_buf);
	free(umem_buf);
	free(var_buf);
	return check_done(NAME);
}

/* The records of destroyed objects: refused, or building dead objects. */
static void check_stale(struct ibv_context *ictx, uint32_t counter_id,
			void *obj_buf, void *umem_buf, void *var_buf,
			bool unique)
{
	struct mlx5dv_devx_obj *obj;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;

	if (!unique) {
		CHECK_ERRNO(mlx5dv_devx_obj_import(ictx, obj_buf) == NULL,
			    ENOENT);
		CHECK_ERRNO(mlx5dv_devx_umem_import(ictx, umem_buf) == NULL,
			    ENOENT);
		CHECK_ERRNO(mlx5dv_var_import(ictx, var_buf) == NULL, ENOENT);
		return;
	}
	obj = mlx5dv_devx_obj_import(ictx, obj_buf);
	umem = mlx5dv_devx_umem_import(ictx, umem_buf);
	var = mlx5dv_var_import(ictx, var_buf);
	CHECK(obj && umem && var);
	if (obj) {
		CHECK_EQ(query_flow_counter(obj, counter_id), ENOENT);
		mlx5dv_devx_obj_unimport(obj);
	}
	if (umem) {
		CHECK_EQ(mlx5dv_devx_umem_dereg(umem), ENOENT);
		mlx5dv_devx_umem_unimport(umem);
	}
	if (var)
		mlx5dv_var_unimport(var);
}
