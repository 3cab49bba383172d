// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device discovery through the real libibverbs: N devices named mlx5_0..,
 * mlx5 devices, distinct node GUIDs that the device itself reports, an
 * active port, and /dev/infiniband/uverbsN looking like the char device.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "emu_util.h"

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 2;
	struct ibv_device **list;
	uint64_t guids[64];
	int n, i, j;

	emu_require("emu_discovery");
	list = ibv_get_device_list(&n);
	REQUIRE(list);
	CHECK_EQ(n, want);
	for (i = 0; i < n && i < 64; i++) {
		struct ibv_device_attr attr;
		struct ibv_port_attr port;
		struct ibv_context *ctx;
		char name[32], path[64];
		struct stat st;

		snprintf(name, sizeof(name), "mlx5_%d", i);
		CHECK(!strcmp(ibv_get_device_name(list[i]), name));
		CHECK(mlx5dv_is_supported(list[i]));
		CHECK_EQ(list[i]->node_type, IBV_NODE_CA);
		guids[i] = ibv_get_device_guid(list[i]);
		CHECK(guids[i] != 0);
		for (j = 0; j < i; j++)
			CHECK(guids[j] != guids[i]);

		snprintf(path, sizeof(path), "/dev/infiniband/uverbs%d", i);
		REQUIRE(stat(path, &st) == 0);
		CHECK(S_ISCHR(st.st_mode));
		CHECK_EQ(major(st.st_rdev), 231);
		CHECK_EQ(minor(st.st_rdev), 192 + i);

		ctx = ibv_open_device(list[i]);
		REQUIRE(ctx);
		/* the fd is the device node as fstat() sees it */
		REQUIRE(fstat(ctx->cmd_fd, &st) == 0);
		CHECK(S_ISCHR(st.st_mode));
		CHECK_EQ(minor(st.st_rdev), 192 + i);
		REQUIRE(ibv_query_device(ctx, &attr) == 0);
		CHECK(attr.node_guid == guids[i]);
		CHECK_EQ(attr.vendor_id, 0x02c9);
		CHECK_EQ(attr.phys_port_cnt, 1);
		REQUIRE(ibv_query_port(ctx, 1, &port) == 0);
		/* no data path: the link is down (mlx5-emu(1)) */
		CHECK_EQ(port.state, IBV_PORT_DOWN);
		CHECK_EQ(port.phys_state, 2);	/* Polling */
		CHECK_EQ(ibv_query_port(ctx, 2, &port), EINVAL);
		CHECK_EQ(ibv_close_device(ctx), 0);
	}
	{
		struct stat st;
		char path[64];

		snprintf(path, sizeof(path), "/dev/infiniband/uverbs%d", n);
		CHECK_ERRNO(stat(path, &st) != 0, ENOENT);
	}
	ibv_free_device_list(list);
	return check_done("emu_discovery");
}
