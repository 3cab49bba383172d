// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Why import asks INFO_HANDLES before it queries a QP.  The kernel's DEVX
 * query takes its handle as UVERBS_IDR_ANY_OBJECT and devx_is_valid_obj_id()
 * lets a verbs QP through when the command addresses its qpn.  A DEVX-QP
 * blob whose handle is a verbs QP's and whose object id is that QP's
 * number (forged here with the library's own encoder, as a stale blob
 * can come to be) therefore passes the query: shown first with a direct
 * DEVX QUERY_QP through the verbs QP's handle.  The import must still
 * refuse it (ENOENT), and only INFO_HANDLES, which lists the handle as a
 * verbs QP and not as a DEVX object, can tell: without that step the
 * import would succeed and this test would fail.
 */
#include <errno.h>
#include <stdlib.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "qp_attr.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "uverbs_ioctl.h"

#define NAME "e2e_verbs_qp_handle"

static struct ibv_pd *pd;
static struct ibv_cq *cq;

/* DEVX QUERY_QP of qpn through handle, below libmlx5: 0 or the errno */
static int raw_query_qp(int fd, uint32_t handle, uint32_t qpn)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_QUERY_QP_OUT_LEN] = {};

	UVERBS_DECLARE_CMD(cmd, MLX5_IB_OBJECT_DEVX_OBJ,
			   MLX5_IB_METHOD_DEVX_OBJ_QUERY, 3);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_QP);
	prm_set(in, PRM_IN_OBJN, qpn);
	fill_in_idr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, handle);
	fill_in_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, sizeof(in));
	fill_out_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out,
		     sizeof(out));
	return uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
}

/* A DEVX QP of ctx (CREATE_QP on a UMEM), its qpn in *qpn */
static struct mlx5dv_devx_obj *devx_qp(struct ibv_context *ctx,
				       struct mlx5dv_devx_umem *umem,
				       uint32_t *qpn)
{
	uint8_t in[PRM_QP_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	struct mlx5dv_pd dv_pd = {};
	struct mlx5dv_cq dv_cq = {};
	struct mlx5dv_obj o = {
		.pd = { .in = pd, .out = &dv_pd },
		.cq = { .in = cq, .out = &dv_cq },
	};
	struct mlx5dv_devx_obj *obj;

	REQUIRE(mlx5dv_init_obj(&o, MLX5DV_OBJ_PD | MLX5DV_OBJ_CQ) == 0);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_QP);
	prm_set(in, PRM_QPC_ST, PRM_QP_ST_RC);
	prm_set(in, PRM_QPC_PM_STATE, PRM_QP_PM_MIGRATED);
	prm_set(in, PRM_QPC_PD, dv_pd.pdn);
	prm_set(in, PRM_QPC_LOG_SQ_SIZE, 3);
	prm_set(in, PRM_QPC_LOG_RQ_SIZE, 3);
	prm_set(in, PRM_QPC_CQN_SND, dv_cq.cqn);
	prm_set(in, PRM_QPC_CQN_RCV, dv_cq.cqn);
	prm_set(in, PRM_QP_WQ_UMEM_VALID, 1);
	prm_set(in, PRM_QP_WQ_UMEM_ID, umem->umem_id);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	REQUIRE(obj);
	*qpn = prm_get(out, PRM_OUT_OBJN);
	return obj;
}

/* blob with its handle and object id replaced, sealed again */
static void forge(uint8_t *blob, uint32_t handle, uint32_t object_id)
{
	struct blob b;

	REQUIRE(blob_decode(blob, e2e_obj_blob_size(), BLOB_KIND_DEVX_OBJ,
			    &b) == 0);
	b.obj.handle = handle;
	b.obj.object_id = object_id;
	REQUIRE(blob_encode(&b, blob) == e2e_obj_blob_size());
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr ia;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *dqp, *imp;
	struct ibv_context *ctx;
	uint8_t blob[E2E_BLOB_MAX];
	struct ibv_qp *vqp;
	uint32_t dqpn;
	void *buf;

	ctx = e2e_start(argc, argv, NAME);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	REQUIRE(pd && cq);
	REQUIRE(posix_memalign(&buf, 4096, 8192) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 8192, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	ia = test_qp_attr(IBV_QPT_RC, cq, 1);
	vqp = ibv_create_qp(pd, &ia);
	REQUIRE(vqp);

	/* a genuine DEVX-QP blob first: the kind and type a QP's has */
	dqp = devx_qp(ctx, umem, &dqpn);
	e2e_export(dqp, blob);
	CHECK_EQ(e2e_blob_object_id(blob), dqpn);

	/* the kernel's DEVX query accepts the verbs QP's handle by number */
	CHECK_EQ(raw_query_qp(ctx->cmd_fd, vqp->handle, vqp->qp_num), 0);
	CHECK_EQ(raw_query_qp(ctx->cmd_fd, vqp->handle, dqpn), EINVAL);

	/* ... so only INFO_HANDLES refuses the blob that names it */
	forge(blob, vqp->handle, vqp->qp_num);
	CHECK_EQ(e2e_blob_handle(blob), vqp->handle);
	CHECK_ERRNO(!(imp = mlx5dv_devx_obj_import(ctx, blob)), ENOENT);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);

	/* the genuine blob still imports */
	e2e_export(dqp, blob);
	imp = mlx5dv_devx_obj_import(ctx, blob);
	CHECK(imp != NULL);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);

	CHECK_EQ(mlx5dv_devx_obj_destroy(dqp), 0);
	CHECK_EQ(ibv_destroy_qp(vqp), 0);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(buf);
	return check_done(NAME);
}
