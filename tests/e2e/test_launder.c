// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * No laundering through re-export (issue 30 item 1): for every kind (a
 * flow counter, a PD as an untyped DEVX object, a UMEM, a VAR), an
 * object is exported and imported, the import is exported again (which
 * must work while the object lives, and carry the same cookie), then the
 * owner destroys the object and a new one of the kind takes its handle
 * (and, with mlx5-emu --fw-ids=lowest-free, its firmware number).  Now
 * the export of the imported struct:
 *
 *   with the kernel's core handle query   ENOENT, every kind, both
 *       firmware modes: the struct keeps the cookie it was imported with
 *       and the kernel's answer for the handle is another object's; the
 *       caller's buffer is left untouched; the same once the handle is
 *       dead
 *   without it (--query-handles=off)      export succeeds: the struct's
 *       own fields are all it can go by (mlx5-share(7), RE-EXPORT)
 *
 * Registered {query on, off} x {fw-ids fresh, lowest-free} and on older
 * kernels; the mode is mlx5-emu's --query-handles
 * (query_handle_expected()), so a library that does not keep what it
 * imported fails with the query on.
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
#include "query_handle_probe.h"

#define NAME "e2e_launder"

static struct ibv_context *ctx;
static bool method;
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
	CHECK_EQ(decoded(again, k->ops->blob_kind).cookie,
		 decoded(blob, k->ops->blob_kind).cookie);
	CHECK_EQ(decoded(again, k->ops->blob_kind).cookie != 0, method);
	imp2 = k->ops->import(ctx, again);
	CHECK(imp2 != NULL);
	if (imp2)
		k->ops->unimport(imp2);

	/* The owner destroys it; a new object takes the handle. */
	k->destroy(a);
	b = k->make();
	REQUIRE(b);
	REQUIRE(k->ops->export(b, nblob) == 0);
	CHECK_EQ(decoded(nblob, k->ops->blob_kind).handle,
		 decoded(blob, k->ops->blob_kind).handle);
	check_reexport(k, imp, method ? ENOENT : 0, "handle taken");

	/* The new object's import exports; once destroyed, it does not. */
	nimp = k->ops->import(ctx, nblob);
	REQUIRE(nimp);
	check_reexport(k, nimp, 0, "new object");
	k->destroy(b);
	check_reexport(k, nimp, method ? ENOENT : 0, "handle dead");
	check_reexport(k, imp, method ? ENOENT : 0, "handle dead, old");
	k->ops->unimport(nimp);
	k->ops->unimport(imp);
}

int main(int argc, char **argv)
{
	size_t i;

	e2e_init(argc, argv, NAME);
	page = sysconf(_SC_PAGESIZE);
	ctx = e2e_open(0);
	method = query_handle_expected(ctx->cmd_fd);
	printf("%s: core handle query %s\n", NAME,
	       method ? "present" : "absent");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		launder(&kinds[i]);
	CHECK_EQ(ibv_close_device(ctx), 0);
	while (npages)
		free(pages[--npages]);
	return check_done(NAME);
}
