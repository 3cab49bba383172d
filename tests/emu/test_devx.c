// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A DEVX context through the real libmlx5: mlx5dv_open_device() with
 * MLX5DV_CONTEXT_FLAGS_DEVX, mlx5dv_query_device(), the general command
 * path (QUERY_HCA_CAP, an opcode the firmware does not implement, a
 * command the kernel's whitelist refuses), QUERY_EQN, and what a context
 * opened without DEVX may and may not do.
 */
#include <stdio.h>

#include "emu_util.h"

static void general_cmds(struct ibv_context *ctx)
{
	uint32_t in[4] = {}, out[4 + 1024] = {};
	uint32_t small_out[4] = {};
	int ret;

	/* QUERY_HCA_CAP, general capabilities, current values */
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
	CHECK_EQ(ret, 0);
	CHECK_EQ(prm_get(out, PRM_OUT_STATUS), PRM_STATUS_OK);
	/* DEVX needs log_max_uctx non-zero */
	CHECK(prm_get((uint8_t *)out + PRM_CAP_AREA_BYTE,
		      PRM_CAP_LOG_MAX_UCTX) != 0);

	/*
	 * An opcode in the general range the firmware does not implement:
	 * the kernel (5.18+) copies the out mailbox and returns EREMOTEIO;
	 * the mailbox carries BAD_OP and a syndrome.
	 */
	memset(in, 0, sizeof(in));
	prm_set(in, PRM_HDR_OPCODE, 0xbff);
	memset(small_out, 0xab, sizeof(small_out));
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), small_out,
				      sizeof(small_out));
	CHECK_EQ(ret, EREMOTEIO);
	CHECK_EQ(prm_get(small_out, PRM_OUT_STATUS), PRM_STATUS_BAD_OP);
	CHECK(prm_get(small_out, PRM_OUT_SYNDROME) != 0);

	/* not a general command: devx_is_general_cmd() says no -> EINVAL */
	memset(in, 0, sizeof(in));
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	CHECK_EQ(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), small_out,
					 sizeof(small_out)), EINVAL);

	/* mailboxes shorter than the command headers: the attr spec's EINVAL */
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	CHECK_EQ(mlx5dv_devx_general_cmd(ctx, in, 8, small_out,
					 sizeof(small_out)), EINVAL);
	CHECK_EQ(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), small_out, 8),
		 EINVAL);
}

static void eqn(struct ibv_context *ctx)
{
	uint32_t eqn0 = ~0u, eqn1 = ~0u, eqn_bad = 12345;

	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 0, &eqn0), 0);
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 1, &eqn1), 0);
	CHECK(eqn0 != ~0u && eqn1 != ~0u && eqn0 != eqn1);
	/* beyond num_comp_vectors: mlx5_comp_eqn_get() -> EINVAL */
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, ctx->num_comp_vectors, &eqn_bad),
		 EINVAL);
	CHECK_EQ(eqn_bad, 12345);
}

static void no_devx(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	uint32_t in[4] = {}, out[4 + 1024] = {};
	struct ibv_context *ctx;

	REQUIRE(list);
	ctx = ibv_open_device(list[0]);
	REQUIRE(ctx);
	/* libmlx5 asks for DEVX anyway when the kernel offers it */
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, 1);
	CHECK_EQ(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					 sizeof(out)), 0);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
}

int main(void)
{
	struct mlx5dv_context dv = {};
	struct ibv_context *ctx;

	ctx = emu_start("emu_devx");
	CHECK(mlx5dv_is_supported(ctx->device));
	dv.comp_mask = 0;
	CHECK_EQ(mlx5dv_query_device(ctx, &dv), 0);
	CHECK(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	CHECK_EQ(ctx->num_comp_vectors, 4);

	general_cmds(ctx);
	eqn(ctx);
	no_devx();
	CHECK_EQ(ibv_close_device(ctx), 0);
	/* the second device works the same */
	ctx = devx_open(NULL, 1);
	REQUIRE(ctx);
	general_cmds(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_devx");
}
