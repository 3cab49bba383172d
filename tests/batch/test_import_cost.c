// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What an import costs the kernel, counted by mlx5-emu (emu_counters.h):
 *
 *   with the verbs file id (series v3, --handles=unique)  a single import
 *       of any kind (flow counter, flow meter, PD, UMEM, VAR) is no ioctl
 *       and no firmware command; a batch of 100,000 mixed DEVX object
 *       blobs neither
 *   without it (--handles=lowest-free)   today's: a counter or meter
 *       import is its id query, one firmware command; a PD, UMEM or VAR
 *       import one INFO_HANDLES and no firmware command; the batch asks
 *       one INFO_HANDLES and one id query per counter or meter blob
 *   export, in both modes, no ioctl
 *
 * Each call is counted after a first one, which may ask the device's
 * identity (QUERY_HCA_CAP, cached per device) and the context's verbs
 * file id (QUERY_CONTEXT, cached per context: counted apart, and never
 * again).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "emu_counters_read.h"
#include "file_id_probe.h"

#define NAME "batch_import_cost"

enum { BATCH = 100000, OBJS = 64 };

static struct ibv_context *ctx;
static bool file_ids;

/* Counters of the context's file, with those of QUERY_CONTEXT. */
static struct emu_counters count(void)
{
	struct emu_counters c;

	REQUIRE(emu_counters_read(ctx->cmd_fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_QUERY_CONTEXT, &c) == 0);
	return c;
}

/* b - a, counter by counter, as the cost of what ran in between. */
static void cost(const struct emu_counters *a, const struct emu_counters *b,
		 uint64_t *ioctls, uint64_t *queries, uint64_t *fw)
{
	*ioctls = b->ioctls - a->ioctls;
	*queries = b->method_ioctls - a->method_ioctls;
	*fw = b->fw_cmds - a->fw_cmds;
}

/*
 * A single import of blob with import/unimport, after a first: costs
 * want_ioctls ioctls and want_fw firmware commands, none of them the
 * file id's QUERY_CONTEXT.
 */
#define CHECK_SINGLE(what, blob, import, unimport, want_ioctls, want_fw)  \
	do {								  \
		struct emu_counters _a, _b;				  \
		uint64_t _n, _q, _f;					  \
		void *_o;						  \
									  \
		_o = import(ctx, blob);					  \
		REQUIRE(_o);						  \
		unimport(_o);						  \
		_a = count();						  \
		_o = import(ctx, blob);					  \
		_b = count();						  \
		CHECK(_o != NULL);					  \
		unimport(_o);						  \
		cost(&_a, &_b, &_n, &_q, &_f);				  \
		printf("%s: %s import: %llu ioctls (%llu QUERY_CONTEXT), " \
		       "%llu firmware commands\n", NAME, what,		  \
		       (unsigned long long)_n, (unsigned long long)_q,	  \
		       (unsigned long long)_f);				  \
		CHECK_EQ(_n, (want_ioctls));				  \
		CHECK_EQ(_q, 0);					  \
		CHECK_EQ(_f, (want_fw));				  \
	} while (0)

/*
 * An export of obj with export into blob: no ioctl, in both modes.  The
 * first export of the context (e2e_export() before) asked its file id.
 */
#define CHECK_EXPORT(what, obj, export, blob)				  \
	do {								  \
		struct emu_counters _a, _b;				  \
									  \
		_a = count();						  \
		CHECK_EQ(export(obj, blob), 0);				  \
		_b = count();						  \
		printf("%s: %s export: %llu ioctls\n", NAME, what,	  \
		       (unsigned long long)(_b.ioctls - _a.ioctls));	  \
		CHECK_EQ(_b.ioctls - _a.ioctls, 0);			  \
		CHECK_EQ(_b.fw_cmds - _a.fw_cmds, 0);			  \
	} while (0)

static void singles(void)
{
	uint8_t fc_blob[E2E_BLOB_MAX], pd_blob[E2E_BLOB_MAX];
	uint8_t m_blob[E2E_BLOB_MAX], u_blob[E2E_BLOB_MAX];
	uint8_t v_blob[E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *fc, *pd, *meter = NULL;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;
	long page = sysconf(_SC_PAGESIZE);
	void *buf;

	struct emu_counters a, b;

	fc = fc_alloc(ctx, NULL);
	pd = pd_alloc(ctx, NULL);
	REQUIRE(fc && pd);
	/* The context's first export: its file id, once. */
	a = count();
	e2e_export(fc, fc_blob);
	b = count();
	CHECK_EQ(b.method_ioctls - a.method_ioctls, 1);
	e2e_export(pd, pd_blob);
	CHECK_EXPORT("flow counter", fc, mlx5dv_devx_obj_export, fc_blob);
	CHECK_EXPORT("PD", pd, mlx5dv_devx_obj_export, pd_blob);
	/* counter: its id query without the file id */
	CHECK_SINGLE("flow counter", fc_blob, mlx5dv_devx_obj_import,
		     mlx5dv_devx_obj_unimport, file_ids ? 0 : 1,
		     file_ids ? 0 : 1);
	/* PD: INFO_HANDLES without it */
	CHECK_SINGLE("PD", pd_blob, mlx5dv_devx_obj_import,
		     mlx5dv_devx_obj_unimport, file_ids ? 0 : 1, 0);
	if (e2e_meter_supported()) {
		meter = meter_create(ctx, NULL);
		REQUIRE(meter);
		e2e_export(meter, m_blob);
		CHECK_SINGLE("flow meter", m_blob, mlx5dv_devx_obj_import,
			     mlx5dv_devx_obj_unimport, file_ids ? 0 : 1,
			     file_ids ? 0 : 1);
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	}
	REQUIRE(posix_memalign(&buf, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	REQUIRE(mlx5dv_devx_umem_export(umem, u_blob) == 0);
	CHECK_EXPORT("UMEM", umem, mlx5dv_devx_umem_export, u_blob);
	CHECK_SINGLE("UMEM", u_blob, mlx5dv_devx_umem_import,
		     mlx5dv_devx_umem_unimport, file_ids ? 0 : 1, 0);
	var = mlx5dv_alloc_var(ctx, 0);
	if (var) {
		REQUIRE(mlx5dv_var_export(var, v_blob) == 0);
		CHECK_EXPORT("VAR", var, mlx5dv_var_export, v_blob);
		CHECK_SINGLE("VAR", v_blob, mlx5dv_var_import,
			     mlx5dv_var_unimport, file_ids ? 0 : 1, 0);
		mlx5dv_free_var(var);
	}
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pd), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

/* 100,000 blobs of OBJS live objects: counters, meters and PDs. */
static void batch(void)
{
	static uint8_t blobs[OBJS][E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *objs[OBJS];
	struct mlx5dv_devx_obj **out;
	struct emu_counters a, b;
	uint64_t n, q, f, id_queries = 0;
	bool meters = e2e_meter_supported();
	void **list;
	int *errs, done;
	size_t i;

	for (i = 0; i < OBJS; i++) {
		if (i % 4 == 1 && meters)
			objs[i] = meter_create(ctx, NULL);
		else if (i % 2)
			objs[i] = pd_alloc(ctx, NULL);
		else
			objs[i] = fc_alloc(ctx, NULL);
		REQUIRE(objs[i]);
		e2e_export(objs[i], blobs[i]);
	}
	list = calloc(BATCH, sizeof(*list));
	out = calloc(BATCH, sizeof(*out));
	errs = calloc(BATCH, sizeof(*errs));
	REQUIRE(list && out && errs);
	for (i = 0; i < BATCH; i++) {
		list[i] = blobs[i % OBJS];
		/* counters and meters: an id query each without file ids */
		if (i % OBJS % 2 == 0 || (i % OBJS % 4 == 1 && meters))
			id_queries++;
	}

	a = count();
	done = mlx5share_devx_obj_import_batch(ctx, list, BATCH, out, errs);
	b = count();
	CHECK_EQ(done, BATCH);
	for (i = 0; i < BATCH; i++)
		mlx5dv_devx_obj_unimport(out[i]);
	cost(&a, &b, &n, &q, &f);
	printf("%s: batch of %d blobs: %llu ioctls (%llu QUERY_CONTEXT), "
	       "%llu firmware commands\n", NAME, BATCH, (unsigned long long)n,
	       (unsigned long long)q, (unsigned long long)f);
	CHECK_EQ(q, 0);
	if (file_ids) {
		/* nothing at all */
		CHECK_EQ(n, 0);
		CHECK_EQ(f, 0);
	} else {
		/* one INFO_HANDLES, one id query per counter or meter blob */
		CHECK_EQ(q, 0);
		CHECK_EQ(n, 1 + id_queries);
		CHECK_EQ(f, id_queries);
	}
	free(list);
	free(out);
	free(errs);
	for (i = 0; i < OBJS; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(objs[i]), 0);
}

int main(int argc, char **argv)
{
	struct emu_counters c;

	e2e_init(argc, argv, NAME);
	ctx = e2e_open(0);
	if (emu_counters_read(ctx->cmd_fd, 0, 0, &c))
		check_skip(NAME, "needs mlx5-emu's counters");
	file_ids = file_id_expected(ctx->cmd_fd);
	printf("%s: verbs file id %s\n", NAME,
	       file_ids ? "reported" : "not reported");
	singles();
	batch();
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
