/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers for the mlx5-emu tests: PRM mailbox fields, the DEVX contexts
 * and objects the tests make, and a raw RDMA_VERBS_IOCTL builder for the
 * kernel rules libmlx5 never exercises (bad handles, INFO_HANDLES...).
 */
#ifndef MLX5_EMU_TEST_UTIL_H
#define MLX5_EMU_TEST_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "check.h"

/* PRM opcodes and general object type the tests use */
enum {
	OP_QUERY_HCA_CAP = 0x100,
	OP_ALLOC_FLOW_COUNTER = 0x939,
	OP_DEALLOC_FLOW_COUNTER = 0x93a,
	OP_QUERY_FLOW_COUNTER = 0x93b,
	OP_CREATE_GENERAL_OBJECT = 0xa00,
	OP_MODIFY_GENERAL_OBJECT = 0xa01,
	OP_QUERY_GENERAL_OBJECT = 0xa02,
	OP_DESTROY_GENERAL_OBJECT = 0xa03,
	OBJ_TYPE_FLOW_METER = 0xa,
	PRM_STATUS_BAD_OP = 0x2,
};

/* mlx5_ifc bit offsets from the start of a mailbox, big endian */
static inline uint32_t prm_get(const void *buf, unsigned int off,
			       unsigned int width)
{
	const uint8_t *p = (const uint8_t *)buf + off / 32 * 4;
	uint32_t w = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		     (uint32_t)p[2] << 8 | p[3];

	return w >> (32 - off % 32 - width) &
	       (width >= 32 ? ~0u : (1u << width) - 1);
}

static inline void prm_set(void *buf, unsigned int off, unsigned int width,
			   uint32_t v)
{
	uint8_t *p = (uint8_t *)buf + off / 32 * 4;
	unsigned int shift = 32 - off % 32 - width;
	uint32_t mask = (width >= 32 ? ~0u : (1u << width) - 1) << shift;
	uint32_t w = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		     (uint32_t)p[2] << 8 | p[3];

	w = (w & ~mask) | (v << shift & mask);
	p[0] = w >> 24;
	p[1] = w >> 16;
	p[2] = w >> 8;
	p[3] = w;
}

#define PRM_STATUS(out) prm_get(out, 0x00, 8)
#define PRM_SYNDROME(out) prm_get(out, 0x20, 32)

/* mlx5dv_open_device() of the index-th device with DEVX */
static inline struct ibv_context *emu_open_devx(int index)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	if (index < n)
		ctx = mlx5dv_open_device(list[index], &attr);
	ibv_free_device_list(list);
	return ctx;
}

/* ALLOC_FLOW_COUNTER (bulk: flow_counter_bulk, in units of 128) */
static inline struct mlx5dv_devx_obj *emu_counter(struct ibv_context *ctx,
						  unsigned int bulk,
						  uint32_t *id)
{
	uint32_t in[4] = {}, out[4] = {};
	struct mlx5dv_devx_obj *obj;

	prm_set(in, 0x00, 16, OP_ALLOC_FLOW_COUNTER);
	prm_set(in, 0x78, 8, bulk);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj && id)
		*id = prm_get(out, 0x40, 32);
	return obj;
}

/* QUERY_FLOW_COUNTER of counter id: 0 or errno, status in *status */
static inline int emu_counter_query(struct mlx5dv_devx_obj *obj, uint32_t id,
				    uint8_t *status)
{
	uint32_t in[8] = {}, out[8] = {};
	int ret;

	prm_set(in, 0x00, 16, OP_QUERY_FLOW_COUNTER);
	prm_set(in, 0xe0, 32, id);
	ret = mlx5dv_devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
	if (status)
		*status = (uint8_t)PRM_STATUS(out);
	return ret;
}

/* a flow meter general object whose CBS exponent/mantissa are given */
#define METER_IN_LEN (16 + 128)
static inline struct mlx5dv_devx_obj *emu_meter(struct ibv_context *ctx,
						unsigned int cbs_exp,
						unsigned int cbs_man,
						uint32_t *id)
{
	uint8_t in[METER_IN_LEN] = {};
	uint32_t out[4] = {};
	struct mlx5dv_devx_obj *obj;

	prm_set(in, 0x00, 16, OP_CREATE_GENERAL_OBJECT);
	prm_set(in, 0x30, 16, OBJ_TYPE_FLOW_METER);
	prm_set(in, 0xc0, 1, 1);		/* active */
	prm_set(in, 0x180, 1, 1);		/* valid params */
	prm_set(in, 0x1c3, 5, cbs_exp);
	prm_set(in, 0x1c8, 8, cbs_man);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj && id)
		*id = prm_get(out, 0x40, 32);
	return obj;
}

/* QUERY_GENERAL_OBJECT of a meter: 0 or errno; the CBS it reports */
static inline int emu_meter_query(struct mlx5dv_devx_obj *obj, uint32_t id,
				  unsigned int *cbs_exp, unsigned int *cbs_man,
				  uint8_t *status)
{
	uint32_t in[4] = {};
	uint8_t out[METER_IN_LEN] = {};
	int ret;

	prm_set(in, 0x00, 16, OP_QUERY_GENERAL_OBJECT);
	prm_set(in, 0x30, 16, OBJ_TYPE_FLOW_METER);
	prm_set(in, 0x40, 32, id);
	ret = mlx5dv_devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
	if (cbs_exp)
		*cbs_exp = prm_get(out, 0x1c3, 5);
	if (cbs_man)
		*cbs_man = prm_get(out, 0x1c8, 8);
	if (status)
		*status = (uint8_t)PRM_STATUS(out);
	return ret;
}

/*
 * A raw ioctl: the attrs as given, the header around them.  Returns 0 or
 * the errno, as libibverbs' execute_ioctl() does.
 */
struct emu_raw {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[8];
};

static inline void raw_init(struct emu_raw *r, uint16_t object,
			    uint16_t method)
{
	memset(r, 0, sizeof(*r));
	r->hdr.object_id = object;
	r->hdr.method_id = method;
	r->hdr.driver_id = RDMA_DRIVER_MLX5;
}

static inline struct ib_uverbs_attr *raw_attr(struct emu_raw *r, uint16_t id,
					      uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a = &r->attrs[r->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	return a;
}

static inline int raw_exec(int fd, struct emu_raw *r)
{
	r->hdr.length = sizeof(r->hdr) + r->hdr.num_attrs * sizeof(r->attrs[0]);
	return ioctl(fd, RDMA_VERBS_IOCTL, &r->hdr) ? errno : 0;
}

/*
 * UVERBS_METHOD_INFO_HANDLES: the handles of object type obj_type in the
 * ufile of fd, up to cap of them.  Returns 0 or errno; *total gets
 * TOTAL_HANDLES.
 */
static inline int emu_info_handles(int fd, uint16_t obj_type, uint32_t *list,
				   size_t cap, uint32_t *total)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	raw_attr(&r, UVERBS_ATTR_INFO_OBJECT_ID, 8, obj_type);
	raw_attr(&r, UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(*total),
		 (uintptr_t)total);
	raw_attr(&r, UVERBS_ATTR_INFO_HANDLES_LIST,
		 (uint16_t)(cap * sizeof(*list)), (uintptr_t)list);
	return raw_exec(fd, &r);
}

/*
 * MLX5_IB_METHOD_DEVX_OBJ_QUERY of flow counter counter_id through the
 * DEVX object at handle in the ufile of fd, bypassing libmlx5.  Returns 0
 * or the errno.
 */
static inline int emu_raw_counter_query(int fd, uint64_t handle,
					uint32_t counter_id)
{
	uint32_t in[8] = {}, out[8] = {};
	struct emu_raw r;

	prm_set(in, 0x00, 16, OP_QUERY_FLOW_COUNTER);
	prm_set(in, 0xe0, 32, counter_id);
	raw_init(&r, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_QUERY);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, 0, handle);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, sizeof(in),
		 (uintptr_t)in);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, sizeof(out),
		 (uintptr_t)out);
	return raw_exec(fd, &r);
}

static inline bool handles_contain(const uint32_t *list, uint32_t n,
				   uint32_t h)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (list[i] == h)
			return true;
	return false;
}

/* SKIPPED unless running under mlx5-emu */
static inline void emu_require(const char *name)
{
	if (!getenv("MLX5_EMU_DIR"))
		check_skip(name, "not running under mlx5-emu");
}

#endif
