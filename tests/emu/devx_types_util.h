/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The DEVX objects of every type the import treats specially, made
 * through the real libmlx5 against mlx5-emu: the same PRM mailboxes the
 * firmware tests send (tests/firmware/fw_test_objs.h), run with
 * mlx5dv_devx_obj_create() and friends instead of straight into the
 * model.  Those builders also name emu_fw_exec(), which these tests
 * never call: the programs link emu_fw for it.
 */
#ifndef MLX5_EMU_DEVX_TYPES_UTIL_H
#define MLX5_EMU_DEVX_TYPES_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "fw_test_objs.h"

/* mlx5dv_open_device() of the index-th device with DEVX. */
static inline struct ibv_context *dx_open(int index)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	if (list && index < n)
		ctx = mlx5dv_open_device(list[index], &attr);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/*
 * Creates the object m->in describes; *id gets the field (off, width)
 * of the answer.  NULL with errno on failure (m->out then holds the
 * firmware's status and syndrome when errno is EREMOTEIO).
 */
static inline struct mlx5dv_devx_obj *dx_create(struct ibv_context *ctx,
						struct mbox *m, size_t inlen,
						uint32_t *id, unsigned int off,
						unsigned int width)
{
	struct mlx5dv_devx_obj *obj;

	memset(m->out, 0, 64);
	obj = mlx5dv_devx_obj_create(ctx, m->in, inlen, m->out, 64);
	if (obj && id)
		*id = prm_get(m->out, off, width);
	return obj;
}

/* Queries or modifies through obj: 0 or the errno. */
static inline int dx_query(struct mlx5dv_devx_obj *obj, struct mbox *m,
			   size_t inlen, size_t outlen)
{
	memset(m->out, 0, outlen);
	return mlx5dv_devx_obj_query(obj, m->in, inlen, m->out, outlen);
}

static inline int dx_modify(struct mlx5dv_devx_obj *obj, struct mbox *m,
			    size_t inlen)
{
	memset(m->out, 0, 16);
	return mlx5dv_devx_obj_modify(obj, m->in, inlen, m->out, 16);
}

/* The objects under the receive and send side, made by one context. */
struct dx_base {
	void *buf;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *pd, *td, *cq;
	uint32_t pdn, tdn, cqn;
};

enum { DX_BASE_PAGES = 8 };

static inline void dx_base_make(struct ibv_context *ctx, struct dx_base *b)
{
	struct mbox m;

	REQUIRE(posix_memalign(&b->buf, 4096, DX_BASE_PAGES * 4096) == 0);
	b->umem = mlx5dv_devx_umem_reg(ctx, b->buf, DX_BASE_PAGES * 4096,
				       IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(b->umem);
	mbox_init(&m, PRM_OP_ALLOC_PD, 0, 0);
	b->pd = dx_create(ctx, &m, 16, &b->pdn, PRM_OUT_OBJN);
	mbox_init(&m, PRM_OP_ALLOC_TRANSPORT_DOMAIN, 0, 0);
	b->td = dx_create(ctx, &m, 16, &b->tdn, PRM_OUT_OBJN);
	/* 64 CQEs of 64 bytes: the first page; the doorbell: the last. */
	mbox_init(&m, PRM_OP_CREATE_CQ, 0, 0);
	prm_set(m.in, PRM_CQC_LOG_CQ_SIZE, 6);
	prm_set(m.in, PRM_CQ_UMEM_ID, b->umem->umem_id);
	prm_set(m.in, PRM_CQ_UMEM_VALID, 1);
	prm_set(m.in, PRM_CQC_DBR_UMEM_ID, b->umem->umem_id);
	prm_set(m.in, PRM_CQC_DBR_UMEM_VALID, 1);
	prm_set64(m.in, PRM_CQC_DBR_ADDR, (DX_BASE_PAGES - 1) * 4096);
	b->cq = dx_create(ctx, &m, PRM_CQ_IN_LEN, &b->cqn, PRM_OUT_OBJN);
	REQUIRE(b->pd && b->td && b->cq);
}

/* Destroys the n objects of objs in order, CHECKing each. */
static inline void dx_destroy_each(struct mlx5dv_devx_obj *const *objs,
				   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int ret = mlx5dv_devx_obj_destroy(objs[i]);

		if (ret)
			fprintf(stderr, "destroy of object %zu of %zu:\n",
				i + 1, n);
		CHECK_EQ(ret, 0);
	}
}

/* dx_destroy_each() of the objects named, in order. */
#define DX_DESTROY(...)                                                    \
	dx_destroy_each((struct mlx5dv_devx_obj *[]){ __VA_ARGS__ },       \
			sizeof((struct mlx5dv_devx_obj *[]){ __VA_ARGS__ }) / \
				sizeof(struct mlx5dv_devx_obj *))

static inline void dx_base_drop(struct dx_base *b)
{
	DX_DESTROY(b->cq, b->td, b->pd);
	CHECK_EQ(mlx5dv_devx_umem_dereg(b->umem), 0);
	free(b->buf);
}

/*
 * An RQ or SQ on the base, with its number: its ring the slot-th KiB of
 * page 1, its doorbell record the slot-th 64 bytes of the page before
 * the CQ's.
 */
static inline struct mlx5dv_devx_obj *dx_wq(struct ibv_context *ctx,
					    const struct dx_base *b,
					    uint16_t opcode, uint32_t tis,
					    unsigned int slot, uint32_t *n)
{
	struct mbox m;

	wq_cmd(&m, opcode, 0, b->cqn, b->pdn, tis, b->umem->umem_id,
	       4096 + slot * 1024);
	prm_set(m.in, PRM_WQ_DBR_UMEM_VALID, 1);
	prm_set(m.in, PRM_WQ_DBR_UMEM_ID, b->umem->umem_id);
	prm_set64(m.in, PRM_WQ_DBR_ADDR,
		  (DX_BASE_PAGES - 2) * 4096 + slot * 64);
	return dx_create(ctx, &m, PRM_OBJ_IN_LEN, n, PRM_OUT_OBJN);
}

/* A NIC receive flow table at level, 2^4 entries. */
static inline struct mlx5dv_devx_obj *dx_ft(struct ibv_context *ctx,
					    unsigned int level, uint32_t *id)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, 0, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, PRM_FT_TYPE_NIC_RX);
	prm_set(m.in, PRM_FTC_LEVEL, level);
	prm_set(m.in, PRM_FTC_LOG_SIZE, 4);
	return dx_create(ctx, &m, PRM_FS_IN_LEN, id, PRM_FT_OUT_ID);
}

/* A group of flow indexes [start, end] in receive table ft. */
static inline struct mlx5dv_devx_obj *dx_fg(struct ibv_context *ctx,
					    uint32_t ft, uint32_t start,
					    uint32_t end, uint32_t *id)
{
	struct mbox m;

	fs_cmd(&m, PRM_OP_CREATE_FLOW_GROUP, 0, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_FG_START, start);
	prm_set(m.in, PRM_FG_END, end);
	return dx_create(ctx, &m, PRM_FG_IN_LEN, id, PRM_FG_OUT_ID);
}

/*
 * An entry at index of group fg in receive table ft: forwarding to the
 * TIR tir when it is not 0, counting into counter when that is not 0,
 * else allowing.
 */
static inline size_t dx_fte_cmd(struct mbox *m, uint16_t op_mod, uint32_t ft,
				uint32_t fg, uint32_t index, uint32_t tir,
				uint32_t counter)
{
	uint8_t *list = m->in + PRM_FTE_LEN;
	uint32_t action = PRM_FTE_ACTION_ALLOW;

	fs_cmd(m, PRM_OP_SET_FLOW_TABLE_ENTRY, 0, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m->in, PRM_HDR_OP_MOD, op_mod);
	prm_set(m->in, PRM_FTE_INDEX, index);
	prm_set(m->in, PRM_FTE_GROUP_ID, fg);
	if (tir) {
		action = PRM_FTE_ACTION_FWD_DEST;
		prm_set(m->in, PRM_FTE_DEST_LIST_SIZE, 1);
		prm_set(list, PRM_FTE_DEST_TYPE, PRM_FTE_DEST_TIR);
		prm_set(list, PRM_FTE_DEST_ID, tir);
		list += PRM_FTE_DEST_LEN;
	}
	if (counter) {
		action |= PRM_FTE_ACTION_COUNT;
		prm_set(m->in, PRM_FTE_COUNTER_LIST_SIZE, 1);
		prm_set(list, PRM_FTE_COUNTER_ID, counter);
		list += PRM_FTE_DEST_LEN;
	}
	prm_set(m->in, PRM_FTE_ACTION, action);
	return list - m->in;
}

/* A 50-byte VXLAN encapsulation. */
static inline struct mlx5dv_devx_obj *dx_reformat(struct ibv_context *ctx,
						  uint32_t *id)
{
	struct mbox m;

	reformat_cmd(&m, 0, 50);
	return dx_create(ctx, &m, PRM_REFORMAT_DATA_BYTE + 50, id,
			 PRM_REFORMAT_ID);
}

/* One set action for receive tables. */
static inline struct mlx5dv_devx_obj *dx_modhdr(struct ibv_context *ctx,
						uint32_t *id)
{
	struct mbox m;
	size_t len = modhdr_cmd(&m, 0, PRM_FT_TYPE_NIC_RX, 1);

	return dx_create(ctx, &m, len, id, PRM_MODHDR_ID);
}

/* A general object of type: the sampler between ft and ft2, an ASO
 * object in pd. */
static inline struct mlx5dv_devx_obj *dx_gobj(struct ibv_context *ctx,
					      uint16_t type, uint32_t pd,
					      uint32_t ft, uint32_t ft2,
					      uint32_t *id)
{
	size_t len = PRM_GOBJ_BYTE + PRM_ASO_LEN;
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_GENERAL_OBJECT, 0, 0);
	prm_set(m.in, PRM_GOBJ_TYPE, type);
	if (type == PRM_OBJ_TYPE_FLOW_SAMPLER) {
		prm_set(m.in, PRM_SAMPLER_TABLE_TYPE, PRM_FT_TYPE_NIC_RX);
		prm_set(m.in, PRM_SAMPLER_SAMPLE_TABLE, ft2);
		prm_set(m.in, PRM_SAMPLER_DEFAULT_TABLE, ft);
		len = PRM_GOBJ_BYTE + PRM_SAMPLER_LEN;
	} else {
		prm_set(m.in, PRM_ASO_ACCESS_PD, pd);
	}
	return dx_create(ctx, &m, len, id, PRM_GOBJ_OUT_ID);
}

#endif
