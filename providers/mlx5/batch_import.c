// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The batch import (mlx5_share_batch.h).  Each blob goes through the same
 * steps as mlx5dv_devx_obj_import(), in the same order, so that the
 * errors are the same; only the kernel is asked differently.
 *
 * With the kernel's DEVX handle query (handle_query.h): the decoded blobs'
 * handles go to it MLX5_IB_DEVX_QUERY_HANDLES_MAX at a time, one call per
 * chunk, and each answer is judged as the single import judges its own
 * (share_judge_answer).  A chunk the kernel refuses because of one handle
 * (ENOENT, EINVAL, EBUSY) is asked again one handle at a time, so that
 * only the blobs it concerns fail, each with its single import's errno.
 *
 * Without it, the checks of such a kernel:
 *
 *   single import   INFO_HANDLES on each call, a linear scan of the answer
 *   batch import    INFO_HANDLES once, on the first blob that needs it,
 *                   then a binary search of the sorted answer per blob
 *
 * Which blobs need the list and which query confirms their id is
 * import_policy.h's table, read through live_check_devx_obj_via() exactly
 * as the single import reads it; only the liveness answer comes from the
 * list here.  Types whose query proves a live DEVX object by itself
 * (flow counters, general objects...) never need it.
 *
 * Cost for N blobs with L live DEVX objects: one INFO_HANDLES (O(L)),
 * O(N log L) lookups, and one query ioctl per object whose type has one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#include "handle_query.h"
#include "info_handles.h"
#include "layout.h"
#include "live_check.h"
#include "mlx5_share_batch.h"
#include "rdma_uapi_compat.h"
#include "share.h"

/* The live DEVX object handles of the ufile, fetched once per batch. */
struct live_list {
	bool fetched;
	int err;		/* 0, or the errno every lookup returns */
	bool complete;		/* false: the kernel could not list them all */
	uint32_t *handles;	/* sorted ascending */
	size_t count;
};

static void live_list_fetch(struct live_list *l, int fd)
{
	int ret;

	l->fetched = true;
	l->complete = true;
	ret = info_handles_list(fd, RDMA_DRIVER_MLX5, MLX5_IB_OBJECT_DEVX_OBJ,
				&l->handles, &l->count);
	switch (ret) {
	case 0:
		break;
	/*
	 * As live_check's handle_is_live(): a kernel without INFO_HANDLES,
	 * or more live objects than one answer holds, cannot tell, and the
	 * blob's own checks stand alone.
	 */
	case EOPNOTSUPP:
	case E2BIG:
		l->complete = false;
		break;
	default:
		l->err = ret;
		break;
	}
}

static bool sorted_contains(const uint32_t *v, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] == key)
			return true;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* live_check's liveness question, answered from the batch's list. */
static int live_list_lookup(void *arg, int fd, uint32_t handle)
{
	struct live_list *l = arg;

	if (!l->fetched)
		live_list_fetch(l, fd);
	if (l->err)
		return l->err;
	if (!l->complete)
		return 0;
	return sorted_contains(l->handles, l->count, handle) ? 0 : ENOENT;
}

/*
 * A chunk: up to MLX5_IB_DEVX_QUERY_HANDLES_MAX decoded blobs whose
 * handles go to the kernel's DEVX handle query in one call.
 */
struct chunk {
	size_t n;
	size_t *index;		/* the blob's place in the batch */
	struct blob *b;
	uint32_t *handles;
	struct mlx5_ib_devx_handle_info *info;
};

static int chunk_alloc(struct chunk *c, size_t cap)
{
	c->n = 0;
	c->index = calloc(cap, sizeof(*c->index));
	c->b = calloc(cap, sizeof(*c->b));
	c->handles = calloc(cap, sizeof(*c->handles));
	c->info = calloc(cap, sizeof(*c->info));
	return c->index && c->b && c->handles && c->info ? 0 : ENOMEM;
}

static void chunk_free(struct chunk *c)
{
	free(c->index);
	free(c->b);
	free(c->handles);
	free(c->info);
}

/* The liveness and id checks of a kernel without the handle query. */
static int judge_without(struct ibv_context *ctx, const struct blob *b,
			 struct live_list *l)
{
	return live_check_devx_obj_via(ctx, b->handle, b->obj.type,
				       b->obj.object_id, live_list_lookup, l);
}

/*
 * The kernel's word on every blob of the chunk, into errs: one call for
 * the chunk; when it fails for one of its handles (dead, not a DEVX
 * object, or still held exclusive after the retries), one call per
 * handle, so that each blob gets what its single import would.
 */
static void chunk_judge(struct ibv_context *ctx, struct chunk *c,
			struct live_list *l, int *errs)
{
	int fd = ctx->cmd_fd, ret;
	size_t i;

	ret = handle_query(fd, c->handles, c->n, c->info);
	for (i = 0; i < c->n; i++) {
		int *err = &errs[c->index[i]];

		switch (ret) {
		case ENOENT:
		case EINVAL:
		case EBUSY:
			*err = share_judge_handle(fd, &c->b[i]);
			break;
		default:
			*err = share_judge_answer(&c->b[i], ret, &c->info[i]);
			break;
		}
		if (*err == HANDLE_QUERY_ABSENT)
			*err = judge_without(ctx, &c->b[i], l);
	}
}

/* Imports the chunk's blobs the kernel vouched for; empties it. */
static void chunk_import(struct ibv_context *ctx, struct chunk *c,
			 struct live_list *l, struct mlx5dv_devx_obj **objs,
			 int *errs)
{
	size_t i, at;

	if (!c->n)
		return;
	if (ctx->cmd_fd >= 0)
		chunk_judge(ctx, c, l, errs);
	for (i = 0; i < c->n; i++) {
		at = c->index[i];
		if (ctx->cmd_fd < 0)
			errs[at] = judge_without(ctx, &c->b[i], l);
		if (errs[at])
			continue;
		objs[at] = share_devx_obj_new(ctx, &c->b[i]);
		if (!objs[at])
			errs[at] = ENOMEM;
	}
	c->n = 0;
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

MLX5_SHARE_EXPORT
int mlx5share_devx_obj_import_batch(struct ibv_context *context,
				    void *const *blobs, size_t n,
				    struct mlx5dv_devx_obj **objs, int *errs)
{
	size_t cap = min_size(n, MLX5_IB_DEVX_QUERY_HANDLES_MAX);
	struct live_list l = { 0 };
	int done = 0, saved = errno, ret = 0;
	struct chunk c = { 0 };
	size_t i;

	if (!context || (n && (!blobs || !objs || !errs)) || n > INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (cap)
		ret = chunk_alloc(&c, cap);

	for (i = 0; i < n; i++) {
		objs[i] = NULL;
		errs[i] = ret ? ret : share_decode(context, blobs[i],
						   BLOB_KIND_DEVX_OBJ,
						   &c.b[c.n]);
		if (errs[i])
			continue;
		c.index[c.n] = i;
		c.handles[c.n] = c.b[c.n].handle;
		if (++c.n == cap)
			chunk_import(context, &c, &l, objs, errs);
	}
	if (!ret)
		chunk_import(context, &c, &l, objs, errs);
	for (i = 0; i < n; i++)
		if (!errs[i])
			done++;
	chunk_free(&c);
	free(l.handles);
	errno = saved;	/* per-blob errors are in errs[], not errno */
	return done;
}
