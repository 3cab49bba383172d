// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An imported DEVX UMEM used by a DEVX object of the importing process,
 * under mlx5-emu through the real libibverbs and libmlx5: process A
 * registers and exports a UMEM; process B imports the device and the
 * UMEM and creates a CQ whose CQE ring and doorbell record lie in it.
 * While the CQ lives the UMEM cannot be deregistered, by A or by B;
 * after B destroys the CQ and unimports the UMEM, A deregisters it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "check.h"
#include "emu_util.h"
#include "kernel_mode.h"
#include "umv.h"

#define UMEM_BYTES (2 * 4096)
#define LOG_CQ_SIZE 6		/* 64 CQEs of 64 bytes: page 0 */
#define DBR_OFFSET 4096		/* the doorbell record: the second page */

static uint32_t blob_len;

/*
 * A dereg while the CQ lives fails with EBUSY, and libmlx5 frees its
 * struct only when dereg succeeds, so *umem stays usable and listed (or,
 * should the dereg succeed after all, becomes NULL).
 */
static void check_dereg_busy(struct ibv_context *ctx,
			     struct mlx5dv_devx_umem **umem, uint32_t umem_id,
			     const void *blob)
{
	int ret = mlx5dv_devx_umem_dereg(*umem);

	CHECK_EQ(ret, EBUSY);
	if (!ret)
		*umem = NULL;
	CHECK(*umem && (*umem)->umem_id == umem_id);
	CHECK(umv_listed(ctx, MLX5_IB_OBJECT_DEVX_UMEM, umv_blob_handle(blob)));
}

/* CREATE_CQ with its ring at 0 and its doorbell at DBR_OFFSET of umem. */
static void create_cq_in(uint8_t *in, uint32_t umem_id, uint32_t eqn,
			 unsigned int log_size)
{
	memset(in, 0, PRM_CQ_IN_LEN);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_CQ);
	prm_set(in, PRM_CQC_LOG_CQ_SIZE, log_size);
	prm_set(in, PRM_CQC_C_EQN, eqn);
	prm_set(in, PRM_CQC_DBR_UMEM_VALID, 1);
	prm_set(in, PRM_CQC_DBR_UMEM_ID, umem_id);
	prm_set64(in, PRM_CQC_DBR_ADDR, DBR_OFFSET);
	prm_set(in, PRM_CQ_UMEM_ID, umem_id);
	prm_set(in, PRM_CQ_UMEM_VALID, 1);
}

/* Process B: everything through its own import of device and UMEM. */
static int importer(int sock)
{
	uint8_t in[PRM_CQ_IN_LEN], out[PRM_HDR_LEN];
	uint8_t qin[PRM_HDR_LEN], qout[PRM_QUERY_CQ_OUT_LEN];
	unsigned char blob[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *imp;
	struct mlx5dv_devx_obj *cq;
	struct ibv_context *ctx;
	uint32_t umem_id, eqn;

	ctx = umv_import_device(sock, &umem_id, sizeof(umem_id));
	REQUIRE(!fdpass_recv_exact(sock, NULL, blob, blob_len));
	imp = mlx5dv_devx_umem_import(ctx, blob);
	REQUIRE(imp);
	CHECK_EQ(imp->umem_id, umem_id);
	REQUIRE(!mlx5dv_devx_query_eqn(ctx, 0, &eqn));

	/* A ring of 256 CQEs (16K) does not fit in the 8K UMEM. */
	create_cq_in(in, imp->umem_id, eqn, LOG_CQ_SIZE + 2);
	memset(out, 0, sizeof(out));
	errno = 0;
	CHECK(!mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out)));
	if (test_kernel_before(5, 18)) {
		/* mlx5_cmd_exec(): BAD_PARAM as EINVAL, no mailbox */
		printf("umem cq: pre-5.18 kernel: the refusal is EINVAL, "
		       "without the firmware's status\n");
		CHECK_EQ(errno, EINVAL);
	} else {
		CHECK_EQ(errno, EREMOTEIO);
		CHECK_EQ(prm_get(out, PRM_OUT_STATUS), PRM_STATUS_BAD_PARAM);
	}

	create_cq_in(in, imp->umem_id, eqn, LOG_CQ_SIZE);
	cq = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	REQUIRE(cq);
	CHECK(prm_get(out, PRM_OUT_OBJN) != 0);

	/* The firmware keeps the context: the doorbell's UMEM is ours. */
	memset(qin, 0, sizeof(qin));
	prm_set(qin, PRM_HDR_OPCODE, PRM_OP_QUERY_CQ);
	prm_set(qin, PRM_IN_OBJN, prm_get(out, PRM_OUT_OBJN));
	CHECK_EQ(mlx5dv_devx_obj_query(cq, qin, sizeof(qin), qout,
				       sizeof(qout)), 0);
	CHECK_EQ(prm_get(qout, PRM_CQC_DBR_UMEM_VALID), 1);
	CHECK_EQ(prm_get(qout, PRM_CQC_DBR_UMEM_ID), umem_id);
	CHECK_EQ(prm_get64(qout, PRM_CQC_DBR_ADDR), DBR_OFFSET);
	CHECK_EQ(prm_get(qout, PRM_CQC_LOG_CQ_SIZE), LOG_CQ_SIZE);
	CHECK_EQ(prm_get(qout, PRM_CQC_C_EQN), eqn);

	/* The UMEM is busy: the importer's dereg fails too. */
	check_dereg_busy(ctx, &imp, umem_id, blob);

	/* A tries its dereg while the CQ lives. */
	REQUIRE(!umv_send_step(sock, 1));
	REQUIRE(umv_got_step(sock, 1));

	CHECK_EQ(mlx5dv_devx_obj_destroy(cq), 0);
	if (imp)
		mlx5dv_devx_umem_unimport(imp);
	CHECK_EQ(ibv_close_device(ctx), 0);
	REQUIRE(!umv_send_step(sock, 1));
	return check_done("umem cq importer");
}

static void test_umem_cq(struct ibv_context *ctx)
{
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_export_sizes s;
	unsigned char blob[UMV_BLOB_MAX];
	uint32_t umem_id;
	int sock;
	void *buf;
	pid_t pid;

	mlx5dv_get_export_sizes(&s);
	blob_len = s.devx_umem_attrs_size;
	REQUIRE(blob_len > 0 && blob_len <= sizeof(blob));
	REQUIRE(!posix_memalign(&buf, 4096, UMEM_BYTES));
	memset(buf, 0, UMEM_BYTES);
	umem = mlx5dv_devx_umem_reg(ctx, buf, UMEM_BYTES,
				    IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	umem_id = umem->umem_id;
	CHECK_EQ(mlx5dv_devx_umem_export(umem, blob), 0);

	pid = umv_fork(importer, &sock);
	REQUIRE(!fdpass_send(sock, ctx->cmd_fd, &umem_id, sizeof(umem_id)));
	REQUIRE(!fdpass_send(sock, -1, blob, blob_len));

	/* B's CQ lives: the exporter's dereg fails, its UMEM stays. */
	CHECK(umv_got_step(sock, 1));
	check_dereg_busy(ctx, &umem, umem_id, blob);
	REQUIRE(!umv_send_step(sock, 1));

	/* B destroyed its CQ and unimported: now the dereg goes through. */
	CHECK(umv_got_step(sock, 1));
	CHECK_EQ(umv_wait(pid), 0);
	close(sock);
	CHECK(umv_listed(ctx, MLX5_IB_OBJECT_DEVX_UMEM, umv_blob_handle(blob)));
	CHECK(umem && mlx5dv_devx_umem_dereg(umem) == 0);
	CHECK(!umv_listed(ctx, MLX5_IB_OBJECT_DEVX_UMEM,
			  umv_blob_handle(blob)));
	free(buf);
}

int main(void)
{
	struct ibv_context *ctx = umv_open("mlx5_0");

	test_umem_cq(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("test_umem_cq");
}
