// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What upstream rdma-core's libmlx5 does for the same three calls, as a
 * yardstick: export stores the five fields in a plain record, import
 * callocs an object and fills it from the record without asking the
 * kernel anything, unimport frees.  Modelled from its behaviour, on the
 * private layout mlx5-share already mirrors (layout.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "layout.h"

/* Upstream's record: the fields in host order, no header, no check. */
struct base_attrs {
	uint32_t handle;
	uint32_t type;
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
};

_Static_assert(sizeof(struct base_attrs) == BASE_BLOB_SIZE, "record size");

void base_export(const struct mlx5dv_devx_obj *obj, void *data)
{
	struct base_attrs *a = data;

	memset(a, 0, sizeof(*a));
	a->handle = obj->handle;
	a->type = obj->type;
	a->object_id = obj->object_id;
	a->rx_icm_addr = obj->rx_icm_addr;
	a->log_obj_range = obj->log_obj_range;
}

struct mlx5dv_devx_obj *base_import(struct ibv_context *ctx,
				    const void *data)
{
	const struct base_attrs *a = data;
	struct mlx5dv_devx_obj *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return NULL;
	obj->context = ctx;
	obj->handle = a->handle;
	obj->type = a->type;
	obj->object_id = a->object_id;
	obj->rx_icm_addr = a->rx_icm_addr;
	obj->log_obj_range = a->log_obj_range;
	return obj;
}

void base_unimport(struct mlx5dv_devx_obj *obj)
{
	free(obj);
}
