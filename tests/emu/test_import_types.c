// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The import's confirmation, per DEVX object type, both ways.  The parent
 * makes one object of each type, exports it and hands its command fd and
 * the blobs (SCM_RIGHTS) to a second process, which imports each: every
 * import of a live object succeeds.  Then the parent destroys each
 * object and at once makes another of the same type, which gets the
 * same uverbs handle and another object id; the second process imports
 * the old blobs again:
 *   - types whose id the import confirms (TIR, flow table, flow group,
 *     flow table entry, packet reformat, flow sampler, the three ASO
 *     objects) must fail with ENOENT;
 *   - TIS, RQ, SQ, RQT and modify header, for which libmlx5 records no
 *     type or id (set_devx_obj_info()), can only be checked for a live
 *     handle: that import succeeds, reaching the new object.  This is the
 *     documented limit of the import for those types on a kernel without
 *     the verbs file id (every released kernel: the test runs with
 *     mlx5-emu --handles=lowest-free); with it no handle reaches
 *     another object (emu_stale_struct_unique, e2e_identity).
 */
#include <stdio.h>
#include <unistd.h>

#include "devx_types_util.h"
#include "e2e.h"
#include "fdpass.h"

#define NAME "emu_import_types"

enum obj {
	O_TIR, O_TIS, O_RQ, O_SQ, O_RQT, O_FT, O_FG, O_FTE, O_REFORMAT,
	O_MODHDR, O_SAMPLER, O_ASO_METER, O_ASO_HIT, O_ASO_CT, O_NUM
};

static const struct {
	const char *name;
	bool confirmed;	/* the import checks the object id */
} types[O_NUM] = {
	[O_TIR] = { "TIR", true },
	[O_TIS] = { "TIS", false },
	[O_RQ] = { "RQ", false },
	[O_SQ] = { "SQ", false },
	[O_RQT] = { "RQT", false },
	[O_FT] = { "flow table", true },
	[O_FG] = { "flow group", true },
	[O_FTE] = { "flow table entry", true },
	[O_REFORMAT] = { "packet reformat", true },
	[O_MODHDR] = { "modify header", false },
	[O_SAMPLER] = { "flow sampler", true },
	[O_ASO_METER] = { "ASO flow meter", true },
	[O_ASO_HIT] = { "ASO first hit", true },
	[O_ASO_CT] = { "ASO CT", true },
};

struct msg {
	char step;
	uint8_t blob[O_NUM][E2E_BLOB_MAX];
};

/* What the exported objects stand on, none of them exported. */
struct deps {
	struct dx_base b;
	struct mlx5dv_devx_obj *rq, *tis, *ft, *ft2, *fg;
	uint32_t rqn, tisn, ftn, ftn2, fgn;
};

/*
 * Makes the object of type o; gen tells the first from the second (a
 * flow entry at another index, a group over other indexes).  Nothing
 * points at any of them, so each can go alone.
 */
static struct mlx5dv_devx_obj *make(struct ibv_context *ctx,
				    const struct deps *d, enum obj o,
				    unsigned int gen)
{
	struct mbox m;
	uint32_t n;

	switch (o) {
	case O_TIR:
		tir_cmd(&m, 0, d->b.tdn, d->rqn, 0);
		return dx_create(ctx, &m, PRM_OBJ_IN_LEN, &n, PRM_OUT_OBJN);
	case O_TIS:
		tis_cmd(&m, 0, d->b.tdn);
		return dx_create(ctx, &m, PRM_TIS_IN_LEN, &n, PRM_OUT_OBJN);
	case O_RQ:
		return dx_wq(ctx, &d->b, PRM_OP_CREATE_RQ, 0, 4 + gen, &n);
	case O_SQ:
		return dx_wq(ctx, &d->b, PRM_OP_CREATE_SQ, d->tisn, 8 + gen,
			     &n);
	case O_RQT:
		return dx_create(ctx, &m,
				 rqt_cmd(&m, PRM_OP_CREATE_RQT, 0, 1, &d->rqn,
					 1),
				 &n, PRM_OUT_OBJN);
	case O_FT:
		return dx_ft(ctx, 2, &n);
	case O_FG:
		return dx_fg(ctx, d->ftn, 8 + 4 * gen, 11 + 4 * gen, &n);
	case O_FTE:
		return dx_create(ctx, &m,
				 dx_fte_cmd(&m, 0, d->ftn, d->fgn, gen, 0, 0),
				 &n, PRM_OUT_OBJN);
	case O_REFORMAT:
		return dx_reformat(ctx, &n);
	case O_MODHDR:
		return dx_modhdr(ctx, &n);
	case O_SAMPLER:
		return dx_gobj(ctx, PRM_OBJ_TYPE_FLOW_SAMPLER, 0, d->ftn,
			       d->ftn2, &n);
	case O_ASO_METER:
		return dx_gobj(ctx, PRM_OBJ_TYPE_ASO_FLOW_METER, d->b.pdn, 0,
			       0, &n);
	case O_ASO_HIT:
		return dx_gobj(ctx, PRM_OBJ_TYPE_ASO_FIRST_HIT, d->b.pdn, 0, 0,
			       &n);
	default:
		return dx_gobj(ctx, PRM_OBJ_TYPE_ASO_CT, d->b.pdn, 0, 0, &n);
	}
}

static void make_deps(struct ibv_context *ctx, struct deps *d)
{
	struct mbox m;

	dx_base_make(ctx, &d->b);
	d->rq = dx_wq(ctx, &d->b, PRM_OP_CREATE_RQ, 0, 0, &d->rqn);
	tis_cmd(&m, 0, d->b.tdn);
	d->tis = dx_create(ctx, &m, PRM_TIS_IN_LEN, &d->tisn, PRM_OUT_OBJN);
	d->ft = dx_ft(ctx, 0, &d->ftn);
	d->ft2 = dx_ft(ctx, 1, &d->ftn2);
	REQUIRE(d->rq && d->tis && d->ft && d->ft2);
	d->fg = dx_fg(ctx, d->ftn, 0, 7, &d->fgn);
	REQUIRE(d->fg);
}

static void drop_deps(struct deps *d)
{
	CHECK_EQ(mlx5dv_devx_obj_destroy(d->fg), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(d->ft2), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(d->ft), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(d->tis), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(d->rq), 0);
	dx_base_drop(&d->b);
}

static void send_step(int sock, char step)
{
	struct msg m = { .step = step };

	REQUIRE(fdpass_send(sock, -1, &m, sizeof(m)) == 0);
}

static char wait_step(int sock)
{
	struct msg m = { 0 };

	if (fdpass_recv(sock, NULL, &m, sizeof(m)) <= 0)
		return 0;
	return m.step;
}

/* The second process: imports, twice. */
static int importer(void)
{
	struct mlx5dv_devx_obj *obj;
	int sock = e2e_sock(), fd = -1;
	struct ibv_context *ctx;
	static struct msg m;
	unsigned int o;

	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	for (o = 0; o < O_NUM; o++) {
		obj = mlx5dv_devx_obj_import(ctx, m.blob[o]);
		if (!obj)
			fprintf(stderr, "%s: live %s not imported: %s\n", NAME,
				types[o].name, strerror(errno));
		CHECK(obj != NULL);
		if (obj)
			mlx5dv_devx_obj_unimport(obj);
	}
	send_step(sock, '1');

	REQUIRE(wait_step(sock) == '2');
	for (o = 0; o < O_NUM; o++) {
		errno = 0;
		obj = mlx5dv_devx_obj_import(ctx, m.blob[o]);
		if (types[o].confirmed) {
			if (obj || errno != ENOENT)
				fprintf(stderr,
					"%s: %s of another id imported "
					"(errno %d)\n",
					NAME, types[o].name, errno);
			CHECK(!obj && errno == ENOENT);
		} else {
			/* Only the handle can be checked: it is live. */
			CHECK(obj != NULL);
		}
		if (obj)
			mlx5dv_devx_obj_unimport(obj);
	}
	send_step(sock, '2');
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME " (importer)");
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *objs[O_NUM], *old;
	static uint8_t blob[E2E_BLOB_MAX];
	struct ibv_context *ctx;
	static struct msg m;
	struct deps d;
	unsigned int o;
	int sock;
	pid_t pid;

	e2e_init(argc, argv, NAME);
	if (e2e_role())
		return importer();
	if (!getenv("MLX5_EMU_DIR"))
		check_skip(NAME, "not running under mlx5-emu");

	ctx = e2e_open(0);
	make_deps(ctx, &d);
	for (o = 0; o < O_NUM; o++) {
		objs[o] = make(ctx, &d, o, 0);
		if (!objs[o])
			fprintf(stderr, "%s: no %s: %s\n", NAME, types[o].name,
				strerror(errno));
		REQUIRE(objs[o]);
		e2e_export(objs[o], m.blob[o]);
	}
	pid = e2e_spawn("importer", &sock);
	m.step = '0';
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);
	CHECK_EQ(wait_step(sock), '1');

	/* Each handle goes to another object of its type. */
	for (o = 0; o < O_NUM; o++) {
		old = objs[o];
		CHECK_EQ(mlx5dv_devx_obj_destroy(old), 0);
		objs[o] = make(ctx, &d, o, 1);
		REQUIRE(objs[o]);
		e2e_export(objs[o], blob);
		CHECK_EQ(e2e_blob_handle(blob), e2e_blob_handle(m.blob[o]));
		if (types[o].confirmed)
			CHECK(e2e_blob_object_id(blob) !=
			      e2e_blob_object_id(m.blob[o]));
	}
	send_step(sock, '2');
	CHECK_EQ(wait_step(sock), '2');
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);

	for (o = 0; o < O_NUM; o++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(objs[o]), 0);
	drop_deps(&d);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
