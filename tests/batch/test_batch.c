// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5share_devx_obj_import_batch() gives, blob for blob, the objects and
 * the errors that mlx5dv_devx_obj_import() gives, and asks INFO_HANDLES
 * once for the whole batch where single imports ask once per blob.
 *
 * QP and TIR blobs, whose id query a verbs object could answer too, need
 * INFO_HANDLES before it: still once per batch.
 *
 * The batch mixes objects of each kind of check: flow counters (checked
 * by their id query alone), flow meters (general object query), PDs made
 * through DEVX (libmlx5 records no type: INFO_HANDLES only), and every
 * way a blob fails: NULL, damaged, newer version, other kind, other
 * device, destroyed (both kinds of check), and a handle reused by an
 * object of another type.
 *
 * On a kernel that reports the verbs file id (mlx5-emu's default; run
 * again with --handles=lowest-free), no kernel call at all: the retyped
 * QP and TIR blobs import (a type is the exporter's word, mlx5-share(7),
 * WHAT IMPORT PROVES), and so do the destroyed objects' blobs, whose
 * handles no new object takes: their structs reach nothing.
 *
 * INFO_HANDLES and all uverbs calls are counted by interposing ioctl()
 * in this program (ioctl_watch.c, ioctl_watch.h).
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>
#include <infiniband/mlx5_share_batch.h>

#include "blob.h"
#include "import_policy.h"
#include "check.h"
#include "e2e.h"
#include "ioctl_watch.h"
#include "file_id_probe.h"

#define NAME "batch_import"

static unsigned long info_handles_calls, all_calls;
static bool file_ids;	/* the kernel reports the verbs file id */

void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr)
{
	if (hdr && hdr->object_id == UVERBS_OBJECT_DEVICE &&
	    hdr->method_id == UVERBS_METHOD_INFO_HANDLES)
		info_handles_calls++;
	if (hdr)
		all_calls++;
}

static void put_le(uint8_t *p, uint32_t v, int bytes)
{
	while (bytes--) {
		*p++ = v;
		v >>= 8;
	}
}

static void reseal(uint8_t *b)
{
	put_le(b + 12, 0, 4);
	put_le(b + 12, blob_crc32c(b, BLOB_DEVX_OBJ_SIZE), 4);
}

enum { MAX_BLOBS = 128 };

struct batch {
	uint8_t data[MAX_BLOBS][E2E_BLOB_MAX];
	void *blobs[MAX_BLOBS];
	int want[MAX_BLOBS];	/* the errno a single import must give */
	size_t n;
};

static uint8_t *add(struct batch *b)
{
	REQUIRE(b->n < MAX_BLOBS);
	b->blobs[b->n] = b->data[b->n];
	b->want[b->n] = 0;
	return b->data[b->n++];
}

static void add_export(struct batch *b, struct mlx5dv_devx_obj *obj)
{
	e2e_export(obj, add(b));
}

static void expect(struct batch *b, int err)
{
	b->want[b->n - 1] = err;
}

/* The single-import answers, one blob at a time. */
static int single_imports(struct ibv_context *ctx, struct batch *b,
			  int *errs)
{
	struct mlx5dv_devx_obj *obj;
	int ok = 0;
	size_t i;

	for (i = 0; i < b->n; i++) {
		errno = 0;
		obj = mlx5dv_devx_obj_import(ctx, b->blobs[i]);
		errs[i] = obj ? 0 : errno;
		if (obj) {
			ok++;
			mlx5dv_devx_obj_unimport(obj);
		}
	}
	return ok;
}

/* The batch's answers equal the single ones; returns the objects. */
static void compare_batch(struct ibv_context *ctx, struct batch *b,
			  struct mlx5dv_devx_obj **objs, const char *what,
			  bool check_want)
{
	int single[MAX_BLOBS], errs[MAX_BLOBS];
	int n_single, n_batch;
	size_t i;

	n_single = single_imports(ctx, b, single);
	for (i = 0; check_want && i < b->n; i++) {
		if (single[i] != b->want[i])
			fprintf(stderr, "%s: blob %zu: single %d, want %d\n",
				what, i, single[i], b->want[i]);
		CHECK_EQ(single[i], b->want[i]);
	}
	memset(errs, 0x55, sizeof(errs));
	n_batch = mlx5share_devx_obj_import_batch(ctx, b->blobs, b->n, objs,
						  errs);
	CHECK_EQ(n_batch, n_single);
	for (i = 0; i < b->n; i++) {
		if (errs[i] != single[i])
			fprintf(stderr, "%s: blob %zu: batch %d, single %d\n",
				what, i, errs[i], single[i]);
		CHECK_EQ(errs[i], single[i]);
		CHECK(!objs[i] == !!errs[i]);
	}
}

static void unimport_all(struct mlx5dv_devx_obj **objs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mlx5dv_devx_obj_unimport(objs[i]);
}

static void check_arguments(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *objs[1];
	void *blobs[1] = { NULL };
	int errs[1] = { 12345 };

	CHECK_ERRNO(mlx5share_devx_obj_import_batch(NULL, blobs, 1, objs,
						    errs) == -1, EINVAL);
	CHECK_EQ(errs[0], 12345);	/* nothing written */
	CHECK_ERRNO(mlx5share_devx_obj_import_batch(ctx, NULL, 1, objs,
						    errs) == -1, EINVAL);
	CHECK_ERRNO(mlx5share_devx_obj_import_batch(ctx, blobs, 1, NULL,
						    errs) == -1, EINVAL);
	CHECK_ERRNO(mlx5share_devx_obj_import_batch(ctx, blobs, 1, objs,
						    NULL) == -1, EINVAL);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, NULL, 0, NULL, NULL), 0);
	/* A NULL blob is a per-blob error, as for the single import. */
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, blobs, 1, objs, errs),
		 0);
	CHECK_EQ(errs[0], EINVAL);
	CHECK(objs[0] == NULL);
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *objs[MAX_BLOBS], *fcs[8], *pds[40];
	struct mlx5dv_devx_obj *meter = NULL, *gone, *gone_fc, *gone_pd;
	struct mlx5dv_devx_obj *other_obj;
	struct ibv_context *ctx, *other, *imported, fake;
	static struct batch b, fc_only, qp_tir;
	uint32_t fc_ids[8], id;
	unsigned long calls;
	uint8_t *p, out[32];
	size_t i;

	e2e_init(argc, argv, NAME);
	if (e2e_num_devices() < 2)
		check_skip(NAME, "needs two mlx5 devices");
	ctx = e2e_open(0);
	other = e2e_open(1);
	file_ids = file_id_expected(ctx->cmd_fd);
	printf("%s: the kernel %s the verbs file id\n", NAME,
	       file_ids ? "reports" : "does not report");
	check_arguments(ctx);

	for (i = 0; i < 8; i++) {
		fcs[i] = fc_alloc(ctx, &fc_ids[i]);
		REQUIRE(fcs[i]);
		add_export(&b, fcs[i]);
		add_export(&fc_only, fcs[i]);
	}
	for (i = 0; i < 40; i++) {
		pds[i] = pd_alloc(ctx, NULL);
		REQUIRE(pds[i]);
		add_export(&b, pds[i]);
	}
	if (e2e_meter_supported()) {
		meter = meter_create(ctx, &id);
		REQUIRE(meter);
		add_export(&b, meter);
	}

	/* Every way to fail, between the good ones. */
	add(&b);
	b.blobs[b.n - 1] = NULL;
	expect(&b, EINVAL);
	p = add(&b);
	memcpy(p, b.data[0], E2E_BLOB_MAX);
	p[40] ^= 1;					/* damaged */
	expect(&b, EINVAL);
	p = add(&b);
	memcpy(p, b.data[1], E2E_BLOB_MAX);
	put_le(p + 4, BLOB_FORMAT_VERSION + 1, 2);	/* newer format */
	reseal(p);
	expect(&b, EPROTO);
	p = add(&b);
	memcpy(p, b.data[2], E2E_BLOB_MAX);
	put_le(p + 6, BLOB_KIND_VAR, 2);		/* other kind */
	reseal(p);
	expect(&b, EINVAL);
	other_obj = fc_alloc(other, &id);
	REQUIRE(other_obj);
	add_export(&b, other_obj);			/* other device */
	expect(&b, EXDEV);
	/*
	 * Destroyed objects.  Lowest-free handles: the new PD below takes
	 * the counter's handle (the counter query must refuse the old
	 * blob), and the destroyed PD's handle stays free.  File ids: no
	 * handle is given twice, and the blobs import without a call.
	 */
	gone_fc = fc_alloc(ctx, &id);
	REQUIRE(gone_fc);
	add_export(&b, gone_fc);
	expect(&b, file_ids ? 0 : ENOENT);		/* by the id query */
	gone_pd = pd_alloc(ctx, NULL);
	REQUIRE(gone_pd);
	add_export(&b, gone_pd);
	expect(&b, file_ids ? 0 : ENOENT);		/* by the list */
	REQUIRE(e2e_blob_handle(b.data[b.n - 2]) <
		e2e_blob_handle(b.data[b.n - 1]));
	REQUIRE(mlx5dv_devx_obj_destroy(gone_fc) == 0);
	REQUIRE(mlx5dv_devx_obj_destroy(gone_pd) == 0);
	gone = pd_alloc(ctx, NULL);
	REQUIRE(gone);
	add_export(&b, gone);				/* a good one again */
	if (file_ids)
		CHECK(e2e_blob_handle(b.data[b.n - 1]) >
		      e2e_blob_handle(b.data[b.n - 2]));
	else
		CHECK_EQ(e2e_blob_handle(b.data[b.n - 1]),
			 e2e_blob_handle(b.data[b.n - 3]));
	for (i = 0; i < 4; i++)
		add_export(&b, pds[i]);		/* duplicates are fine */

	compare_batch(ctx, &b, objs, "mixed", true);
	for (i = 0; i < 8; i++)
		CHECK_EQ(fc_query(objs[i], fc_ids[i], out), 0);
	unimport_all(objs, b.n);

	/*
	 * Without the file id: one INFO_HANDLES for the whole batch, one
	 * per single import.  With it: no call at all.
	 */
	calls = info_handles_calls;
	id = all_calls;
	CHECK(mlx5share_devx_obj_import_batch(ctx, b.blobs, b.n, objs,
					      (int[MAX_BLOBS]){ 0 }) > 0);
	CHECK_EQ(info_handles_calls - calls, file_ids ? 0 : 1);
	if (file_ids)
		CHECK_EQ(all_calls - id, 0);
	unimport_all(objs, b.n);
	calls = info_handles_calls;
	id = all_calls;
	for (i = 8; i < 48; i++)
		mlx5dv_devx_obj_unimport(mlx5dv_devx_obj_import(ctx,
								b.blobs[i]));
	if (file_ids)
		CHECK_EQ(all_calls - id, 0);
	else
		CHECK(info_handles_calls - calls >= 40);

	/* Types that the id query proves need no list at all. */
	calls = info_handles_calls;
	compare_batch(ctx, &fc_only, objs, "counters", true);
	unimport_all(objs, fc_only.n);
	id = all_calls;
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, fc_only.blobs,
						 fc_only.n, objs,
						 (int[MAX_BLOBS]){ 0 }),
		 (int)fc_only.n);
	/* without the file id, one id query per counter */
	CHECK_EQ(all_calls - id, file_ids ? 0 : fc_only.n);
	unimport_all(objs, fc_only.n);
	CHECK(info_handles_calls - calls == 0);

	/*
	 * QP and TIR blobs (made from the PDs' blobs: libmlx5 never records
	 * these types for a PD, so each query is refused): their query needs
	 * INFO_HANDLES first, which the batch still asks only once.  With
	 * the file id the type is the exporter's word: they import.
	 */
	for (i = 0; i < 16; i++) {
		p = add(&qp_tir);
		memcpy(p, b.data[8 + i], E2E_BLOB_MAX);
		put_le(p + 52, i % 2 ? IMPORT_DEVX_TIR : IMPORT_DEVX_QP, 4);
		reseal(p);
		expect(&qp_tir, file_ids ? 0 : ENOENT);
	}
	add_export(&qp_tir, pds[0]);		/* and an untyped good one */
	calls = info_handles_calls;
	compare_batch(ctx, &qp_tir, objs, "QP and TIR", true);
	unimport_all(objs, qp_tir.n);
	/* the single imports */
	if (file_ids)
		CHECK_EQ(info_handles_calls - calls, 0);
	else
		CHECK(info_handles_calls - calls >= 17);
	calls = info_handles_calls;
	id = all_calls;
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, qp_tir.blobs, qp_tir.n,
						 objs, (int[MAX_BLOBS]){ 0 }),
		 file_ids ? (int)qp_tir.n : 1);
	unimport_all(objs, qp_tir.n);
	CHECK_EQ(info_handles_calls - calls, file_ids ? 0 : 1);
	if (file_ids)
		CHECK_EQ(all_calls - id, 0);

	/* A second context on the same ufile (ibv_import_device). */
	/* ibv_import_device() takes over (and closes) the fd it gets. */
	imported = ibv_import_device(dup(ctx->cmd_fd));
	REQUIRE(imported);
	compare_batch(imported, &b, objs, "imported context", true);
	unimport_all(objs, b.n);
	ibv_close_device(imported);

	/* A context without a kernel command fd (libmlx5's VFIO mode). */
	fake = *ctx;
	fake.cmd_fd = -1;
	compare_batch(&fake, &b, objs, "no cmd fd", false);
	CHECK_EQ(objs[0], NULL);

	if (meter)
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(gone), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(other_obj), 0);
	for (i = 0; i < 40; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(pds[i]), 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(fcs[i]), 0);
	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
