/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the export/import functions of every object kind have in common:
 * the argument, layout and device checks that come before any field of a
 * private object is read or any memory is allocated.
 */
#ifndef MLX5_SHARE_SHARE_H
#define MLX5_SHARE_SHARE_H

#include <errno.h>
#include <stdlib.h>
#include <infiniband/verbs.h>

#include "blob.h"
#include "device_id.h"
#include "import_policy.h"
#include "layout.h"

/* Marks the functions the version script exports (-fvisibility=hidden). */
#define MLX5_SHARE_EXPORT __attribute__((visibility("default")))

/* Sets errno to err and returns it: export's convention. */
int share_fail(int err);

/* Fills b's body fields from a private object; returns its context. */
typedef struct ibv_context *(*share_to_blob_fn)(const void *obj,
						 struct blob *b);

/* Fills a new, zeroed private object of ctx from a checked blob. */
typedef void (*share_from_blob_fn)(void *obj, struct ibv_context *ctx,
				   const struct blob *b);

/*
 * The object's serial for its blob (b->serial), asked of the kernel once
 * (handle_query.h) for the handle b's body names (b->kind and the body
 * filled): 0 when the kernel has no DEVX handle query or the context no
 * command fd, else ENOENT when the handle no longer holds the object b
 * describes (import_policy_judge()), EBUSY or the kernel's errno.
 */
int share_export_serial(struct ibv_context *ctx, struct blob *b);

/*
 * An export: the arguments (EINVAL) and the loaded layout are checked
 * before to_blob reads any field of obj, then the kernel is asked for the
 * object's serial, then the blob of kind, bound to the object's device,
 * is written to data.  Returns 0, or share_fail()'s errno; data is
 * written only on success.  Inline, so that each kind's to_blob is too:
 * export is a hot path.
 */
static inline int share_export(const void *obj, void *data,
			       enum blob_kind kind, share_to_blob_fn to_blob)
{
	struct blob_device dev;
	struct ibv_context *ctx;
	struct blob b = { 0 };
	int ret;

	if (!obj || !data)
		return share_fail(EINVAL);
	ret = layout_check();
	if (ret)
		return share_fail(ret);
	/* A failed vhca_id query fails the export: data stays untouched. */
	ctx = to_blob(obj, &b);
	ret = device_id_get(ctx, &dev);
	if (ret)
		return share_fail(ret);
	b.kind = kind;
	b.version = BLOB_FORMAT_VERSION;
	blob_set_device(&b, &dev);
	ret = share_export_serial(ctx, &b);
	if (ret)
		return share_fail(ret);
	blob_encode(&b, data);
	return 0;
}

/*
 * Import's checks, in order: arguments (EINVAL), loaded layout
 * (EOPNOTSUPP), the blob itself (blob_decode's errno), and the device
 * (EXDEV; a failed vhca_id query of the importing device fails with its
 * errno, device_id.h).  Returns 0 and fills *b, or a positive errno.
 */
int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b);

/*
 * The kernel's word on a decoded blob's handle through the DEVX handle
 * query of fd's uverbs file: 0 (the handle holds the object the blob
 * describes), ENOENT, EINVAL (import_policy_judge()), EBUSY, another
 * kernel errno, or HANDLE_QUERY_ABSENT (ask as a kernel without the
 * method allows: live_check.h).  A handle that is not a DEVX object,
 * UMEM or VAR (the kernel's EINVAL) is ENOENT: no such object is there.
 */
int share_judge_handle(int fd, const struct blob *b);

/* share_judge_handle() of the kernel's answer ret (0: k) for b. */
int share_judge_answer(const struct blob *b, int ret,
		       const struct mlx5_ib_devx_handle_info *k);

/*
 * An import: share_decode(), then the kernel's word on the handle (the
 * DEVX handle query, else live_check.h), then a zeroed struct of size
 * bytes that from_blob fills.  Returns it with errno as the caller left
 * it, or NULL with errno set.
 */
void *share_import(struct ibv_context *ctx, const void *data,
		   enum blob_kind kind, size_t size,
		   share_from_blob_fn from_blob);

/*
 * Each kind's file (devx_obj_share.c, umem_share.c, var_share.c) writes
 * its public export, import and unimport out, through share_export() and
 * share_import() with its static to_blob() and from_blob(); its private
 * struct starts with the public one.
 */

struct mlx5dv_devx_obj;

/*
 * A new struct mlx5dv_devx_obj of ctx with the fields a decoded DEVX_OBJ
 * blob carries, as mlx5dv_devx_obj_create() would have built it.  Returns
 * NULL when out of memory.
 */
struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b);

#endif
