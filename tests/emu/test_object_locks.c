// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Object locks as the kernel takes them (rdma_core.c,
 * uverbs_try_lock_object()): a query and a DEVX modify hold their
 * object shared (devx.c declares MODIFY's handle UVERBS_ACCESS_READ), any
 * destroy exclusive, and a call that meets a conflicting lock fails with
 * EBUSY, both ways.  mlx5-emu serves one call at a time,
 * so the test makes the collision with its test-only hold (mlx5-emu(1),
 * OBJECT LOCKS), which takes the lock a concurrent call would hold and
 * keeps it, while the daemon goes on serving, until released:
 *   - held shared: the owner's destroy gets EBUSY; a DEVX modify, a query
 *     and an import succeed;
 *   - held exclusive: a query gets EBUSY, so do modify and destroy; an
 *     import gets EBUSY on a kernel without the core handle query (its
 *     id check is a DEVX query, shared) and succeeds with it (the core
 *     handle query takes no lock); other objects are served as usual;
 *   - released: everything succeeds.
 * The same for a verbs QP: destroy (exclusive) and ibv_query_qp()
 * (shared, as the kernel's write() path looks it up, which in 6.12
 * reports a busy object as EBUSY too).
 */
#include <stdio.h>

#include "e2e.h"
#include "emu_hold.h"
#include "emu_util.h"
#include "qp_attr.h"
#include "query_handle_probe.h"
#include "uapi_spec.h"

#define NAME "emu_object_locks"


/* import of blob: 0 (imported and unimported) or the errno */
static int import_errno(struct ibv_context *ctx, uint8_t *blob)
{
	struct mlx5dv_devx_obj *imp;

	errno = 0;
	imp = mlx5dv_devx_obj_import(ctx, blob);
	if (!imp)
		return errno;
	mlx5dv_devx_obj_unimport(imp);
	return 0;
}

/* Has the kernel the core handle query (mlx5-emu --query-handles)? */
static bool method;

static void devx_locks(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *meter, *fc;
	uint8_t blob[E2E_BLOB_MAX];
	uint32_t mid, fcid, h;
	int fd = ctx->cmd_fd;
	bool active;

	meter = meter_create(ctx, &mid);
	fc = fc_alloc(ctx, &fcid);
	REQUIRE(meter && fc);
	e2e_export(meter, blob);
	h = e2e_blob_handle(blob);

	CHECK_EQ(emu_hold(fd, h, 0), 0);
	CHECK_EQ(meter_set_active(meter, mid, false), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), EBUSY);
	CHECK_EQ(meter_query(meter, mid, &active), 0);
	CHECK_EQ(import_errno(ctx, blob), 0);
	/* an exclusive hold collides with the shared one */
	CHECK_EQ(emu_hold(fd, h, 1), EBUSY);
	CHECK_EQ(emu_release(fd, h), 0);
	CHECK_EQ(emu_release(fd, h), ENOENT);

	CHECK_EQ(emu_hold(fd, h, 1), 0);
	CHECK_EQ(meter_query(meter, mid, &active), EBUSY);
	CHECK_EQ(import_errno(ctx, blob), method ? 0 : EBUSY);
	CHECK_EQ(meter_set_active(meter, mid, true), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), EBUSY);
	CHECK_EQ(emu_hold(fd, h, 0), EBUSY);
	/* the daemon serves every other object meanwhile */
	CHECK_EQ(fc_query_status(fc, fcid, NULL), 0);
	CHECK_EQ(emu_release(fd, h), 0);

	/* after the window */
	CHECK_EQ(meter_set_active(meter, mid, true), 0);
	CHECK_EQ(meter_query(meter, mid, &active), 0);
	CHECK(active);
	CHECK_EQ(import_errno(ctx, blob), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	/* a handle that is no object */
	CHECK_EQ(emu_hold(fd, h, 0), ENOENT);
}

static void verbs_locks(struct ibv_context *ctx)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_qp_init_attr ia, qia;
	struct ibv_qp_attr qa;
	struct ibv_qp *qp;
	int fd = ctx->cmd_fd;

	REQUIRE(pd && cq);
	ia = test_qp_attr(IBV_QPT_RC, cq, 1);
	qp = ibv_create_qp(pd, &ia);
	REQUIRE(qp);

	CHECK_EQ(emu_hold(fd, qp->handle, 0), 0);
	CHECK_EQ(ibv_destroy_qp(qp), EBUSY);
	CHECK_EQ(ibv_query_qp(qp, &qa, IBV_QP_STATE, &qia), 0);
	CHECK_EQ(emu_release(fd, qp->handle), 0);
	CHECK_EQ(emu_hold(fd, qp->handle, 1), 0);
	/*
	 * the write() command's uobj_get_obj_read() passes the lookup's
	 * EBUSY on (ib_uverbs_query_qp() in 6.12)
	 */
	CHECK_EQ(ibv_query_qp(qp, &qa, IBV_QP_STATE, &qia), EBUSY);
	CHECK_EQ(ibv_destroy_qp(qp), EBUSY);
	CHECK_EQ(emu_release(fd, qp->handle), 0);
	CHECK_EQ(ibv_query_qp(qp, &qa, IBV_QP_STATE, &qia), 0);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

int main(void)
{
	struct ibv_context *ctx = emu_start(NAME);

	method = query_handle_present(ctx->cmd_fd);

	devx_locks(ctx);
	verbs_locks(ctx);
	/* a hold still taken at the last close goes with the ufile */
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
