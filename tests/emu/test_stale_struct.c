// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The stale-struct cases of issue 37 (point 7), with the upstream API
 * only (mlx5dv_devx_obj_*, mlx5dv_devx_umem_*, mlx5dv_*_var, their
 * export and import, ibv_import_pd(), ibv_import_mr()), on two contexts
 * of one command file, as two processes have it after
 * ibv_import_device(): the creator's, and the importer's made from a
 * dup() of its command fd.  For a flow counter, a DEVX PD, a UMEM, a
 * VAR, a verbs PD and a verbs MR:
 *
 *  1. the importer's stale struct: the creator destroys its object and
 *     makes a new one; the importer's destroy through its import;
 *  2. the creator's stale struct (and a fork child's copy of it): the
 *     importer destroys through its import and makes a new object; the
 *     creator re-exports (DEVX kinds) and destroys, the child destroys.
 *
 * Kernel series v3 (mlx5-emu --handles=unique): every stale command
 * fails (ENOENT; a VAR's free returns nothing) and the new object
 * survives (it is destroyed, or mapped, after them).  Every released
 * kernel (--handles=lowest-free): the new object took the stale number,
 * and the stale command destroys it: the documented hazard, asserted as
 * it is.  A VAR's mmap_off is no handle, so a stale VAR struct also
 * maps: with the series (patch 3) nothing (EINVAL), on a released kernel
 * the new VAR's page, which took the offset.  The program finds both
 * rules itself (a PD, a VAR destroyed and made again) and checks that
 * they agree (one series), prints one line per case, and runs with --hw
 * on a real mlx5 device (tests/vm/cx).  Objects a stale command destroyed under
 * libmlx5 leave their structs behind (a failed destroy keeps them).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "devx_objs.h"
#include "e2e.h"

#define NAME "emu_stale_struct"
#define BLOB_MAX 512

static bool unique;
static bool offsets_once;	/* ... once per pass of its range */
static struct ibv_pd *mr_pd;	/* the creator's, for MRs */
static struct ibv_pd *mr_pd_b;	/* mr_pd imported by the importer */
static void *buf;		/* UMEM and MR memory */

/* one object of a kind, and what the kind's calls need */
struct item {
	void *o;
	uint32_t handle;	/* verbs kinds: the handle their import takes */
	uint32_t fc_id;
};

struct kind {
	const char *name;
	enum blob_kind blob;	/* exported as a blob of this kind, or 0 */
	int (*make)(struct ibv_context *ctx, struct item *it);
	int (*export)(struct item *it, uint8_t *blob);
	int (*import)(struct ibv_context *ctx, const uint8_t *blob,
		      struct item *it);
	/* 0 or the errno; -1: the call reports nothing (a VAR's free) */
	int (*destroy)(struct item *it);
	void (*unimport)(struct item *it);
	/* the object answers: 0, or the errno of the first call that fails */
	int (*use)(struct ibv_context *ctx, struct item *it);
};

static int fc_make(struct ibv_context *ctx, struct item *it)
{
	it->o = fc_alloc(ctx, &it->fc_id);
	return it->o ? 0 : errno;
}

static int pd_devx_make(struct ibv_context *ctx, struct item *it)
{
	uint32_t pdn;

	it->o = pd_alloc(ctx, &pdn);
	return it->o ? 0 : errno;
}

static int obj_export(struct item *it, uint8_t *blob)
{
	return mlx5dv_devx_obj_export(it->o, blob) ? errno : 0;
}

static int obj_import(struct ibv_context *ctx, const uint8_t *blob,
		      struct item *it)
{
	it->o = mlx5dv_devx_obj_import(ctx, (void *)blob);
	return it->o ? 0 : errno;
}

static int obj_destroy(struct item *it)
{
	return mlx5dv_devx_obj_destroy(it->o);
}

static void obj_unimport(struct item *it)
{
	mlx5dv_devx_obj_unimport(it->o);
}

static int fc_use(struct ibv_context *ctx, struct item *it)
{
	uint8_t out[PRM_QUERY_FC_OUT_LEN];

	return fc_query(it->o, it->fc_id, out);
}

static int no_use(struct ibv_context *ctx, struct item *it)
{
	return 0;
}

static int umem_make(struct ibv_context *ctx, struct item *it)
{
	it->o = mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	return it->o ? 0 : errno;
}

static int umem_export(struct item *it, uint8_t *blob)
{
	return mlx5dv_devx_umem_export(it->o, blob) ? errno : 0;
}

static int umem_import(struct ibv_context *ctx, const uint8_t *blob,
		       struct item *it)
{
	it->o = mlx5dv_devx_umem_import(ctx, (void *)blob);
	return it->o ? 0 : errno;
}

static int umem_destroy(struct item *it)
{
	return mlx5dv_devx_umem_dereg(it->o);
}

static void umem_unimport(struct item *it)
{
	mlx5dv_devx_umem_unimport(it->o);
}

static int var_make(struct ibv_context *ctx, struct item *it)
{
	it->o = mlx5dv_alloc_var(ctx, 0);
	return it->o ? 0 : errno;
}

static int var_export(struct item *it, uint8_t *blob)
{
	return mlx5dv_var_export(it->o, blob) ? errno : 0;
}

static int var_import(struct ibv_context *ctx, const uint8_t *blob,
		      struct item *it)
{
	it->o = mlx5dv_var_import(ctx, (void *)blob);
	return it->o ? 0 : errno;
}

static int var_destroy(struct item *it)
{
	mlx5dv_free_var(it->o);
	return -1;
}

static void var_unimport(struct item *it)
{
	mlx5dv_var_unimport(it->o);
}

/* a VAR answers when its doorbell page maps */
static int var_use(struct ibv_context *ctx, struct item *it)
{
	struct mlx5dv_var *v = it->o;
	void *p = mmap(NULL, v->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		       ctx->cmd_fd, v->mmap_off);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, v->length);
	return 0;
}

static int pd_make(struct ibv_context *ctx, struct item *it)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	it->o = pd;
	it->handle = pd ? pd->handle : 0;
	return pd ? 0 : errno;
}

/* a verbs object is exported as its handle */
static int handle_export(struct item *it, uint8_t *blob)
{
	memcpy(blob, &it->handle, sizeof(it->handle));
	return 0;
}

static int pd_import(struct ibv_context *ctx, const uint8_t *blob,
		     struct item *it)
{
	memcpy(&it->handle, blob, sizeof(it->handle));
	it->o = ibv_import_pd(ctx, it->handle);
	return it->o ? 0 : errno;
}

static int pd_destroy(struct item *it)
{
	return ibv_dealloc_pd(it->o);
}

static void pd_unimport(struct item *it)
{
	ibv_unimport_pd(it->o);
}

static int mr_make(struct ibv_context *ctx, struct item *it)
{
	struct ibv_mr *mr = ibv_reg_mr(ctx == mr_pd->context ? mr_pd : mr_pd_b,
				       buf, 4096, IBV_ACCESS_LOCAL_WRITE);

	it->o = mr;
	it->handle = mr ? mr->handle : 0;
	return mr ? 0 : errno;
}

static int mr_import(struct ibv_context *ctx, const uint8_t *blob,
		     struct item *it)
{
	memcpy(&it->handle, blob, sizeof(it->handle));
	it->o = ibv_import_mr(mr_pd_b, it->handle);
	return it->o ? 0 : errno;
}

static int mr_destroy(struct item *it)
{
	return ibv_dereg_mr(it->o);
}

static void mr_unimport(struct item *it)
{
	ibv_unimport_mr(it->o);
}

static const struct kind kinds[] = {
	{ "flow counter", BLOB_KIND_DEVX_OBJ, fc_make, obj_export,
	  obj_import, obj_destroy, obj_unimport, fc_use },
	{ "DEVX PD", BLOB_KIND_DEVX_OBJ, pd_devx_make, obj_export,
	  obj_import, obj_destroy, obj_unimport, no_use },
	{ "UMEM", BLOB_KIND_DEVX_UMEM, umem_make, umem_export, umem_import,
	  umem_destroy, umem_unimport, no_use },
	{ "VAR", BLOB_KIND_VAR, var_make, var_export, var_import,
	  var_destroy, var_unimport, var_use },
	{ "verbs PD", 0, pd_make, handle_export, pd_import, pd_destroy,
	  pd_unimport, no_use },
	{ "verbs MR", 0, mr_make, handle_export, mr_import, mr_destroy,
	  mr_unimport, no_use },
};

static const char *res(int r)
{
	return r < 0 ? "(nothing reported)" : r ? strerrorname_np(r) : "ok";
}

/*
 * What a stale command must give: unique, a failure (ENOENT) unless the
 * call reports nothing; lowest-free, success (it reached the new object)
 */
static void check_stale(int r)
{
	if (r < 0)
		return;
	if (unique)
		CHECK_EQ(r, ENOENT);
	else
		CHECK_EQ(r, 0);
}

/*
 * The new object after the stale command: unique, it answers and its
 * owner destroys it; lowest-free, the stale command destroyed it (the
 * VAR's page no longer maps, the owner's destroy fails).
 */
static void check_new(const struct kind *k, struct ibv_context *ctx,
		      struct item *y, const char *what)
{
	int use = k->use(ctx, y), r;

	if (unique) {
		CHECK_EQ(use, 0);
		r = k->destroy(y);
		CHECK(r <= 0);
	} else if (k->use != no_use) {
		CHECK(use != 0);
		k->unimport(y);
	} else {
		r = k->destroy(y);
		CHECK(r > 0);
		/* the struct a failed destroy kept */
		k->unimport(y);
	}
	printf("%s: %s: the new object %s\n", k->name, what,
	       unique ? "survived" : "was destroyed by the stale command");
}

/*
 * A VAR's stale struct maps its mmap_off (sctx: its owner's context)
 * while fresh, the new VAR, lives: asked before the stale destroy, which
 * on a released kernel frees the new VAR.
 */
static void check_stale_map(const struct kind *k, struct ibv_context *sctx,
			    struct item *stale, struct ibv_context *fctx,
			    struct item *fresh, const char *what)
{
	struct mlx5dv_var *s = stale->o, *f = fresh->o;
	volatile uint32_t *ps, *pf;
	int r;

	if (k->blob != BLOB_KIND_VAR)
		return;
	pf = mmap(NULL, f->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  fctx->cmd_fd, f->mmap_off);
	REQUIRE(pf != MAP_FAILED);
	ps = mmap(NULL, s->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		  sctx->cmd_fd, s->mmap_off);
	r = ps == MAP_FAILED ? errno : 0;
	printf("%s: %s, mmap: %s\n", k->name, what,
	       r ? strerrorname_np(r) : "the new VAR's page");
	CHECK_EQ(r, offsets_once ? EINVAL : 0);
	if (!r) {
		pf[1] = 0xc0ffee;
		CHECK_EQ(ps[1], 0xc0ffee);
		munmap((void *)ps, s->length);
	}
	munmap((void *)pf, f->length);
}

/* 1: the creator makes anew; the importer's stale struct */
static void importer_stale(const struct kind *k, struct ibv_context *a,
			   struct ibv_context *b)
{
	struct item x = {}, xi = {}, y = {};
	uint8_t blob[BLOB_MAX] = {};
	int r;

	REQUIRE(k->make(a, &x) == 0);
	REQUIRE(k->export(&x, blob) == 0);
	REQUIRE(k->import(b, blob, &xi) == 0);
	r = k->destroy(&x);
	CHECK(r <= 0);
	REQUIRE(k->make(a, &y) == 0);
	check_stale_map(k, b, &xi, a, &y, "importer's stale struct");
	r = k->destroy(&xi);
	printf("%s: importer's stale struct, destroy: %s\n", k->name, res(r));
	check_stale(r);
	check_new(k, a, &y, "importer's stale struct");
	/* the import's struct: kept by a destroy that failed */
	if (r > 0)
		k->unimport(&xi);
}

/* the handle a blob names (the library's decoder, blob.h) */
static uint32_t blob_handle(const struct kind *k, const uint8_t *blob)
{
	struct blob b;
	uint32_t h;

	if (!k->blob) {
		memcpy(&h, blob, sizeof(h));
		return h;
	}
	REQUIRE(blob_decode(blob, BLOB_MAX, k->blob, &b) == 0);
	return b.handle;
}

/* 2: the importer destroys and makes anew; the creator's stale struct */
static void creator_stale(const struct kind *k, struct ibv_context *a,
			  struct ibv_context *b)
{
	struct item x = {}, xi = {}, z = {};
	uint8_t blob[BLOB_MAX] = {}, again[BLOB_MAX] = {}, zb[BLOB_MAX] = {};
	int go[2], st, r;
	char c;
	pid_t child;

	REQUIRE(k->make(a, &x) == 0);
	REQUIRE(k->export(&x, blob) == 0);
	REQUIRE(k->import(b, blob, &xi) == 0);
	REQUIRE(pipe(go) == 0);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		/* a fork child's copy of the creator's struct */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(100);
		r = k->destroy(&x);
		_exit(r < 0 ? 101 : r);
	}
	close(go[0]);
	CHECK(k->destroy(&xi) <= 0);
	REQUIRE(k->make(b, &z) == 0);
	REQUIRE(k->export(&z, zb) == 0);
	r = k->export(&x, again);
	printf("%s: creator's stale struct, export: %s, naming %s\n", k->name,
	       res(r), r ? "nothing" :
	       blob_handle(k, again) == blob_handle(k, zb) ?
	       "the new object" : "no live object");
	if (!r && k->blob)
		CHECK((blob_handle(k, again) == blob_handle(k, zb)) ==
		      !unique);
	check_stale_map(k, a, &x, b, &z, "creator's stale struct");
	/* the child first: in lowest-free mode it destroys the new object */
	REQUIRE(write(go[1], "g", 1) == 1);
	close(go[1]);
	REQUIRE(waitpid(child, &st, 0) == child);
	REQUIRE(WIFEXITED(st));
	r = WEXITSTATUS(st) == 101 ? -1 : WEXITSTATUS(st);
	printf("%s: fork child's stale struct, destroy: %s\n", k->name,
	       res(r));
	check_stale(r);
	if (unique) {
		r = k->destroy(&x);
		printf("%s: creator's stale struct, destroy: %s\n", k->name,
		       res(r));
		check_stale(r);
	}
	/* the struct a failed destroy kept, or the one the child used */
	if (!unique || r > 0)
		k->unimport(&x);
	check_new(k, b, &z, "creator's and fork child's stale structs");
}

/* the rule the kernel follows: a PD's number after a destroy */
static bool kernel_is_unique(struct ibv_context *ctx)
{
	struct ibv_pd *a = ibv_alloc_pd(ctx), *b;
	uint32_t ha, hb;

	REQUIRE(a);
	ha = a->handle;
	REQUIRE(ibv_dealloc_pd(a) == 0);
	b = ibv_alloc_pd(ctx);
	REQUIRE(b);
	hb = b->handle;
	REQUIRE(ibv_dealloc_pd(b) == 0);
	return hb != ha;
}

/* the rule for mmap offsets: a VAR's, never mapped, after its free */
static bool kernel_offsets_once(struct ibv_context *ctx)
{
	struct mlx5dv_var *v = mlx5dv_alloc_var(ctx, 0);
	bool once;
	off_t off;

	REQUIRE(v);
	off = v->mmap_off;
	mlx5dv_free_var(v);
	v = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(v);
	once = v->mmap_off != off;
	mlx5dv_free_var(v);
	return once;
}

int main(int argc, char **argv)
{
	struct ibv_context *a = e2e_start(argc, argv, NAME), *b;
	size_t i;

	signal(SIGPIPE, SIG_IGN);
	b = ibv_import_device(dup(a->cmd_fd));
	REQUIRE(b);
	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(buf != MAP_FAILED);
	mr_pd = ibv_alloc_pd(a);
	REQUIRE(mr_pd);
	mr_pd_b = ibv_import_pd(b, mr_pd->handle);
	REQUIRE(mr_pd_b);
	unique = kernel_is_unique(a);
	printf("the kernel gives handles %s\n",
	       unique ? "once per file (series v3)" : "lowest free first");
	offsets_once = kernel_offsets_once(a);
	printf("the kernel gives mmap offsets %s\n", offsets_once ?
	       "once per pass (series v3)" : "lowest free first");
	CHECK_EQ(offsets_once, unique);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		importer_stale(&kinds[i], a, b);
		creator_stale(&kinds[i], a, b);
	}
	return check_done(NAME);
}
