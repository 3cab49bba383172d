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
#include <string.h>
#include <infiniband/verbs.h>

#include "blob.h"
#include "boot_id.h"
#include "ctx_cache.h"
#include "device_id.h"
#include "file_id.h"
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
 * The verbs file id an export of ctx writes (file_id.h): 0 also for a
 * context without a command fd (VFIO mode), whose blobs no import takes.
 * 0, or the query's errno.
 */
int share_file_id(struct ibv_context *ctx, uint64_t *id);

/*
 * Export's identities of ctx asked one by one, as device_id_get(),
 * boot_id_get() and share_file_id() give them (the first failure's errno
 * is returned), and kept in ctx's entry of ctx_cache.h once all three
 * are answers that stay (share_bind()).
 */
int share_export_identity(struct ibv_context *ctx, struct blob_device *dev,
			  uint8_t boot[BLOB_BOOT_ID_LEN], uint64_t *file_id);

/*
 * An export: the arguments (EINVAL) and the loaded layout are checked
 * before to_blob reads any field of obj, then the blob of kind, bound to
 * the object's device, to this boot of the kernel and to its context's
 * verbs file (device_id.h, boot_id.h, file_id.h: an identity that cannot
 * be had fails the export with its errno; each is asked of the kernel
 * once, so an export makes no kernel call once its context has made
 * one, and once all three are known they are read from the context's
 * one cache entry, ctx_cache.h), is written to data.  Returns 0, or
 * share_fail()'s errno; data is written only on success.  Inline, so
 * that each kind's to_blob is too: export is a hot path.
 */
static inline int share_export(const void *obj, void *data,
			       enum blob_kind kind, share_to_blob_fn to_blob)
{
	const struct ctx_ident *known;
	struct blob_device dev;
	struct ibv_context *ctx;
	struct blob b = { 0 };
	int ret;

	if (!obj || !data)
		return share_fail(EINVAL);
	ret = layout_check();
	if (ret)
		return share_fail(ret);
	ctx = to_blob(obj, &b);
	known = ctx ? ctx_cache_find(ctx) : NULL;
	if (known && known->bound) {
		dev = known->dev;
		memcpy(b.boot_id, known->boot_id, sizeof(b.boot_id));
		b.file_id = known->file_id;
	} else {
		/* A failed vhca_id query fails it: data stays untouched. */
		ret = share_export_identity(ctx, &dev, b.boot_id, &b.file_id);
		if (ret)
			return share_fail(ret);
	}
	b.kind = kind;
	b.version = BLOB_FORMAT_VERSION;
	blob_set_device(&b, &dev);
	blob_encode(&b, data);
	return 0;
}

/*
 * Import's checks, in order: arguments (EINVAL), loaded layout
 * (EOPNOTSUPP), the blob itself (blob_decode's errno), its fields'
 * bounds (import_policy_bounds(), EINVAL), the device (EXDEV; a failed
 * vhca_id query of the importing device fails with its errno,
 * device_id.h), the boot (ESTALE: made in another boot of the kernel; a
 * boot id that cannot be read fails with its errno, boot_id.h), then
 * what the importing context's verbs file id proves of the blob
 * (import_policy_file(); the id's query fails with its errno, a context
 * without a command fd, VFIO mode, with EOPNOTSUPP).  Returns 0 and
 * fills *b (a kernel with file ids and the blob's file is ctx's: its
 * handle names the exported object or nothing, no kernel call needed),
 * IMPORT_UNDECIDED with *b filled (a kernel without file ids: ask it as
 * live_check.h does), or a positive errno.  Once ctx's identities are all
 * known (ctx_cache.h) they are read from its one cache entry.
 */
int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b);

/*
 * What a kernel without file ids says of a decoded blob's handle in
 * ctx's verbs file: is it a live object of the kind, and where
 * import_policy.h has a query, the exported id?  0 or an errno.
 */
int share_live(struct ibv_context *ctx, const struct blob *b);

/*
 * An import: share_decode() and, on a kernel without file ids, the
 * checks of live_check.h, then a zeroed struct of size bytes that
 * from_blob fills.  Returns it with errno as the caller left it, or NULL
 * with errno set.  Inline, as share_export() is.
 */
static inline void *share_import(struct ibv_context *ctx, const void *data,
				 enum blob_kind kind, size_t size,
				 share_from_blob_fn from_blob)
{
	int ret, saved = errno;
	struct blob b;
	void *obj;

	ret = share_decode(ctx, data, kind, &b);
	if (ret == IMPORT_UNDECIDED)
		ret = share_live(ctx, &b);
	if (ret) {
		errno = ret;
		return NULL;
	}
	obj = calloc(1, size);
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	from_blob(obj, ctx, &b);
	errno = saved;	/* the kernel's answers along the way are not ours */
	return obj;
}

/*
 * Each kind's file (devx_obj_share.c, umem_share.c, var_share.c) writes
 * its public export, import and unimport out, through share_export() and
 * share_import() with its static to_blob() and from_blob(); its private
 * struct starts with the public one.
 */

struct mlx5dv_devx_obj;

/*
 * A new struct mlx5dv_devx_obj of ctx with the fields a decoded DEVX_OBJ
 * blob carries, as mlx5dv_devx_obj_create() would have built it.
 * Returns NULL when out of memory.
 */
struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b);

#endif
