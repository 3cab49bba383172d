// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What mlx5-emu leaves out of Linux 6.12's uapi for an mlx5 device, and
 * why (uapi_not_modelled.h).  An ioctl naming a method left out gets
 * EPROTONOSUPPORT, as from a kernel without it.
 */
#include "uapi_not_modelled.h"

/* libibverbs falls back to the write() command, which mlx5-emu models */
#define WRITE_FALLBACK                                                      \
	"libibverbs falls back to its write() command, which is modelled"
/* no mlx5-share path and no test program calls it */
#define UNUSED "no path of mlx5-share or of its tests calls it"
#define STEERING                                                            \
	"mlx5 steering and flow actions: not part of the sharing model"

const struct emu_not_modelled emu_not_modelled[] = {
	/* core/uverbs_std_types.c, uverbs_std_types_mr.c, _wq.c */
	{ "UVERBS_METHOD_AH_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_MW_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_XRCD_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_RWQ_IND_TBL_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_FLOW_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_WQ_CREATE", WRITE_FALLBACK },
	{ "UVERBS_METHOD_WQ_DESTROY", WRITE_FALLBACK },
	{ "UVERBS_METHOD_ADVISE_MR", "ODP prefetch: no on-demand paging" },
	{ "UVERBS_METHOD_REG_DMABUF_MR", "no dma-buf exporter exists there" },
	{ "UVERBS_METHOD_DM_MR_REG", "device memory is not modelled" },
	{ "UVERBS_METHOD_DM_ALLOC", "device memory is not modelled" },
	{ "UVERBS_METHOD_DM_FREE", "device memory is not modelled" },
	{ "UVERBS_METHOD_COUNTERS_CREATE", UNUSED },
	{ "UVERBS_METHOD_COUNTERS_DESTROY", UNUSED },
	{ "UVERBS_METHOD_COUNTERS_READ", UNUSED },
	{ "UVERBS_METHOD_FLOW_ACTION_DESTROY", STEERING },
	/* hw/mlx5 */
	{ "UVERBS_METHOD_CQ_CREATE/MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX",
	  "libmlx5 passes it only for a CQ on a UAR it allocated: " UNUSED },
	{ "MLX5_IB_METHOD_QUERY_PORT", UNUSED },
	{ "MLX5_IB_METHOD_GET_DATA_DIRECT_SYSFS_PATH", UNUSED },
	{ "MLX5_IB_METHOD_DM_MAP_OP_ADDR", "device memory is not modelled" },
	{ "MLX5_IB_METHOD_DM_QUERY", "device memory is not modelled" },
	{ "MLX5_IB_METHOD_CREATE_FLOW", STEERING },
	{ "MLX5_IB_METHOD_DESTROY_FLOW", STEERING },
	{ "MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER", STEERING },
	{ "MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT", STEERING },
	{ "MLX5_IB_METHOD_FLOW_MATCHER_CREATE", STEERING },
	{ "MLX5_IB_METHOD_FLOW_MATCHER_DESTROY", STEERING },
	{ "MLX5_IB_METHOD_STEERING_ANCHOR_CREATE", STEERING },
	{ "MLX5_IB_METHOD_STEERING_ANCHOR_DESTROY", STEERING },
	{ "MLX5_IB_METHOD_PP_OBJ_ALLOC", "packet pacing: " UNUSED },
	{ "MLX5_IB_METHOD_PP_OBJ_DESTROY", "packet pacing: " UNUSED },
	{ "MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT",
	  "DEVX events: no event is ever raised there" },
	{ "MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC",
	  "DEVX events: no event is ever raised there" },
	{ "MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC",
	  "asynchronous DEVX queries: " UNUSED },
	{ "MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY",
	  "asynchronous DEVX queries: " UNUSED },
};

const unsigned int emu_not_modelled_count =
	sizeof(emu_not_modelled) / sizeof(emu_not_modelled[0]);
