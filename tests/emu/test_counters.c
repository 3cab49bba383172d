// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-emu's counters (emulator/kernel/emu_counters.h), read with
 * tests/common's emu_counters_read(): every ioctl of a uverbs file counts
 * once, in all and for its method, whatever it answers; the firmware
 * commands it runs count for its file and its device; a file's counts
 * are its own, the device's are shared; reading them counts for nothing.
 */
#include <stdio.h>

#include "emu_counters_read.h"
#include "emu_util.h"

#define NAME "emu_counters"

int main(void)
{
	struct emu_counters c0, c1, o0, o1;
	struct ibv_context *ctx, *other;
	struct mlx5dv_devx_obj *obj;
	uint32_t list[4], total;
	struct emu_raw r;
	int fd, i;

	ctx = emu_start(NAME);
	other = devx_open(NULL, 0);
	REQUIRE(other);
	fd = ctx->cmd_fd;

	/* reading is free: twice in a row, the same numbers */
	REQUIRE(emu_counters_read(fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_INFO_HANDLES, &c0) == 0);
	CHECK(c0.ioctls > 0);	/* opening the context took some */
	REQUIRE(emu_counters_read(fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_INFO_HANDLES, &c1) == 0);
	CHECK(!memcmp(&c0, &c1, sizeof(c0)));

	/* three ioctls of one method, one failing, no firmware command */
	for (i = 0; i < 2; i++)
		CHECK_EQ(emu_info_handles(fd, MLX5_IB_OBJECT_DEVX_OBJ, list, 4,
					  &total), 0);
	CHECK_EQ(emu_info_handles(fd, 0x1234, list, 4, &total), ENOENT);
	REQUIRE(emu_counters_read(fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_INFO_HANDLES, &c1) == 0);
	CHECK_EQ(c1.ioctls - c0.ioctls, 3);
	CHECK_EQ(c1.method_ioctls - c0.method_ioctls, 3);
	CHECK_EQ(c1.fw_cmds, c0.fw_cmds);
	CHECK_EQ(c1.dev_fw_cmds, c0.dev_fw_cmds);

	/* a DEVX create: one ioctl, one firmware command, on this file */
	REQUIRE(emu_counters_read(fd, MLX5_IB_OBJECT_DEVX_OBJ,
				  MLX5_IB_METHOD_DEVX_OBJ_CREATE, &c0) == 0);
	REQUIRE(emu_counters_read(other->cmd_fd, MLX5_IB_OBJECT_DEVX_OBJ,
				  MLX5_IB_METHOD_DEVX_OBJ_CREATE, &o0) == 0);
	obj = fc_alloc(ctx, NULL);
	REQUIRE(obj);
	REQUIRE(emu_counters_read(fd, MLX5_IB_OBJECT_DEVX_OBJ,
				  MLX5_IB_METHOD_DEVX_OBJ_CREATE, &c1) == 0);
	REQUIRE(emu_counters_read(other->cmd_fd, MLX5_IB_OBJECT_DEVX_OBJ,
				  MLX5_IB_METHOD_DEVX_OBJ_CREATE, &o1) == 0);
	CHECK_EQ(c1.ioctls - c0.ioctls, 1);
	CHECK_EQ(c1.method_ioctls - c0.method_ioctls, 1);
	CHECK_EQ(c1.fw_cmds - c0.fw_cmds, 1);
	CHECK_EQ(c1.dev_fw_cmds - c0.dev_fw_cmds, 1);
	/* the other file of the same device: its own counts, shared device */
	CHECK_EQ(o1.ioctls, o0.ioctls);
	CHECK_EQ(o1.method_ioctls, o0.method_ioctls);
	CHECK_EQ(o1.fw_cmds, o0.fw_cmds);
	CHECK_EQ(o1.dev_fw_cmds - o0.dev_fw_cmds, 1);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);

	/* a method no one has: counted in all, method count 0 */
	raw_init(&r, MLX5_IB_OBJECT_DEVX, 0x1ff0);
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	REQUIRE(emu_counters_read(fd, MLX5_IB_OBJECT_DEVX, 0x1ff0, &c0) == 0);
	CHECK_EQ(c0.method_ioctls, 0);
	CHECK_EQ(c0.ioctls - c1.ioctls, 2);	/* the destroy and this */

	/* the output's bounds: at least the first counter */
	raw_init(&r, EMU_OBJECT_EMU, EMU_METHOD_COUNTERS);
	raw_attr(&r, EMU_ATTR_COUNTERS_OUT, 4, (uintptr_t)&c1);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	memset(&c1, 0xff, sizeof(c1));
	raw_init(&r, EMU_OBJECT_EMU, EMU_METHOD_COUNTERS);
	raw_attr(&r, EMU_ATTR_COUNTERS_OUT, 8, (uintptr_t)&c1);
	CHECK_EQ(raw_exec(fd, &r), 0);
	CHECK_EQ(c1.ioctls, c0.ioctls);
	CHECK_EQ(c1.method_ioctls, ~0ull);	/* not written */

	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
