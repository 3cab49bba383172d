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
 * import would succeed and this test would fail.  That is a kernel
 * without the verbs file id (its old-kernel reruns, mlx5-emu
 * --handles=lowest-free).  With it (series v3) a stale blob never comes
 * to name another object, import asks nothing, and a forged blob's
 * handle is its writer's word (mlx5-share(7)): it imports.
 */
#include <errno.h>

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

/* blob with its handle and object id replaced, sealed again */
static void forge(uint8_t *blob, uint32_t handle, uint32_t object_id)
{
	struct blob b;

	REQUIRE(blob_decode(blob, e2e_obj_blob_size(), BLOB_KIND_DEVX_OBJ,
			    &b) == 0);
	b.handle = handle;
	b.obj.object_id = object_id;
	REQUIRE(blob_encode(&b, blob) == e2e_obj_blob_size());
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr ia;
	struct mlx5dv_devx_obj *dqp, *imp;
	struct ibv_context *ctx;
	uint8_t blob[E2E_BLOB_MAX];
	struct devx_qp_env env;
	struct ibv_qp *vqp;
	uint32_t dqpn;

	ctx = e2e_start(argc, argv, NAME);
	REQUIRE(devx_qp_env_open(ctx, &env) == 0);
	ia = test_qp_attr(IBV_QPT_RC, env.cq, 1);
	vqp = ibv_create_qp(env.pd, &ia);
	REQUIRE(vqp);

	/* a genuine DEVX-QP blob first: the kind and type a QP's has */
	dqp = devx_qp_create(ctx, env.pd, env.cq, env.umem->umem_id, &dqpn);
	REQUIRE(dqp);
	e2e_export(dqp, blob);
	CHECK_EQ(e2e_blob_object_id(blob), dqpn);

	/* the kernel's DEVX query accepts the verbs QP's handle by number */
	CHECK_EQ(raw_query_qp(ctx->cmd_fd, vqp->handle, vqp->qp_num), 0);
	CHECK_EQ(raw_query_qp(ctx->cmd_fd, vqp->handle, dqpn), EINVAL);

	/* ... so only INFO_HANDLES refuses the blob that names it */
	forge(blob, vqp->handle, vqp->qp_num);
	CHECK_EQ(e2e_blob_handle(blob), vqp->handle);
	if (e2e_file_ids(ctx)) {
		imp = mlx5dv_devx_obj_import(ctx, blob);
		CHECK(imp != NULL);
	} else {
		CHECK_ERRNO(!(imp = mlx5dv_devx_obj_import(ctx, blob)),
			    ENOENT);
	}
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
	CHECK_EQ(devx_qp_env_close(&env), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
