// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The objects mlx5-share-bench measures on: N flow counters or N PDs,
 * made through DEVX in one context, with PRM mailboxes written here.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#include "bench.h"
#include "info_handles.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

void bench_die(const char *what, int err)
{
	fprintf(stderr, "mlx5-share-bench: %s: %s\n", what, strerror(err));
	exit(1);
}

/* One object; on failure says why, firmware status and syndrome too. */
static struct mlx5dv_devx_obj *create_one(struct bench_run *r, size_t i)
{
	uint8_t in[PRM_HDR_LEN] = { 0 }, out[PRM_HDR_LEN] = { 0 };
	struct mlx5dv_devx_obj *obj;

	prm_set(in, PRM_HDR_OPCODE, r->kind == BENCH_COUNTER ?
		PRM_OP_ALLOC_FLOW_COUNTER : PRM_OP_ALLOC_PD);
	obj = mlx5dv_devx_obj_create(r->ctx, in, sizeof(in), out, sizeof(out));
	if (!obj) {
		fprintf(stderr,
			"mlx5-share-bench: N=%zu: creating object #%zu failed: "
			"%s; firmware status 0x%x, syndrome 0x%08x\n",
			r->n, i + 1, strerror(errno),
			prm_get(out, PRM_OUT_STATUS),
			prm_get(out, PRM_OUT_SYNDROME));
		return NULL;
	}
	r->ids[i] = r->kind == BENCH_PD ? prm_get(out, PRM_PD_OUT) :
		    prm_get(out, PRM_ALLOC_FC_OUT_ID);
	return obj;
}

static void *alloc_or_die(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		bench_die("calloc", ENOMEM);
	return p;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct bench_run *bench_setup(struct ibv_context *ctx, enum bench_kind kind,
			      size_t n)
{
	struct mlx5dv_export_sizes sizes;
	struct bench_run *r;
	uint8_t *ours, *base;
	double t0;
	size_t i;

	mlx5dv_get_export_sizes(&sizes);
	r = alloc_or_die(1, sizeof(*r));
	r->ctx = ctx;
	r->kind = kind;
	r->n = n;
	r->objs = alloc_or_die(n, sizeof(*r->objs));
	r->ids = alloc_or_die(n, sizeof(*r->ids));
	r->blobs = alloc_or_die(n, sizeof(*r->blobs));
	r->base_blobs = alloc_or_die(n, sizeof(*r->base_blobs));
	r->imported = alloc_or_die(n, sizeof(*r->imported));
	r->errs = alloc_or_die(n, sizeof(*r->errs));
	ours = alloc_or_die(n, sizes.devx_obj_attrs_size);
	base = alloc_or_die(n, BASE_BLOB_SIZE);
	for (i = 0; i < n; i++) {
		r->blobs[i] = ours + i * sizes.devx_obj_attrs_size;
		r->base_blobs[i] = base + i * BASE_BLOB_SIZE;
	}

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		r->objs[i] = create_one(r, i);
		if (!r->objs[i]) {
			r->n = i;
			bench_teardown(r);
			return NULL;
		}
	}
	r->create_ns = (now_ns() - t0) / n;
	return r;
}

void bench_teardown(struct bench_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		mlx5dv_devx_obj_destroy(r->objs[i]);
	if (r->blobs)
		free(r->blobs[0]);
	if (r->base_blobs)
		free(r->base_blobs[0]);
	free(r->objs);
	free(r->ids);
	free(r->blobs);
	free(r->base_blobs);
	free(r->imported);
	free(r->errs);
	free(r);
}

size_t bench_query_calls(const struct bench_run *r, size_t n)
{
	/* An INFO_HANDLES answer is O(live objects): a sample is enough. */
	if (r->kind == BENCH_PD)
		return n < 200 ? n : 200;
	return n;
}

int bench_query(struct bench_run *r, size_t i)
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = { 0 }, out[PRM_QUERY_FC_OUT_LEN];
	uint32_t *handles = NULL;
	size_t count;
	int ret;

	if (r->kind == BENCH_PD) {
		ret = info_handles_list(r->ctx->cmd_fd, RDMA_DRIVER_MLX5,
					MLX5_IB_OBJECT_DEVX_OBJ, &handles,
					&count);
		free(handles);
		/* E2BIG: more live handles than one answer holds. */
		return ret == E2BIG ? 0 : ret;
	}
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, r->ids[i]);
	return mlx5dv_devx_obj_query(r->objs[i], in, sizeof(in), out,
				     sizeof(out));
}
