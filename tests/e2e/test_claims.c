// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What import proves, kind by kind, as mlx5-share(7) states it, and what
 * it cannot: each statement of the man page's "WHAT IMPORT PROVES" has
 * its check here.
 *
 * On a kernel without the verbs file id (every released kernel):
 *   flow counter (id confirmed)  a destroyed counter's blob fails with
 *       ENOENT also when a new counter took its handle (another id)
 *   untyped DEVX object (liveness and type only)  a destroyed object's
 *       blob imports when a new object of the same kind took its handle:
 *       the limit, asserted so that it stays documented
 *   UMEM, VAR (liveness and type only)  the same
 *   any kind  a handle no longer live fails with ENOENT
 * On a kernel with it (series v3): import asks nothing; a new object
 * never takes a destroyed one's handle, so a destroyed object's blob
 * imports into a struct whose first command fails with ENOENT, every
 * kind (a VAR's mmap_off maps nothing: e2e_identity).
 *
 * And the other way round (creator_stale()): the importer destroys the
 * object through its imported struct and makes a new one; the creator's
 * own struct, kept, then destroys the new object on a kernel without the
 * file id (same handle), and fails with ENOENT on one with it, leaving
 * the new object alive.  A DEVX object (a flow counter, then a PD) and a
 * UMEM.
 *
 * Registered twice: e2e_claims (mlx5-emu's default, unique handles and
 * the file id) and e2e_claims_lowest_free (--handles=lowest-free).
 *
 * And errno: every public function, on success, leaves errno as it
 * found it, from the very first call of the process on (the one-time
 * layout check, the device identity query and the kernel's answers along
 * the way included).
 */
#include <errno.h>
#include <endian.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "blob.h"
#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "file_id_probe.h"

#define NAME "e2e_claims"
#define SENTINEL 4242

static uint32_t handle_of(const uint8_t *blob, enum blob_kind kind)
{
	struct blob b;

	REQUIRE(blob_decode(blob, BLOB_MAX_SIZE, kind, &b) == 0);
	return b.handle;
}

/*
 * Exports obj into blob, imports the blob in ctx and unimports that, with
 * the kind's three functions: each succeeds and leaves errno as it was.
 */
#define CHECK_SHARE_KEEPS_ERRNO(ctx, obj, blob, export, import, unimport) \
	do {								  \
		void *_imported;					  \
									  \
		errno = SENTINEL;					  \
		CHECK_EQ(export(obj, blob), 0);				  \
		CHECK_EQ(errno, SENTINEL);				  \
		_imported = import(ctx, blob);				  \
		CHECK(_imported != NULL);				  \
		CHECK_EQ(errno, SENTINEL);				  \
		unimport(_imported);					  \
		CHECK_EQ(errno, SENTINEL);				  \
	} while (0)

/* Does this kernel report the verbs file id (series v3)? */
static bool file_ids;

/*
 * The limit of a kind whose import proves liveness and type only on a
 * kernel without the verbs file id: blob, its object gone, is refused
 * with ENOENT until new = make (an object of the same kind, exported into
 * nblob) takes its handle; then it imports, into imp.  With the file id
 * nothing is asked: blob imports before and after, and new has another
 * handle, so imp reaches nothing (the caller checks its first command).
 */
#define CHECK_STALE_ALIASES(ctx, kind, blob, nblob, new, make, export,	  \
			    import, unimport, imp)			  \
	do {								  \
		imp = import(ctx, blob);				  \
		if (file_ids)						  \
			CHECK(imp != NULL);				  \
		else							  \
			CHECK(imp == NULL && errno == ENOENT);		  \
		if (imp)						  \
			unimport(imp);					  \
		new = make;						  \
		REQUIRE(new);						  \
		REQUIRE(export(new, nblob) == 0);			  \
		if (file_ids)						  \
			CHECK(handle_of(nblob, kind) !=			  \
			      handle_of(blob, kind));			  \
		else							  \
			CHECK_EQ(handle_of(nblob, kind),		  \
				 handle_of(blob, kind));		  \
		imp = import(ctx, blob);				  \
		CHECK(imp != NULL);					  \
	} while (0)

/* A DEVX object struct's first command: 0 or the kernel's errno. */
static int obj_command(struct mlx5dv_devx_obj *obj)
{
	uint32_t in[4] = { 0 }, out[4];

	return mlx5dv_devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
}

/* Every public function's success keeps errno; the first call included. */
static void errno_kept(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *fc, *pd, *imp, *objs[2];
	struct mlx5dv_export_sizes sizes;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;
	uint8_t fblob[E2E_BLOB_MAX], pblob[E2E_BLOB_MAX];
	uint8_t ublob[E2E_BLOB_MAX], vblob[E2E_BLOB_MAX];
	struct ibv_context fake;
	void *blobs[2] = { fblob, pblob };
	long page = sysconf(_SC_PAGESIZE);
	int errs[2];
	uint32_t id;
	void *buf;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	/* The first call into the library of this process. */
	errno = SENTINEL;
	CHECK_EQ(mlx5dv_devx_obj_export(fc, fblob), 0);
	CHECK_EQ(errno, SENTINEL);

	errno = SENTINEL;
	_mlx5dv_get_export_sizes(&sizes, sizeof(sizes));
	CHECK_EQ(errno, SENTINEL);

	pd = pd_alloc(ctx, NULL);
	REQUIRE(pd);
	errno = SENTINEL;
	CHECK_EQ(mlx5dv_devx_obj_export(pd, pblob), 0);
	CHECK_EQ(errno, SENTINEL);
	imp = mlx5dv_devx_obj_import(ctx, fblob);	/* the id query */
	CHECK(imp != NULL);
	CHECK_EQ(errno, SENTINEL);
	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(errno, SENTINEL);
	imp = mlx5dv_devx_obj_import(ctx, pblob);	/* INFO_HANDLES */
	CHECK(imp != NULL);
	CHECK_EQ(errno, SENTINEL);
	mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, blobs, 2, objs, errs),
		 2);
	CHECK_EQ(errno, SENTINEL);
	mlx5dv_devx_obj_unimport(objs[0]);
	mlx5dv_devx_obj_unimport(objs[1]);
	/* A batch with a failed blob: the error is in errs[], not errno. */
	blobs[1] = NULL;
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, blobs, 2, objs, errs),
		 1);
	CHECK_EQ(errs[1], EINVAL);
	CHECK_EQ(errno, SENTINEL);
	mlx5dv_devx_obj_unimport(objs[0]);

	/*
	 * A command fd without QUERY_CONTEXT or INFO_HANDLES (ENOTTY
	 * inside): no file id, so import falls back to the blob's checks
	 * and succeeds, errno untouched; a blob that has a file id names
	 * another file: EXDEV.
	 */
	fake = *ctx;
	fake.cmd_fd = open("/dev/null", O_RDWR);
	REQUIRE(fake.cmd_fd >= 0);
	errno = SENTINEL;
	imp = mlx5dv_devx_obj_import(&fake, pblob);
	if (file_ids) {
		CHECK(imp == NULL && errno == EXDEV);
	} else {
		CHECK(imp != NULL);
		CHECK_EQ(errno, SENTINEL);
		mlx5dv_devx_obj_unimport(imp);
	}
	close(fake.cmd_fd);

	REQUIRE(posix_memalign(&buf, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	CHECK_SHARE_KEEPS_ERRNO(ctx, umem, ublob, mlx5dv_devx_umem_export,
				mlx5dv_devx_umem_import,
				mlx5dv_devx_umem_unimport);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);

	var = mlx5dv_alloc_var(ctx, 0);
	if (var) {
		CHECK_SHARE_KEEPS_ERRNO(ctx, var, vblob, mlx5dv_var_export,
					mlx5dv_var_import,
					mlx5dv_var_unimport);
		mlx5dv_free_var(var);
	}

	CHECK_EQ(mlx5dv_devx_obj_destroy(pd), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

/* A flow counter's id is confirmed: a reused handle is caught. */
static void counter_reused(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *old, *new;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];
	uint32_t id, nid;

	struct mlx5dv_devx_obj *imp;

	old = e2e_fc_exported(ctx, &id, blob);
	REQUIRE(mlx5dv_devx_obj_destroy(old) == 0);
	new = e2e_fc_exported(ctx, &nid, nblob);
	CHECK(nid != id);
	if (file_ids) {
		/* Another handle: the stale struct reaches nothing. */
		CHECK(handle_of(nblob, BLOB_KIND_DEVX_OBJ) !=
		      handle_of(blob, BLOB_KIND_DEVX_OBJ));
		imp = mlx5dv_devx_obj_import(ctx, blob);
		REQUIRE(imp);
		CHECK_EQ(obj_command(imp), ENOENT);
		mlx5dv_devx_obj_unimport(imp);
	} else {
		/* The new counter took the handle, with another id. */
		CHECK_EQ(handle_of(nblob, BLOB_KIND_DEVX_OBJ),
			 handle_of(blob, BLOB_KIND_DEVX_OBJ));
		CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, blob), ENOENT);
	}
	CHECK_EQ(mlx5dv_devx_obj_destroy(new), 0);
}

/* Untyped DEVX objects: liveness and type only; the limit, asserted. */
static void untyped_reused(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *old, *new, *imp;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];

	old = pd_alloc(ctx, NULL);
	REQUIRE(old);
	e2e_export(old, blob);
	REQUIRE(mlx5dv_devx_obj_destroy(old) == 0);
	/* The stale blob names the new PD, and import cannot tell. */
	CHECK_STALE_ALIASES(ctx, BLOB_KIND_DEVX_OBJ, blob, nblob, new,
			    pd_alloc(ctx, NULL), mlx5dv_devx_obj_export,
			    mlx5dv_devx_obj_import, mlx5dv_devx_obj_unimport,
			    imp);
	if (imp && file_ids)
		CHECK_EQ(obj_command(imp), ENOENT);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(new), 0);
}

/* UMEMs: liveness and type only; a reused handle imports. */
static void umem_reused(struct ibv_context *ctx)
{
	struct mlx5dv_devx_umem *old, *new, *imp;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];
	long page = sysconf(_SC_PAGESIZE);
	void *a, *b;

	REQUIRE(posix_memalign(&a, page, page) == 0);
	REQUIRE(posix_memalign(&b, page, page) == 0);
	old = mlx5dv_devx_umem_reg(ctx, a, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(old);
	REQUIRE(mlx5dv_devx_umem_export(old, blob) == 0);
	REQUIRE(mlx5dv_devx_umem_dereg(old) == 0);
	CHECK_STALE_ALIASES(ctx, BLOB_KIND_DEVX_UMEM, blob, nblob, new,
			    mlx5dv_devx_umem_reg(ctx, b, page,
						 IBV_ACCESS_LOCAL_WRITE),
			    mlx5dv_devx_umem_export, mlx5dv_devx_umem_import,
			    mlx5dv_devx_umem_unimport, imp);
	/* a dereg the kernel refuses keeps the struct */
	if (imp && file_ids)
		CHECK_EQ(mlx5dv_devx_umem_dereg(imp), ENOENT);
	if (imp) {
		/* the stale blob's umem_id, the new registration's handle */
		CHECK_EQ(imp->umem_id, blob[52] | blob[53] << 8 |
			 blob[54] << 16 | (uint32_t)blob[55] << 24);
		mlx5dv_devx_umem_unimport(imp);
	}
	CHECK_EQ(mlx5dv_devx_umem_dereg(new), 0);
	free(a);
	free(b);
}

/* VARs: liveness and type only; a reused handle imports. */
static void var_reused(struct ibv_context *ctx)
{
	struct mlx5dv_var *old, *new, *imp;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];

	old = mlx5dv_alloc_var(ctx, 0);
	if (!old) {
		printf("%s: no VAR on this device: VAR claims not checked\n",
		       NAME);
		return;
	}
	REQUIRE(mlx5dv_var_export(old, blob) == 0);
	mlx5dv_free_var(old);
	CHECK_STALE_ALIASES(ctx, BLOB_KIND_VAR, blob, nblob, new,
			    mlx5dv_alloc_var(ctx, 0), mlx5dv_var_export,
			    mlx5dv_var_import, mlx5dv_var_unimport, imp);
	if (imp)
		mlx5dv_var_unimport(imp);
	mlx5dv_free_var(new);
}

/*
 * The creator's stale struct: obj (exported into blob) is destroyed by
 * its importer, which makes nobj; then obj's destroy, through the
 * creator's struct.
 */
static void creator_stale(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *obj, *imp, *nobj;
	struct mlx5dv_devx_umem *umem, *uimp, *numem;
	uint8_t blob[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];
	long page = sysconf(_SC_PAGESIZE);
	void *a, *b;
	uint32_t id;

	obj = e2e_fc_exported(ctx, &id, blob);
	imp = mlx5dv_devx_obj_import(ctx, blob);
	REQUIRE(imp);
	REQUIRE(mlx5dv_devx_obj_destroy(imp) == 0);	/* the importer */
	nobj = pd_alloc(ctx, NULL);
	REQUIRE(nobj);
	e2e_export(nobj, nblob);
	if (file_ids) {
		CHECK(handle_of(nblob, BLOB_KIND_DEVX_OBJ) !=
		      handle_of(blob, BLOB_KIND_DEVX_OBJ));
		CHECK_EQ(mlx5dv_devx_obj_destroy(obj), ENOENT);
		mlx5dv_devx_obj_unimport(obj);	/* kept by the failure */
		CHECK_EQ(mlx5dv_devx_obj_destroy(nobj), 0);
	} else {
		/* The creator's struct destroys the importer's new PD. */
		CHECK_EQ(handle_of(nblob, BLOB_KIND_DEVX_OBJ),
			 handle_of(blob, BLOB_KIND_DEVX_OBJ));
		CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
		CHECK_EQ(mlx5dv_devx_obj_destroy(nobj), ENOENT);
		mlx5dv_devx_obj_unimport(nobj);
	}

	REQUIRE(posix_memalign(&a, page, page) == 0);
	REQUIRE(posix_memalign(&b, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, a, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, blob) == 0);
	uimp = mlx5dv_devx_umem_import(ctx, blob);
	REQUIRE(uimp);
	REQUIRE(mlx5dv_devx_umem_dereg(uimp) == 0);	/* the importer */
	numem = mlx5dv_devx_umem_reg(ctx, b, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(numem);
	REQUIRE(mlx5dv_devx_umem_export(numem, nblob) == 0);
	if (file_ids) {
		CHECK(handle_of(nblob, BLOB_KIND_DEVX_UMEM) !=
		      handle_of(blob, BLOB_KIND_DEVX_UMEM));
		CHECK_EQ(mlx5dv_devx_umem_dereg(umem), ENOENT);
		mlx5dv_devx_umem_unimport(umem);
		CHECK_EQ(mlx5dv_devx_umem_dereg(numem), 0);
	} else {
		CHECK_EQ(handle_of(nblob, BLOB_KIND_DEVX_UMEM),
			 handle_of(blob, BLOB_KIND_DEVX_UMEM));
		CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
		CHECK_EQ(mlx5dv_devx_umem_dereg(numem), ENOENT);
		mlx5dv_devx_umem_unimport(numem);
	}
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;

	e2e_init(argc, argv, NAME);
	ctx = e2e_open(0);
	file_ids = file_id_expected(ctx->cmd_fd);
	errno_kept(ctx);	/* first: the process's first library calls */
	counter_reused(ctx);
	untyped_reused(ctx);
	umem_reused(ctx);
	var_reused(ctx);
	creator_stale(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
