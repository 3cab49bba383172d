// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 4: a process that opens the device on its own (its own verbs
 * file, not the exporter's passed fd) imports the exporter's blobs of
 * every kind: a flow counter, a flow meter, a UMEM and a VAR.  The
 * handles mean nothing in its file, both when the handle is free there
 * and when it names one of its own objects of the same kind (it makes
 * them in the exporter's order, so that they get the same numbers):
 *
 *   with the verbs file id (series v3, --handles=unique)  EXDEV, every
 *       kind, before and after: the blob names another file
 *   without it (--handles=lowest-free)  ENOENT while the handle is free;
 *       then the counter and the meter still ENOENT (the id query finds
 *       another id), but the UMEM and the VAR, whose import proves
 *       liveness and type only, import the stranger's own objects: the
 *       limit mlx5-share(7) states
 */
#include <stdlib.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "fdpass.h"
#include "file_id_probe.h"

#define NAME "e2e_wrong_ufile"

struct msg {
	uint8_t fc_blob[E2E_BLOB_MAX];
	uint8_t meter_blob[E2E_BLOB_MAX];
	uint8_t umem_blob[E2E_BLOB_MAX];
	uint8_t var_blob[E2E_BLOB_MAX];
	bool has_var;
};

/* A UMEM and a VAR of ctx (var NULL where the device has none). */
struct extra {
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;
	void *buf;
};

/* The handle of a blob of any kind. */
static uint32_t handle_of(const uint8_t *blob)
{
	struct blob b;

	REQUIRE(blob_decode(blob, E2E_BLOB_MAX, 0, &b) == 0);
	return b.handle;
}

static void extra_make(struct ibv_context *ctx, struct extra *x,
		       uint8_t *umem_blob, uint8_t *var_blob)
{
	long page = sysconf(_SC_PAGESIZE);

	REQUIRE(posix_memalign(&x->buf, page, page) == 0);
	x->umem = mlx5dv_devx_umem_reg(ctx, x->buf, page,
				       IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(x->umem);
	REQUIRE(mlx5dv_devx_umem_export(x->umem, umem_blob) == 0);
	x->var = mlx5dv_alloc_var(ctx, 0);
	if (x->var)
		REQUIRE(mlx5dv_var_export(x->var, var_blob) == 0);
}

static void extra_free(struct extra *x)
{
	if (x->var)
		mlx5dv_free_var(x->var);
	CHECK_EQ(mlx5dv_devx_umem_dereg(x->umem), 0);
	free(x->buf);
}

/* Import of the UMEM blob: want 0 (imported, then unimported) or errno. */
static void check_umem(struct ibv_context *ctx, uint8_t *blob, int want)
{
	struct mlx5dv_devx_umem *imp = mlx5dv_devx_umem_import(ctx, blob);

	if (want)
		CHECK(!imp && errno == want);
	else
		CHECK(imp != NULL);
	if (imp)
		mlx5dv_devx_umem_unimport(imp);
}

static void check_var(struct ibv_context *ctx, const struct msg *m,
		      uint8_t *blob, int want)
{
	struct mlx5dv_var *imp;

	if (!m->has_var)
		return;
	imp = mlx5dv_var_import(ctx, blob);
	if (want)
		CHECK(!imp && errno == want);
	else
		CHECK(imp != NULL);
	if (imp)
		mlx5dv_var_unimport(imp);
}

static int stranger(void)
{
	struct mlx5dv_devx_obj *fc, *meter;
	uint8_t blob[E2E_BLOB_MAX], ublob[E2E_BLOB_MAX], vblob[E2E_BLOB_MAX];
	struct ibv_context *ctx;
	uint32_t fc_id, meter_id;
	struct extra x;
	bool file_ids;
	int none;
	struct msg m;

	REQUIRE(fdpass_recv(e2e_sock(), NULL, &m, sizeof(m)) == sizeof(m));
	ctx = e2e_open(0);
	file_ids = file_id_expected(ctx->cmd_fd);
	printf("%s: verbs file id %s\n", NAME,
	       file_ids ? "reported" : "not reported");
	none = file_ids ? EXDEV : ENOENT;

	/* Nothing of ours at those handles yet. */
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.fc_blob), none);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.meter_blob), none);
	check_umem(ctx, m.umem_blob, none);
	check_var(ctx, &m, m.var_blob, none);

	/* Our own objects, at the same handles as the exporter's. */
	fc = e2e_fc_exported(ctx, &fc_id, blob);
	CHECK_EQ(e2e_blob_handle(blob), e2e_blob_handle(m.fc_blob));
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter);
	e2e_export(meter, blob);
	CHECK_EQ(e2e_blob_handle(blob), e2e_blob_handle(m.meter_blob));
	extra_make(ctx, &x, ublob, vblob);
	CHECK_EQ(handle_of(ublob), handle_of(m.umem_blob));
	if (m.has_var && x.var)
		CHECK_EQ(handle_of(vblob), handle_of(m.var_blob));

	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.fc_blob), none);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, m.meter_blob), none);
	/* Liveness and type only without the file id: the alias. */
	check_umem(ctx, m.umem_blob, file_ids ? EXDEV : 0);
	check_var(ctx, &m, m.var_blob, file_ids ? EXDEV : 0);

	extra_free(&x);
	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME " (stranger)");
}

int main(int argc, char **argv)
{
	struct e2e_pair p;
	struct ibv_context *ctx;
	struct extra x;
	uint8_t out[32];
	bool active;
	struct msg m = { 0 };
	int sock;
	pid_t pid;

	ctx = e2e_start_roles(argc, argv, NAME, stranger);
	e2e_pair_make(ctx, &p, m.fc_blob, m.meter_blob);
	extra_make(ctx, &x, m.umem_blob, m.var_blob);
	m.has_var = x.var != NULL;

	pid = e2e_spawn("stranger", &sock);
	REQUIRE(fdpass_send(sock, -1, &m, sizeof(m)) == 0);
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);

	CHECK_EQ(fc_query(p.fc, p.fc_id, out), 0);
	CHECK_EQ(meter_query(p.meter, p.meter_id, &active), 0);
	extra_free(&x);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(p.fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
