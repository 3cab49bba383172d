// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The emulated device advertises only what the model implements: every
 * capability ibv_query_device(), ibv_query_device_ex(),
 * mlx5dv_query_device() and the firmware's general capabilities report
 * is walked and checked against the list of what the model does (each
 * with where it is done), and the features the model lacks (XRC, WQs,
 * ODP, TSO, RSS, tag matching, CQE compression...) are checked to be
 * absent and, where a verb asks for them, refused.
 */
#include <stdio.h>

#include "emu_util.h"

#define NAME "emu_advertised"

/*
 * device_cap_flags the model stands behind: the bad P_Key and Q_Key
 * counters (ports report them, zero), automatic path migration (an
 * alternate path is taken by modify QP, verbs_qp_modify.c), the port
 * active event and RNR NAK generation (data-path behaviours a port
 * that never comes up never contradicts), and the memory management
 * extensions of mlx5 (work requests libmlx5 builds in the caller's
 * ring; nothing is ever executed).
 */
static const struct {
	uint64_t flag;
	const char *name;
} modelled[] = {
	{ IBV_DEVICE_BAD_PKEY_CNTR, "BAD_PKEY_CNTR" },
	{ IBV_DEVICE_BAD_QKEY_CNTR, "BAD_QKEY_CNTR" },
	{ IBV_DEVICE_AUTO_PATH_MIG, "AUTO_PATH_MIG" },
	{ IBV_DEVICE_PORT_ACTIVE_EVENT, "PORT_ACTIVE_EVENT" },
	{ IBV_DEVICE_RC_RNR_NAK_GEN, "RC_RNR_NAK_GEN" },
	{ IBV_DEVICE_MEM_MGT_EXTENSIONS, "MEM_MGT_EXTENSIONS" },
};

static void device_flags(struct ibv_context *ctx)
{
	struct ibv_xrcd_init_attr xattr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
	};
	struct ibv_device_attr attr;
	uint64_t left;
	size_t i;

	REQUIRE(ibv_query_device(ctx, &attr) == 0);
	left = attr.device_cap_flags;
	for (i = 0; i < sizeof(modelled) / sizeof(modelled[0]); i++)
		left &= ~modelled[i].flag;
	if (left)
		fprintf(stderr, "advertised, not modelled: 0x%llx\n",
			(unsigned long long)left);
	CHECK_EQ(left, 0);
	/* XRC: not claimed, and an XRC domain is refused */
	CHECK_EQ(attr.device_cap_flags & IBV_DEVICE_XRC, 0);
	CHECK_ERRNO(ibv_open_xrcd(ctx, &xattr) == NULL, EOPNOTSUPP);
}

static void device_ex(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex ex;
	struct ibv_wq_init_attr wqa = {
		.wq_type = IBV_WQT_RQ, .max_wr = 1, .max_sge = 1,
	};
	struct ibv_pd *pd;
	struct ibv_cq *cq;

	REQUIRE(ibv_query_device_ex(ctx, NULL, &ex) == 0);
	CHECK_EQ(ex.device_cap_flags_ex, 0);
	/* no on-demand paging, TSO, RSS, tag matching or rate limits */
	CHECK_EQ(ex.odp_caps.general_caps, 0);
	CHECK_EQ(ex.odp_caps.per_transport_caps.rc_odp_caps, 0);
	CHECK_EQ(ex.odp_caps.per_transport_caps.uc_odp_caps, 0);
	CHECK_EQ(ex.odp_caps.per_transport_caps.ud_odp_caps, 0);
	CHECK_EQ(ex.xrc_odp_caps, 0);
	CHECK_EQ(ex.tso_caps.max_tso, 0);
	CHECK_EQ(ex.rss_caps.max_rwq_indirection_tables, 0);
	CHECK_EQ(ex.raw_packet_caps, 0);
	CHECK_EQ(ex.tm_caps.max_num_tags, 0);
	CHECK_EQ(ex.packet_pacing_caps.qp_rate_limit_max, 0);
	/* no WQs on an InfiniBand port: none claimed, creating one refused */
	CHECK_EQ(ex.max_wq_type_rq, 0);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	REQUIRE(pd && cq);
	wqa.pd = pd;
	wqa.cq = cq;
	CHECK(ibv_create_wq(ctx, &wqa) == NULL);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

/*
 * MLX5DV_CONTEXT_FLAGS_BLUEFLAME, a name only rdma-core 61 and later
 * have: libmlx5 61 and 62 set it whenever the ucontext reports a
 * BlueFlame register size, which the model does (its UAR pages take
 * BlueFlame writes as they take doorbells); 64 no longer sets it here.
 */
#define DV_FLAG_BLUEFLAME (1ull << 8)

/* mlx5dv: CQE version 1 (the ucontext's, std_device.c), BlueFlame, no more */
static void mlx5dv_caps(struct ibv_context *ctx)
{
	struct mlx5dv_context dv = { .comp_mask = ~0ull };

	REQUIRE(mlx5dv_query_device(ctx, &dv) == 0);
	CHECK_EQ(dv.flags & ~((uint64_t)MLX5DV_CONTEXT_FLAGS_CQE_V1 |
			      DV_FLAG_BLUEFLAME), 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION)
		CHECK_EQ(dv.cqe_comp_caps.max_num, 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_SWP)
		CHECK_EQ(dv.sw_parsing_caps.sw_parsing_offloads, 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_STRIDING_RQ)
		CHECK_EQ(dv.striding_rq_caps.supported_qpts, 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS)
		CHECK_EQ(dv.tunnel_offloads_caps, 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS)
		CHECK_EQ(dv.flow_action_flags, 0);
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_DC_ODP_CAPS)
		CHECK_EQ(dv.dc_odp_caps, 0);
}

/*
 * The firmware's general capabilities agree with what the kernel
 * reports from them: no xrc (IB_DEVICE_XRC), no cq_resize
 * (ibv_resize_cq() is ENOSYS); and no dct, which the firmware lacks.
 */
static void prm_caps(struct ibv_context *ctx)
{
	uint32_t in[4] = {}, out[PRM_QUERY_HCA_CAP_OUT_LEN / 4] = {};
	const uint8_t *cap = (const uint8_t *)out + PRM_CAP_AREA_BYTE;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	REQUIRE(mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					sizeof(out)) == 0);
	CHECK_EQ(prm_get(cap, PRM_CAP_XRC), 0);
	/* no DCTs: the firmware has no CREATE_DCT */
	CHECK_EQ(prm_get(cap, PRM_CAP_DCT), 0);
	CHECK_EQ(prm_get(cap, PRM_CAP_CQ_RESIZE), 0);
}

int main(void)
{
	struct ibv_context *ctx = emu_start(NAME);

	device_flags(ctx);
	device_ex(ctx);
	mlx5dv_caps(ctx);
	prm_caps(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
