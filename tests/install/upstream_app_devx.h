/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an application written for rdma-core's DEVX export/import API
 * brings of its own to use a flow counter: the PRM mailboxes, declared
 * the way DEVX applications declare them for the installed
 * <infiniband/mlx5dv.h>'s DEVX_SET()/DEVX_GET() (one u8 per bit, in the
 * PRM's order: the kernel's mlx5_ifc.h layouts; rdma-core installs the
 * accessors but no layouts), and opening a DEVX context.  Nothing of
 * mlx5-share's source tree: the programs built against an installed
 * tree (upstream_app.c, tests/matrix/upgrade_app.c) include only this.
 */
#ifndef MLX5_SHARE_TEST_UPSTREAM_APP_DEVX_H
#define MLX5_SHARE_TEST_UPSTREAM_APP_DEVX_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

enum {
	MLX5_CMD_OP_ALLOC_FLOW_COUNTER = 0x939,
	MLX5_CMD_OP_QUERY_FLOW_COUNTER = 0x93b,
};

typedef uint8_t u8;

struct mlx5_ifc_alloc_flow_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x33];
	u8 flow_counter_bulk_log_size[0x5];
	u8 flow_counter_bulk[0x8];
};

struct mlx5_ifc_alloc_flow_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 flow_counter_id[0x20];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_flow_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x80];
	u8 clear[0x1];
	u8 dump_to_memory[0x1];
	u8 num_of_counters[0x1e];
	u8 flow_counter_id[0x20];
};

struct mlx5_ifc_query_flow_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	u8 packets[0x40];
	u8 octets[0x40];
};

static struct mlx5dv_devx_obj *alloc_flow_counter(struct ibv_context *ctx,
						  uint32_t *id)
{
	uint32_t in[DEVX_ST_SZ_DW(alloc_flow_counter_in)] = {};
	uint32_t out[DEVX_ST_SZ_DW(alloc_flow_counter_out)] = {};
	struct mlx5dv_devx_obj *obj;

	DEVX_SET(alloc_flow_counter_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj)
		*id = DEVX_GET(alloc_flow_counter_out, out, flow_counter_id);
	return obj;
}

/* QUERY_FLOW_COUNTER on obj; returns the firmware status (0 is good). */
static int query_flow_counter(struct mlx5dv_devx_obj *obj, uint32_t id)
{
	uint32_t in[DEVX_ST_SZ_DW(query_flow_counter_in)] = {};
	uint32_t out[DEVX_ST_SZ_DW(query_flow_counter_out)] = {};
	int ret;

	DEVX_SET(query_flow_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_FLOW_COUNTER);
	DEVX_SET(query_flow_counter_in, in, flow_counter_id, id);
	ret = mlx5dv_devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
	if (ret)
		fprintf(stderr, "query: %s, status 0x%x syndrome 0x%x\n",
			strerror(ret),
			DEVX_GET(query_flow_counter_out, out, status),
			DEVX_GET(query_flow_counter_out, out, syndrome));
	return ret;
}

static struct ibv_context *open_devx_device(void)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n, i;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !ctx; i++)
		if (mlx5dv_is_supported(list[i]))
			ctx = mlx5dv_open_device(list[i], &attr);
	ibv_free_device_list(list);
	return ctx;
}

#endif
