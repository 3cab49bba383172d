// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The batch import (mlx5_share_batch.h).  Each blob goes through the same
 * steps as mlx5dv_devx_obj_import(), in the same order, so that the
 * errors are the same; only the kernel is asked differently.
 *
 * On a kernel that reports the verbs file's id (file_id.h): no kernel
 * call at all, each blob judged by its file id as the single import
 * judges its own (share_decode()).
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

#include "info_handles.h"
#include "live_check.h"
#include "mlx5_share_batch.h"
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
 * The kernel's word on one blob that share_decode() left undecided (a
 * kernel without file ids), as its single import gets it, but from the
 * batch's list and the id query.
 */
static int judge(struct ibv_context *ctx, const struct blob *b,
		 struct live_list *l)
{
	return live_check_devx_obj_via(ctx, b->handle, b->obj.type,
				       b->obj.object_id, live_list_lookup, l);
}

MLX5_SHARE_EXPORT
int mlx5share_devx_obj_import_batch(struct ibv_context *context,
				    void *const *blobs, size_t n,
				    struct mlx5dv_devx_obj **objs, int *errs)
{
	struct live_list l = { 0 };
	int done = 0, saved = errno;
	struct blob b;
	size_t i;

	if (!context || (n && (!blobs || !objs || !errs)) || n > INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		objs[i] = NULL;
		errs[i] = share_decode(context, blobs[i], BLOB_KIND_DEVX_OBJ,
				       &b);
		if (errs[i] == IMPORT_UNDECIDED)
			errs[i] = judge(context, &b, &l);
		if (errs[i])
			continue;
		objs[i] = share_devx_obj_new(context, &b);
		if (!objs[i])
			errs[i] = ENOMEM;
		else
			done++;
	}
	free(l.handles);
	errno = saved;	/* per-blob errors are in errs[], not errno */
	return done;
}
