// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Leaves to the teardown (the last close) DEVX objects an older object
 * uses a newer one of: a flow table whose miss goes to a table made
 * after it, an RQT modified to list an RQ made after it.  The last
 * close destroys newest first, so those destroys fail in firmware
 * (RES_BUSY) until their users are gone; test_teardown_order.sh reads
 * the daemon's trace to see the kernel model retry them
 * (uverbs_destroy_ufile_hw()'s retryable passes) and the user context
 * go.
 */
#include "devx_types_util.h"

#define NAME "emu_teardown_order"

int main(void)
{
	struct mlx5dv_devx_obj *fa, *fb, *rq, *rqt, *rq2;
	uint32_t a, b, rqn, rqtn, rqn2;
	struct ibv_context *ctx;
	static struct dx_base base;
	struct mbox m;

	if (!getenv("MLX5_EMU_DIR"))
		check_skip(NAME, "not running under mlx5-emu");
	ctx = dx_open(0);
	REQUIRE(ctx);
	fa = dx_ft(ctx, 0, &a);
	fb = dx_ft(ctx, 1, &b);
	REQUIRE(fa && fb);
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, 0, PRM_FT_TYPE_NIC_RX, a);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, b);
	CHECK_EQ(dx_modify(fa, &m, PRM_FS_IN_LEN), 0);

	dx_base_make(ctx, &base);
	rq = dx_wq(ctx, &base, PRM_OP_CREATE_RQ, 0, 0, &rqn);
	REQUIRE(rq);
	rqt = dx_create(ctx, &m, rqt_cmd(&m, PRM_OP_CREATE_RQT, 0, 1, &rqn, 1),
			&rqtn, PRM_OUT_OBJN);
	rq2 = dx_wq(ctx, &base, PRM_OP_CREATE_RQ, 0, 1, &rqn2);
	REQUIRE(rqt && rq2);
	rqt_cmd(&m, PRM_OP_MODIFY_RQT, 0, 0, &rqn2, 1);
	prm_set(m.in, PRM_IN_OBJN, rqtn);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQT_LIST);
	CHECK_EQ(dx_modify(rqt, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN), 0);
	/*
	 * Everything is left to the last close of the command fd, which
	 * ibv_close_device() does without destroying anything; what
	 * libmlx5 allocated for the objects is freed here (LeakSanitizer).
	 */
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(fa);
	free(fb);
	free(rq);
	free(rqt);
	free(rq2);
	free(base.pd);
	free(base.td);
	free(base.cq);
	free(base.umem);
	free(base.buf);
	return check_done(NAME);
}
