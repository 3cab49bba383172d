// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The import's id confirmation for QPs, both ways.  The parent creates a
 * QP through DEVX (CREATE_QP on a UMEM, with a verbs PD and CQ), QUERY_QP
 * confirms its qpn, and a child given the command fd imports it.  Then the
 * parent destroys it and makes something else: first a verbs QP, then a
 * new DEVX QP with another qpn.  Without the verbs file id each takes the
 * freed handle (the lowest free one): INFO_HANDLES does not list the
 * verbs QP as a DEVX object, QUERY_QP tells the new DEVX QP apart, and
 * both times the child's import of the old blob fails with ENOENT.  With
 * it (series v3) neither takes the handle, and the old blob imports into
 * an object whose query fails with ENOENT (e2e_check_gone()).
 */
#include <unistd.h>

#include "check.h"
#include "devx_objs.h"
#include "e2e.h"
#include "fdpass.h"
#include "qp_attr.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define NAME "e2e_qp_import"

struct msg {
	char step;
	uint32_t qpn;
	uint8_t blob[E2E_BLOB_MAX];
};

struct devx_qp {
	struct mlx5dv_devx_obj *obj;
	uint32_t qpn;
};

static struct devx_qp_env env;

static struct devx_qp devx_qp_make(struct ibv_context *ctx)
{
	struct devx_qp q;

	q.obj = devx_qp_create(ctx, env.pd, env.cq, env.umem->umem_id, &q.qpn);
	REQUIRE(q.obj);
	return q;
}

/* QUERY_QP through obj: 0 and the state, or the errno */
static int devx_qp_query(struct mlx5dv_devx_obj *obj, uint32_t qpn,
			 uint32_t *state)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_QUERY_QP_OUT_LEN] = {};
	int ret;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_QP);
	prm_set(in, PRM_IN_OBJN, qpn);
	ret = mlx5dv_devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
	if (!ret)
		*state = prm_get(out, PRM_QPC_STATE);
	return ret;
}

static struct ibv_qp *verbs_qp(void)
{
	struct ibv_qp_init_attr ia = test_qp_attr(IBV_QPT_RC, env.cq, 1);

	return ibv_create_qp(env.pd, &ia);
}

static int child(void)
{
	int sock = e2e_sock(), fd = -1;
	struct mlx5dv_devx_obj *imp;
	struct ibv_context *ctx;
	uint32_t state = 9;
	struct msg m;

	REQUIRE(fdpass_recv(sock, &fd, &m, sizeof(m)) == sizeof(m));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	/* live: the import confirms the qpn with QUERY_QP */
	imp = mlx5dv_devx_obj_import(ctx, m.blob);
	REQUIRE(imp);
	CHECK_EQ(devx_qp_query(imp, m.qpn, &state), 0);
	CHECK_EQ(state, PRM_QP_STATE_RST);
	mlx5dv_devx_obj_unimport(imp);
	e2e_send_step(sock, '1');
	/*
	 * the handle is a verbs QP's now (or, with the verbs file id, no
	 * object's: e2e_check_gone())
	 */
	REQUIRE(e2e_wait_step(sock) == '2');
	e2e_check_gone(ctx, m.blob);
	e2e_send_step(sock, '2');
	/* the handle is another DEVX QP's now (or, likewise, no object's) */
	REQUIRE(e2e_wait_step(sock) == '3');
	e2e_check_gone(ctx, m.blob);
	e2e_send_step(sock, '3');
	CHECK_EQ(ibv_close_device(ctx), 0);
	close(sock);
	return check_done(NAME " (child)");
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	struct msg m = { .step = '0' };
	struct devx_qp a, b;
	struct ibv_qp *vqp, *first;
	uint32_t state = 9;
	int sock;
	pid_t pid;

	ctx = e2e_start_roles(argc, argv, NAME, child);
	REQUIRE(devx_qp_env_open(ctx, &env) == 0);

	/*
	 * libmlx5 gives a verbs QP a bfreg of a UAR page it allocates (a
	 * handle of its own); with one QP made first, the next one shares
	 * that page and takes no handle but its own.
	 */
	first = verbs_qp();
	REQUIRE(first);
	a = devx_qp_make(ctx);
	CHECK_EQ(devx_qp_query(a.obj, a.qpn, &state), 0);
	CHECK_EQ(state, PRM_QP_STATE_RST);
	/* another qpn is not this object's: the kernel refuses (EINVAL) */
	CHECK_EQ(devx_qp_query(a.obj, a.qpn + 1, &state), EINVAL);
	e2e_export(a.obj, m.blob);
	CHECK_EQ(e2e_blob_object_id(m.blob), a.qpn);
	m.qpn = a.qpn;
	pid = e2e_spawn("importer", &sock);
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);
	CHECK_EQ(e2e_wait_step(sock), '1');

	/* the UMEM and the verbs CQ are in use by the QP */
	CHECK_EQ(mlx5dv_devx_umem_dereg(env.umem), EBUSY);
	CHECK_EQ(ibv_destroy_cq(env.cq), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(a.obj), 0);
	vqp = verbs_qp();
	REQUIRE(vqp);
	if (e2e_file_ids(ctx))
		CHECK(vqp->handle != e2e_blob_handle(m.blob));
	else
		CHECK_EQ(vqp->handle, e2e_blob_handle(m.blob));
	e2e_send_step(sock, '2');
	CHECK_EQ(e2e_wait_step(sock), '2');

	CHECK_EQ(ibv_destroy_qp(vqp), 0);
	b = devx_qp_make(ctx);
	CHECK(b.qpn != a.qpn);
	e2e_send_step(sock, '3');
	CHECK_EQ(e2e_wait_step(sock), '3');
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);

	CHECK_EQ(mlx5dv_devx_obj_destroy(b.obj), 0);
	CHECK_EQ(ibv_destroy_qp(first), 0);
	CHECK_EQ(devx_qp_env_close(&env), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
