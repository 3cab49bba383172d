// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel releases mlx5-emu answers as (mlx5-emu run --kernel=VERSION,
 * told to the command in MLX5_EMU_KERNEL):
 *   - since 5.18 a DEVX command the firmware failed returns EREMOTEIO
 *     with the out mailbox (status, syndrome) copied out; before, the
 *     status mapped by mlx5_cmd_exec() (cmd_status_to_err(): BAD_OP,
 *     BAD_PARAM, BAD_RES... EINVAL) and nothing copied;
 *   - since 5.13 INFO_HANDLES of an object type the device does not have
 *     fails (ENOENT; UVERBS_IDR_ANY_OBJECT ENOMSG); before, it answered
 *     0 handles.
 * Registered once per mode (tests/emu/CMakeLists.txt).
 */
#include <stdio.h>

#include "emu_util.h"
#include "kernel_version.h"

#define NAME "emu_kernel_modes"

static bool before(unsigned int maj, unsigned int min)
{
	int v = emu_kernel_parse(getenv(EMU_KERNEL_ENV));

	REQUIRE(v > 0);
	return (unsigned int)v < EMU_KV(maj, min);
}

static void fw_failures(struct ibv_context *ctx)
{
	uint32_t in[4] = {}, out[4];
	uint8_t qin[PRM_QP_IN_LEN] = {}, qout[PRM_HDR_LEN];
	struct mlx5dv_devx_obj *obj;
	int ret;

	/* a general command whose opcode the firmware does not know */
	prm_set(in, PRM_HDR_OPCODE, 0xbff);
	memset(out, 0xab, sizeof(out));
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
	if (before(5, 18)) {
		CHECK_EQ(ret, EINVAL);
		CHECK_EQ(out[0], 0xabababab);
	} else {
		CHECK_EQ(ret, EREMOTEIO);
		CHECK_EQ(prm_get(out, PRM_OUT_STATUS), PRM_STATUS_BAD_OP);
	}

	/* an object create the firmware refuses: a QP on PD 0 */
	prm_set(qin, PRM_HDR_OPCODE, PRM_OP_CREATE_QP);
	prm_set(qin, PRM_QPC_ST, PRM_QP_ST_RC);
	memset(qout, 0xab, sizeof(qout));
	errno = 0;
	obj = mlx5dv_devx_obj_create(ctx, qin, sizeof(qin), qout,
				     sizeof(qout));
	CHECK(obj == NULL);
	if (before(5, 18)) {
		CHECK_EQ(errno, EINVAL);
		CHECK_EQ(qout[0], 0xab);
	} else {
		CHECK_EQ(errno, EREMOTEIO);
		CHECK(prm_get(qout, PRM_OUT_STATUS) != PRM_STATUS_OK);
	}
	if (obj)
		mlx5dv_devx_obj_destroy(obj);
}

static void info_handles(struct ibv_context *ctx)
{
	uint32_t list[4], total = 99;
	const uint16_t unknown = MLX5_IB_OBJECT_DEVX | 0x0ff0;

	if (before(5, 13)) {
		CHECK_EQ(emu_info_handles(ctx->cmd_fd, unknown, list, 4,
					  &total), 0);
		CHECK_EQ(total, 0);
		total = 99;
		CHECK_EQ(emu_info_handles(ctx->cmd_fd, 0xffff, list, 4,
					  &total), 0);
		CHECK_EQ(total, 0);
	} else {
		CHECK_EQ(emu_info_handles(ctx->cmd_fd, unknown, list, 4,
					  &total), ENOENT);
		CHECK_EQ(emu_info_handles(ctx->cmd_fd, 0xffff, list, 4,
					  &total), ENOMSG);
	}
}

int main(void)
{
	struct ibv_context *ctx = emu_start(NAME);

	printf("%s: Linux %s\n", NAME, getenv(EMU_KERNEL_ENV));
	fw_failures(ctx);
	info_handles(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
