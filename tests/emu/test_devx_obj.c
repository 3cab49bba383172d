// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX objects through the real libmlx5: flow counters (one, and a bulk)
 * and flow meter general objects, created, queried, modified and
 * destroyed; the kernel's object id check (devx_is_valid_obj_id()) on
 * query and modify; a create the firmware refuses.
 */
#include <stdio.h>

#include "emu_util.h"

static void counters(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *a, *b, *bulk;
	uint32_t ida, idb, idbulk;
	uint8_t status = 0xff;

	a = fc_alloc_bulk(ctx, 0, &ida);
	b = fc_alloc_bulk(ctx, 0, &idb);
	REQUIRE(a && b);
	CHECK(ida != idb);
	CHECK_EQ(fc_query_status(a, ida, &status), 0);
	CHECK_EQ(status, 0);
	CHECK_EQ(fc_query_status(b, idb, &status), 0);
	/* the id the command addresses is not the object's: EINVAL */
	CHECK_EQ(fc_query_status(a, idb, NULL), EINVAL);
	CHECK_EQ(fc_query_status(b, ida, NULL), EINVAL);

	/* a bulk of 128: every counter of the bulk, and only those */
	bulk = fc_alloc_bulk(ctx, 1, &idbulk);
	REQUIRE(bulk);
	CHECK_EQ(fc_query_status(bulk, idbulk, NULL), 0);
	CHECK_EQ(fc_query_status(bulk, idbulk + 127, NULL), 0);
	CHECK_EQ(fc_query_status(bulk, idbulk + 128, NULL), EINVAL);
	if (idbulk > 0)
		CHECK_EQ(fc_query_status(bulk, idbulk - 1, NULL), EINVAL);

	CHECK_EQ(mlx5dv_devx_obj_destroy(a), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(bulk), 0);
	/* b is untouched by the others' destroys */
	CHECK_EQ(fc_query_status(b, idb, &status), 0);
	CHECK_EQ(status, 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(b), 0);
}

static void meters(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *m1, *m2, *cnt;
	unsigned int exp = 0, man = 0;
	uint32_t id1, id2, idc;
	uint8_t in[PRM_METER_IN_LEN] = {};
	uint32_t out[4] = {};
	uint8_t status;

	m1 = meter_create_cbs(ctx, 3, 17, &id1);
	m2 = meter_create_cbs(ctx, 4, 42, &id2);
	REQUIRE(m1 && m2);
	CHECK(id1 != id2);
	CHECK_EQ(meter_query_cbs(m1, id1, &exp, &man, &status), 0);
	CHECK_EQ(status, 0);
	CHECK_EQ(exp, 3);
	CHECK_EQ(man, 17);
	CHECK_EQ(meter_query_cbs(m2, id2, &exp, &man, NULL), 0);
	CHECK_EQ(exp, 4);
	CHECK_EQ(man, 42);

	CHECK_EQ(meter_set_cbs(m1, id1, 9, 99), 0);
	CHECK_EQ(meter_query_cbs(m1, id1, &exp, &man, NULL), 0);
	CHECK_EQ(exp, 9);
	CHECK_EQ(man, 99);
	/* m2 did not change */
	CHECK_EQ(meter_query_cbs(m2, id2, &exp, &man, NULL), 0);
	CHECK_EQ(man, 42);

	/* object id checks for query and modify */
	CHECK_EQ(meter_query_cbs(m1, id2, NULL, NULL, NULL), EINVAL);
	CHECK_EQ(meter_set_cbs(m2, id1, 1, 1), EINVAL);
	cnt = fc_alloc_bulk(ctx, 0, &idc);
	REQUIRE(cnt);
	CHECK_EQ(meter_query_cbs(cnt, idc, NULL, NULL, NULL), EINVAL);
	CHECK_EQ(meter_set_cbs(cnt, idc, 1, 1), EINVAL);
	CHECK_EQ(fc_query_status(m1, id1, NULL), EINVAL);
	/* a query command used for modify: devx_is_obj_modify_cmd() says no */
	{
		uint32_t qin[4] = {}, qout[4] = {};

		prm_set(qin, PRM_HDR_OPCODE, PRM_OP_QUERY_GENERAL_OBJECT);
		prm_set(qin, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
		prm_set(qin, PRM_GOBJ_ID, id1);
		CHECK_EQ(mlx5dv_devx_obj_modify(m1, qin, sizeof(qin), qout,
						sizeof(qout)), EINVAL);
	}

	/* a create the firmware refuses: out mailbox and EREMOTEIO */
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_GENERAL_OBJECT);
	prm_set(in, PRM_GOBJ_TYPE, 0x7777);
	errno = 0;
	CHECK(!mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out)));
	CHECK_EQ(errno, EREMOTEIO);
	CHECK(prm_get(out, PRM_OUT_STATUS) != PRM_STATUS_OK);
	CHECK(prm_get(out, PRM_OUT_SYNDROME) != 0);
	/* not a create command at all -> EINVAL, nothing made */
	memset(in, 0, sizeof(in));
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	errno = 0;
	CHECK(!mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out)));
	CHECK_EQ(errno, EINVAL);

	CHECK_EQ(mlx5dv_devx_obj_destroy(m1), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(cnt), 0);
	CHECK_EQ(meter_query_cbs(m2, id2, &exp, &man, NULL), 0);
	CHECK_EQ(exp, 4);
	CHECK_EQ(mlx5dv_devx_obj_destroy(m2), 0);
}

int main(void)
{
	struct ibv_context *ctx;

	ctx = emu_start("emu_devx_obj");
	counters(ctx);
	meters(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_devx_obj");
}
