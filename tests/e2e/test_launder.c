// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * No laundering through re-export (issue 30 item 1): for every kind (a
 * flow counter, a PD as an untyped DEVX object, a UMEM, a VAR), an
 * object is exported and imported, the import is exported again (which
 * must work while the object lives, and carry the same verbs file id),
 * then the owner destroys the object and a new one of the kind is made
 * (with mlx5-emu --fw-ids=lowest-free, taking its firmware number).
 * Export of the imported struct asks the kernel nothing and succeeds in
 * both modes (mlx5-share(7), RE-EXPORT); what differs is what its blob
 * can reach:
 *
 *   with the verbs file id (--handles=unique, series v3)  the new object
 *       has another handle, so the re-exported blob, which keeps the
 *       old one, never names it: it imports, and the struct's first
 *       command fails with ENOENT
 *   without it (--handles=lowest-free)  the new object takes the handle:
 *       the re-exported blob names it (the documented gap)
 *
 * Registered {--handles unique, lowest-free} x {fw-ids fresh,
 * lowest-free} and on older kernels; the mode is mlx5-emu's --handles
 * (file_id_expected()), so a library that does not write the file id
 * fails with unique handles.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "e2e_kind_ops.h"
#include "file_id_probe.h"

#define NAME "e2e_launder"

static struct ibv_context *ctx;
static bool file_ids;
static long page;

struct kind {
	const char *name;
	const struct e2e_kind_ops *ops;
	void *(*make)(void);
	void (*destroy)(void *obj);
};

static void *make_fc(void)
{
	return fc_alloc(ctx, NULL);
}

static void *make_pd(void)
{
	return pd_alloc(ctx, NULL);
}

static void obj_destroy(void *obj)
{
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
}

/* The pages under the UMEMs made, freed at the end, after every dereg. */
static void *pages[8];
static unsigned int npages;

static void *make_umem(void)
{
	struct mlx5dv_devx_umem *umem;
	void *buf;

	REQUIRE(npages < sizeof(pages) / sizeof(pages[0]));
	REQUIRE(posix_memalign(&buf, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, page, IBV_ACCESS_LOCAL_WRITE);
	if (!umem)
		free(buf);
	else
		pages[npages++] = buf;
	return umem;
}

static void umem_destroy(void *obj)
{
	CHECK_EQ(mlx5dv_devx_umem_dereg(obj), 0);
}

static void *make_var(void)
{
	return mlx5dv_alloc_var(ctx, 0);
}

static void var_destroy(void *obj)
{
	mlx5dv_free_var(obj);
}

static const struct kind kinds[] = {
	{ "flow counter", &e2e_obj_ops, make_fc, obj_destroy },
	{ "PD (untyped)", &e2e_obj_ops, make_pd, obj_destroy },
	{ "UMEM", &e2e_umem_ops, make_umem, umem_destroy },
	{ "VAR", &e2e_var_ops, make_var, var_destroy },
};

static struct blob decoded(const uint8_t *blob, enum blob_kind kind)
{
	struct blob b;

	REQUIRE(blob_decode(blob, BLOB_MAX_SIZE, kind, &b) == 0);
	return b;
}

/* Export of the imported struct imp: want 0 or the errno. */
static void check_reexport(const struct kind *k, void *imp, int want,
			   const char *what)
{
	uint8_t out[E2E_BLOB_MAX];
	int ret;

	memset(out, 0xa5, sizeof(out));
	errno = 0;
	ret = k->ops->export(imp, out);
	if (ret != want)
		fprintf(stderr, "%s: %s: export gave %d, want %d\n", k->name,
			what, ret, want);
	CHECK_EQ(ret, want);
	if (ret) {
		CHECK_EQ(errno, ret);
		CHECK_EQ(out[0], 0xa5);	/* nothing written */
		CHECK_EQ(out[E2E_BLOB_MAX - 1], 0xa5);
	}
}

static void launder(const struct kind *k)
{
	uint8_t blob[E2E_BLOB_MAX], again[E2E_BLOB_MAX], nblob[E2E_BLOB_MAX];
	void *a, *b, *imp, *imp2, *nimp;

	a = k->make();
	if (!a) {
		printf("%s: no %s here: not checked\n", NAME, k->name);
		return;
	}
	REQUIRE(k->ops->export(a, blob) == 0);
	imp = k->ops->import(ctx, blob);
	REQUIRE(imp);

	/* While the object lives: re-export works, the same object. */
	REQUIRE(k->ops->export(imp, again) == 0);
	CHECK_EQ(decoded(again, k->ops->blob_kind).file_id,
		 decoded(blob, k->ops->blob_kind).file_id);
	CHECK_EQ(decoded(again, k->ops->blob_kind).file_id,
		 file_id_of(ctx->cmd_fd));
	CHECK_EQ(decoded(again, k->ops->blob_kind).file_id != 0, file_ids);
	imp2 = k->ops->import(ctx, again);
	CHECK(imp2 != NULL);
	if (imp2)
		k->ops->unimport(imp2);

	/*
	 * The owner destroys it and makes a new one: lowest-free handles
	 * give it the old handle, file ids never do.
	 */
	k->destroy(a);
	b = k->make();
	REQUIRE(b);
	REQUIRE(k->ops->export(b, nblob) == 0);
	if (file_ids)
		CHECK(decoded(nblob, k->ops->blob_kind).handle !=
		      decoded(blob, k->ops->blob_kind).handle);
	else
		CHECK_EQ(decoded(nblob, k->ops->blob_kind).handle,
			 decoded(blob, k->ops->blob_kind).handle);
	check_reexport(k, imp, 0, "old struct");
	/* What it writes names the old handle, in both modes. */
	REQUIRE(k->ops->export(imp, again) == 0);
	CHECK_EQ(decoded(again, k->ops->blob_kind).handle,
		 decoded(blob, k->ops->blob_kind).handle);
	if (file_ids && k->ops == &e2e_obj_ops) {
		uint32_t in[4] = { 0 }, out[4];

		imp2 = k->ops->import(ctx, again);
		REQUIRE(imp2);
		CHECK_EQ(mlx5dv_devx_obj_query(imp2, in, sizeof(in), out,
					       sizeof(out)), ENOENT);
		k->ops->unimport(imp2);
	}

	/* The new object's import exports, destroyed or not. */
	nimp = k->ops->import(ctx, nblob);
	REQUIRE(nimp);
	check_reexport(k, nimp, 0, "new object");
	k->destroy(b);
	check_reexport(k, nimp, 0, "handle dead");
	check_reexport(k, imp, 0, "handle dead, old");
	k->ops->unimport(nimp);
	k->ops->unimport(imp);
}

int main(int argc, char **argv)
{
	size_t i;

	e2e_init(argc, argv, NAME);
	page = sysconf(_SC_PAGESIZE);
	ctx = e2e_open(0);
	file_ids = file_id_expected(ctx->cmd_fd);
	printf("%s: verbs file id %s\n", NAME,
	       file_ids ? "reported" : "not reported");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		launder(&kinds[i]);
	CHECK_EQ(ibv_close_device(ctx), 0);
	while (npages)
		free(pages[--npages]);
	return check_done(NAME);
}
