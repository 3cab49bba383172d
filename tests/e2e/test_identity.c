// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One blob, one object (issue 18): for every kind (flow counter, flow
 * meter, DEVX QP, PD as an untyped DEVX object, UMEM, VAR), an object is
 * exported and destroyed and a new one of the kind is made and, with
 * mlx5-emu --fw-ids=lowest-free, takes its firmware number.  Then:
 *
 *   kernel with the verbs file id (--handles=unique, series v3)  the
 *       new object has another handle (a file never gives one twice);
 *       the stale blob imports without a kernel call, and the first
 *       command through it fails with the kernel's errno (a DEVX
 *       object's query, a UMEM's dereg: ENOENT), every kind, both
 *       firmware modes; a VAR's mmap_off, an offset and not a handle,
 *       is not given twice either (patch 3): the new VAR has another,
 *       and mmap() of the stale struct's fails with EINVAL
 *   without it (--handles=lowest-free, every released kernel)  the new
 *       object takes the handle; what mlx5-share(7) says: the
 *       id-confirmed kinds (counter, meter, QP) ENOENT when the number
 *       is fresh and import the new object when it was reused; PD, UMEM
 *       and VAR (liveness and type only) import the new object
 *
 * and its copy that claims less (the file id set to 0): with the file id
 * EPROTO (this kernel gave its exporter one to write), without it judged
 * as above; its format 5 copy (format 5 held v2's cookie) EPROTO in every
 * mode.  The new object's blob imports in every mode, its format 5 copy
 * in none.
 *
 * Issue 21 item 2: a live flow counter's blob with its type set to 0
 * and the checksum recomputed imports in both modes: the type is the
 * exporter's word, which neither the file id nor the kernel's answers
 * cover (mlx5-share(7), WHAT IMPORT PROVES); its format 5 copy is EPROTO.
 *
 * Registered four times: {--handles unique, lowest-free} x {fw-ids
 * fresh, lowest-free}; the program is told the firmware mode
 * (--fw-ids=...) and asks the kernel whether it reports the file id
 * (file_id_probe.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "e2e_kind_ops.h"
#include "import_policy.h"
#include "file_id_probe.h"

#define NAME "e2e_identity"

static struct ibv_context *ctx;
static bool file_ids, lowest_free;

/* The QP's verbs PD and CQ and its work queue's UMEM. */
static struct devx_qp_env qp_env;

/* One kind: how to make, export, import and drop an object of it. */
struct kind {
	const char *name;
	const struct e2e_kind_ops *ops;
	bool id_confirmed;	/* without the query, an id query confirms */
	bool fw_mode;		/* the number follows mlx5-emu --fw-ids */
	void *(*make)(uint32_t *id);
	void (*destroy)(void *obj);
};

static void obj_destroy(void *obj)
{
	REQUIRE(mlx5dv_devx_obj_destroy(obj) == 0);
}

static void *make_fc(uint32_t *id)
{
	return fc_alloc(ctx, id);
}

static void *make_meter(uint32_t *id)
{
	return meter_create(ctx, id);
}

static void *make_qp(uint32_t *id)
{
	return devx_qp_create(ctx, qp_env.pd, qp_env.cq,
			      qp_env.umem->umem_id, id);
}

static void *make_pd(uint32_t *id)
{
	return pd_alloc(ctx, id);
}

/* Each UMEM registers its own page (freed with it: umem_destroy). */
struct umem_rec {
	struct mlx5dv_devx_umem *umem;
	void *buf;
};

static struct umem_rec umems[4];

static void *make_umem(uint32_t *id)
{
	long page = sysconf(_SC_PAGESIZE);
	struct umem_rec *r = NULL;
	size_t i;

	for (i = 0; i < 4 && !r; i++)
		if (!umems[i].umem)
			r = &umems[i];
	REQUIRE(r);
	REQUIRE(posix_memalign(&r->buf, page, page) == 0);
	r->umem = mlx5dv_devx_umem_reg(ctx, r->buf, page,
				       IBV_ACCESS_LOCAL_WRITE);
	if (!r->umem) {
		free(r->buf);
		return NULL;
	}
	*id = r->umem->umem_id;
	return r->umem;
}

static void umem_destroy(void *obj)
{
	size_t i;

	for (i = 0; i < 4; i++) {
		if (umems[i].umem != obj)
			continue;
		REQUIRE(mlx5dv_devx_umem_dereg(obj) == 0);
		free(umems[i].buf);
		umems[i].umem = NULL;
		return;
	}
	REQUIRE(!"not a UMEM of this test");
}

static void *make_var(uint32_t *id)
{
	struct mlx5dv_var *var = mlx5dv_alloc_var(ctx, 0);

	if (var)
		*id = var->page_id;
	return var;
}

static void var_destroy(void *obj)
{
	mlx5dv_free_var(obj);
}

#define DEVX(label, confirmed, maker)					\
	{ .name = (label), .ops = &e2e_obj_ops,				\
	  .id_confirmed = (confirmed),					\
	  .fw_mode = true,						\
	  .make = (maker), .destroy = obj_destroy }

static const struct kind kinds[] = {
	DEVX("flow counter", true, make_fc),
	DEVX("flow meter", true, make_meter),
	DEVX("DEVX QP", true, make_qp),
	DEVX("PD (untyped)", false, make_pd),
	{ .name = "UMEM", .ops = &e2e_umem_ops, .fw_mode = true,
	  .make = make_umem, .destroy = umem_destroy },
	{ .name = "VAR", .ops = &e2e_var_ops,
	  .make = make_var, .destroy = var_destroy },
};

static uint32_t handle_of(const uint8_t *blob, enum blob_kind kind)
{
	struct blob b;

	REQUIRE(blob_decode(blob, BLOB_MAX_SIZE, kind, &b) == 0);
	return b.handle;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * Relabels a blob as format 5 (v2's cookie where the file id is) and
 * reseals it: import refuses it with EPROTO in every mode.
 */
static void to_format5(uint8_t *blob, enum blob_kind kind)
{
	blob[4] = BLOB_FORMAT_VERSION - 1;
	put32(blob + 12, blob_checksum(blob, blob_size(kind)));
}

/* A copy of a blob that claims less (issue 30 item 2): file id 0. */
static void weakened(const uint8_t *blob, uint8_t *out, enum blob_kind kind)
{
	struct blob b;

	REQUIRE(blob_decode(blob, BLOB_MAX_SIZE, kind, &b) == 0);
	b.file_id = 0;
	REQUIRE(blob_encode(&b, out) == blob_size(kind));
}

/* import(blob) gives an object (want 0, unimported) or fails with want. */
static void check_import(const struct kind *k, uint8_t *blob, int want,
			 const char *what)
{
	void *obj;

	errno = 0;
	obj = k->ops->import(ctx, blob);
	if (want ? obj || errno != want : !obj)
		fprintf(stderr, "%s: %s: %s, want %s\n", k->name, what,
			obj ? "imported" : strerror(errno),
			want ? strerror(want) : "imported");
	if (want)
		CHECK(!obj && errno == want);
	else
		CHECK(obj != NULL);
	if (obj)
		k->ops->unimport(obj);
}

/*
 * The first command through an imported struct: a DEVX object's query,
 * a UMEM's dereg (which frees the struct only when the kernel destroyed
 * the object).  0 or the kernel's errno.  Not for VARs.
 */
static int first_command(const struct kind *k, void *imp)
{
	uint32_t in[4] = { 0 }, out[4];

	if (k->ops->blob_kind == BLOB_KIND_DEVX_UMEM)
		return mlx5dv_devx_umem_dereg(imp);
	return mlx5dv_devx_obj_query(imp, in, sizeof(in), out, sizeof(out));
}

/*
 * The stale blob with the verbs file id: it imports (nothing is asked),
 * and the struct reaches nothing: a DEVX object's or UMEM's first command
 * fails with ENOENT, and a VAR's mmap_off, never given to the new VAR,
 * maps nothing (EINVAL).
 */
static void stale_with_file_id(const struct kind *k, uint8_t *blob, void *b)
{
	void *imp;
	int ret;

	errno = 0;
	imp = k->ops->import(ctx, blob);
	CHECK(imp != NULL);
	if (!imp) {
		fprintf(stderr, "%s: stale blob: %s, want imported\n",
			k->name, strerror(errno));
		return;
	}
	if (k->ops->blob_kind == BLOB_KIND_VAR) {
		struct mlx5dv_var *sv = imp;
		void *p;

		CHECK(sv->mmap_off != ((struct mlx5dv_var *)b)->mmap_off);
		CHECK_ERRNO((p = mmap(NULL, sv->length, PROT_READ | PROT_WRITE,
				      MAP_SHARED, ctx->cmd_fd,
				      sv->mmap_off)) == MAP_FAILED, EINVAL);
		if (p != MAP_FAILED)
			munmap(p, sv->length);
		k->ops->unimport(imp);
		return;
	}
	ret = first_command(k, imp);
	if (ret != ENOENT)
		fprintf(stderr, "%s: stale struct's first command: %s, want "
			"ENOENT\n", k->name, strerror(ret));
	CHECK_EQ(ret, ENOENT);
	if (ret || k->ops->blob_kind != BLOB_KIND_DEVX_UMEM)
		k->ops->unimport(imp);	/* a dereg that worked freed it */
}

static void stale(const struct kind *k)
{
	uint8_t blob[E2E_BLOB_MAX] = { 0 }, nblob[E2E_BLOB_MAX] = { 0 };
	uint8_t wblob[E2E_BLOB_MAX] = { 0 };
	uint32_t old_id = 0, new_id = 0, old_h, new_h;
	bool reused;
	void *a, *b;
	int want;

	a = k->make(&old_id);
	if (!a) {
		printf("%s: no %s here: not checked\n", NAME, k->name);
		return;
	}
	REQUIRE(k->ops->export(a, blob) == 0);
	k->destroy(a);
	b = k->make(&new_id);
	REQUIRE(b);
	REQUIRE(k->ops->export(b, nblob) == 0);
	old_h = handle_of(blob, k->ops->blob_kind);
	new_h = handle_of(nblob, k->ops->blob_kind);
	/* Lowest-free handles: the same one; file ids: never again. */
	if (file_ids)
		CHECK(new_h != old_h);
	else
		CHECK_EQ(new_h, old_h);
	reused = new_id == old_id;
	/*
	 * Firmware numbers: reused exactly in lowest-free mode.  A VAR's
	 * page index is the kernel's, lowest-free in both.
	 */
	if (k->fw_mode)
		CHECK_EQ(reused, lowest_free);
	printf("%s: %s: handle %u then %u, number %#x then %#x\n", NAME,
	       k->name, old_h, new_h, old_id, new_id);

	/* The stale blob. */
	if (file_ids)
		want = 0;	/* imports; its struct reaches nothing */
	else if (k->id_confirmed)
		want = reused ? 0 : ENOENT;	/* the id query */
	else
		want = 0;	/* liveness and type only: the alias */
	if (file_ids)
		stale_with_file_id(k, blob, b);
	else
		check_import(k, blob, want, "stale blob");
	/* Weakened copies: a downgrade with file ids, else as above. */
	weakened(blob, wblob, k->ops->blob_kind);
	check_import(k, wblob, file_ids ? EPROTO : want, "stale, file id 0");
	weakened(nblob, wblob, k->ops->blob_kind);
	check_import(k, wblob, file_ids ? EPROTO : 0, "new, file id 0");

	/* Its format 5 copy: EPROTO in every mode. */
	to_format5(blob, k->ops->blob_kind);
	check_import(k, blob, EPROTO, "stale format 5 blob");

	/* The new object's own blob, and its format 5 copy. */
	check_import(k, nblob, 0, "new blob");
	to_format5(nblob, k->ops->blob_kind);
	check_import(k, nblob, EPROTO, "new format 5 blob");
	k->destroy(b);
}

static void reseal(uint8_t *blob)
{
	put32(blob + 12, blob_checksum(blob, BLOB_DEVX_OBJ_SIZE));
}

/* Issue 21 item 2: a blob that claims less is not believed. */
static void claims_less(void)
{
	uint8_t blob[E2E_BLOB_MAX] = { 0 };
	const struct kind *k = &kinds[0];
	struct mlx5dv_devx_obj *fc;
	uint32_t id;

	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	REQUIRE(mlx5dv_devx_obj_export(fc, blob) == 0);
	check_import(k, blob, 0, "live counter");
	put32(blob + 52, IMPORT_DEVX_UNTYPED);
	reseal(blob);
	check_import(k, blob, 0, "type 0");
	to_format5(blob, BLOB_KIND_DEVX_OBJ);
	check_import(k, blob, EPROTO, "type 0, format 5");
	REQUIRE(mlx5dv_devx_obj_destroy(fc) == 0);
}

int main(int argc, char **argv)
{
	size_t i;
	int a;

	e2e_init(argc, argv, NAME);
	for (a = 1; a < argc; a++)
		if (!strcmp(argv[a], "--fw-ids=lowest-free"))
			lowest_free = true;
	ctx = e2e_open(0);
	file_ids = file_id_expected(ctx->cmd_fd);
	printf("%s: verbs file id %s, firmware numbers %s\n", NAME,
	       file_ids ? "reported" : "not reported",
	       lowest_free ? "lowest-free" : "fresh");
	REQUIRE(devx_qp_env_open(ctx, &qp_env) == 0);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].make == make_meter && !e2e_meter_supported())
			continue;
		stale(&kinds[i]);
	}
	claims_less();
	REQUIRE(devx_qp_env_close(&qp_env) == 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
