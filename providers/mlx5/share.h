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
#include "boot_id.h"
#include "device_id.h"
#include "import_policy.h"
#include "import_tag.h"
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
 * The object's cookie for its blob (b->cookie), asked of the kernel once
 * (handle_query.h) for the handle b's body names (b->kind and the body
 * filled).  tag: what obj keeps of its import (import_tag.h), 0 for an
 * object this process created.  0 with cookie 0 when the kernel has no
 * core handle query or the context no command fd; else 0, ENOENT (no
 * live object of the kind under the handle, or, for an imported object,
 * another object than the one it was imported as) or the kernel's errno.
 */
int share_export_cookie(struct ibv_context *ctx, struct blob *b,
			uint64_t tag);

/*
 * An export: the arguments (EINVAL) and the loaded layout are checked
 * before to_blob reads any field of obj, then the kernel is asked for the
 * object's cookie, then the blob of kind, bound to the object's device
 * and to this boot of the kernel (boot_id.h: a boot id that cannot be
 * read fails the export with its errno), is written to data.  Returns
 * 0, or share_fail()'s errno; data is written only on success.
 * Inline, so that each kind's to_blob is too: export is a hot path.
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
	if (!ret)
		ret = boot_id_get(b.boot_id);
	if (ret)
		return share_fail(ret);
	b.kind = kind;
	b.version = BLOB_FORMAT_VERSION;
	blob_set_device(&b, &dev);
	ret = share_export_cookie(ctx, &b, import_tag_get(kind, obj));
	if (ret)
		return share_fail(ret);
	blob_encode(&b, data);
	return 0;
}

/*
 * Import's checks, in order: arguments (EINVAL), loaded layout
 * (EOPNOTSUPP), the blob itself (blob_decode's errno), its fields'
 * bounds (import_policy_bounds(), EINVAL), the device (EXDEV; a failed
 * vhca_id query of the importing device fails with its errno,
 * device_id.h), and the boot (ESTALE: made in another boot of the
 * kernel; a boot id that cannot be read fails with its errno,
 * boot_id.h).  Returns 0 and fills *b, or a positive errno.
 */
int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b);

/*
 * The kernel's word on a decoded blob's handle through the core handle
 * query of fd's uverbs file: 0 (the handle holds the very object the
 * blob was exported from; *cookie gets its cookie), EPROTO or ENOENT
 * (import_policy_judge()), another kernel errno, or HANDLE_QUERY_ABSENT
 * (ask as a kernel without the method allows: live_check.h).  A type
 * the device does not know (the kernel's EINVAL: a VAR where there are
 * none) is ENOENT: no such object is there.
 */
int share_judge_handle(int fd, const struct blob *b, uint64_t *cookie);

/*
 * An import: share_decode(), then the kernel's word on the handle (the
 * core handle query, else live_check.h), then a zeroed struct of size
 * bytes that from_blob fills and that keeps the object's cookie
 * (import_tag.h).  Returns it with errno as the caller left it, or NULL
 * with errno set.
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
 * blob carries, as mlx5dv_devx_obj_create() would have built it, keeping
 * cookie (import_tag.h; 0: none).  Returns NULL when out of memory.
 */
struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b,
					   uint64_t cookie);

#endif
