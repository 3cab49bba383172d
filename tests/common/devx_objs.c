// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devx_objs.h"
#include "prm_bits.h"
#include "prm_opcodes.h"

/* A query whose answer starts from zeros, whatever the query leaves. */
static int query_into(struct mlx5dv_devx_obj *obj, const void *in,
		      size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return mlx5dv_devx_obj_query(obj, in, inlen, out, outlen);
}

struct ibv_context *devx_open(const char *name, int index)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n, i, seen = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	errno = ENODEV;
	for (i = 0; i < n && !ctx; i++) {
		if (!mlx5dv_is_supported(list[i]))
			continue;
		if (name ? strcmp(ibv_get_device_name(list[i]), name) :
			   seen++ != index)
			continue;
		ctx = mlx5dv_open_device(list[i], &attr);
	}
	ibv_free_device_list(list);
	return ctx;
}

struct mlx5dv_devx_obj *pd_alloc(struct ibv_context *ctx, uint32_t *pdn)
{
	uint8_t in[PRM_HDR_LEN] = { 0 }, out[PRM_HDR_LEN] = { 0 };
	struct mlx5dv_devx_obj *obj;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_PD);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj && pdn)
		*pdn = prm_get(out, PRM_PD_OUT);
	return obj;
}

struct mlx5dv_devx_obj *fc_alloc_bulk(struct ibv_context *ctx,
				      unsigned int bulk, uint32_t *id)
{
	uint8_t in[PRM_ALLOC_FC_IN_LEN] = { 0 }, out[PRM_HDR_LEN] = { 0 };
	struct mlx5dv_devx_obj *obj;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	prm_set(in, PRM_ALLOC_FC_BULK, bulk);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj && id)
		*id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	return obj;
}

struct mlx5dv_devx_obj *fc_alloc(struct ibv_context *ctx, uint32_t *id)
{
	return fc_alloc_bulk(ctx, 0, id);
}

int fc_query(struct mlx5dv_devx_obj *obj, uint32_t id,
	     uint8_t out[PRM_QUERY_FC_OUT_LEN])
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = { 0 };

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, id);
	return query_into(obj, in, sizeof(in), out, PRM_QUERY_FC_OUT_LEN);
}

int fc_query_status(struct mlx5dv_devx_obj *obj, uint32_t id, uint8_t *status)
{
	uint8_t out[PRM_QUERY_FC_OUT_LEN];
	int ret = fc_query(obj, id, out);

	if (status)
		*status = (uint8_t)prm_get(out, PRM_OUT_STATUS);
	return ret;
}

/* The general object header of a command on flow meter id. */
static void meter_hdr(uint8_t *in, uint16_t opcode, uint32_t id)
{
	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_GOBJ_ID, id);
}

static struct mlx5dv_devx_obj *meter_make(struct ibv_context *ctx,
					  uint8_t in[PRM_METER_IN_LEN],
					  uint32_t *id)
{
	uint8_t out[PRM_HDR_LEN] = { 0 };
	struct mlx5dv_devx_obj *obj;

	meter_hdr(in, PRM_OP_CREATE_GENERAL_OBJECT, 0);
	obj = mlx5dv_devx_obj_create(ctx, in, PRM_METER_IN_LEN, out,
				     sizeof(out));
	if (obj && id)
		*id = prm_get(out, PRM_GOBJ_OUT_ID);
	return obj;
}

struct mlx5dv_devx_obj *meter_create(struct ibv_context *ctx, uint32_t *id)
{
	uint8_t in[PRM_METER_IN_LEN] = { 0 };

	return meter_make(ctx, in, id);
}

struct mlx5dv_devx_obj *meter_create_cbs(struct ibv_context *ctx,
					 unsigned int cbs_exp,
					 unsigned int cbs_man, uint32_t *id)
{
	uint8_t in[PRM_METER_IN_LEN] = { 0 };

	prm_set(in, PRM_METER_ACTIVE, 1);
	prm_set(in, PRM_METER_VALID, 1);
	prm_set(in, PRM_METER_CBS_EXP, cbs_exp);
	prm_set(in, PRM_METER_CBS_MAN, cbs_man);
	return meter_make(ctx, in, id);
}

static int meter_query_out(struct mlx5dv_devx_obj *obj, uint32_t id,
			   uint8_t out[PRM_METER_OUT_LEN])
{
	uint8_t in[PRM_HDR_LEN] = { 0 };

	meter_hdr(in, PRM_OP_QUERY_GENERAL_OBJECT, id);
	return query_into(obj, in, sizeof(in), out, PRM_METER_OUT_LEN);
}

int meter_query(struct mlx5dv_devx_obj *obj, uint32_t id, bool *active)
{
	uint8_t out[PRM_METER_OUT_LEN];
	int ret = meter_query_out(obj, id, out);

	if (!ret)
		*active = prm_get(out, PRM_METER_ACTIVE);
	return ret;
}

int meter_query_cbs(struct mlx5dv_devx_obj *obj, uint32_t id,
		    unsigned int *cbs_exp, unsigned int *cbs_man,
		    uint8_t *status)
{
	uint8_t out[PRM_METER_OUT_LEN];
	int ret = meter_query_out(obj, id, out);

	if (cbs_exp)
		*cbs_exp = prm_get(out, PRM_METER_CBS_EXP);
	if (cbs_man)
		*cbs_man = prm_get(out, PRM_METER_CBS_MAN);
	if (status)
		*status = (uint8_t)prm_get(out, PRM_OUT_STATUS);
	return ret;
}

/* MODIFY_GENERAL_OBJECT of the fields in select, set in in beforehand. */
static int meter_modify(struct mlx5dv_devx_obj *obj, uint32_t id,
			uint32_t select, uint8_t in[PRM_METER_IN_LEN])
{
	uint8_t out[PRM_HDR_LEN] = { 0 };

	meter_hdr(in, PRM_OP_MODIFY_GENERAL_OBJECT, id);
	prm_set(in, PRM_METER_SELECT_LO, select);
	return mlx5dv_devx_obj_modify(obj, in, PRM_METER_IN_LEN, out,
				      sizeof(out));
}

int meter_set_active(struct mlx5dv_devx_obj *obj, uint32_t id, bool active)
{
	uint8_t in[PRM_METER_IN_LEN] = { 0 };

	prm_set(in, PRM_METER_ACTIVE, active);
	return meter_modify(obj, id, PRM_METER_SEL_ACTIVE, in);
}

int meter_set_cbs(struct mlx5dv_devx_obj *obj, uint32_t id,
		  unsigned int cbs_exp, unsigned int cbs_man)
{
	uint8_t in[PRM_METER_IN_LEN] = { 0 };

	prm_set(in, PRM_METER_CBS_EXP, cbs_exp);
	prm_set(in, PRM_METER_CBS_MAN, cbs_man);
	return meter_modify(obj, id, PRM_METER_SEL_CBS, in);
}

struct mlx5dv_devx_obj *devx_qp_create(struct ibv_context *ctx,
				       struct ibv_pd *pd, struct ibv_cq *cq,
				       uint32_t umem_id, uint32_t *qpn)
{
	uint8_t in[PRM_QP_IN_LEN] = { 0 }, out[PRM_HDR_LEN] = { 0 };
	struct mlx5dv_pd dv_pd = { 0 };
	struct mlx5dv_cq dv_cq = { 0 };
	struct mlx5dv_obj o = {
		.pd = { .in = pd, .out = &dv_pd },
		.cq = { .in = cq, .out = &dv_cq },
	};
	struct mlx5dv_devx_obj *obj;
	int ret;

	ret = mlx5dv_init_obj(&o, MLX5DV_OBJ_PD | MLX5DV_OBJ_CQ);
	if (ret) {
		errno = ret;
		return NULL;
	}
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_QP);
	prm_set(in, PRM_QPC_ST, PRM_QP_ST_RC);
	prm_set(in, PRM_QPC_PM_STATE, PRM_QP_PM_MIGRATED);
	prm_set(in, PRM_QPC_PD, dv_pd.pdn);
	prm_set(in, PRM_QPC_LOG_SQ_SIZE, 3);
	prm_set(in, PRM_QPC_LOG_RQ_SIZE, 3);
	prm_set(in, PRM_QPC_CQN_SND, dv_cq.cqn);
	prm_set(in, PRM_QPC_CQN_RCV, dv_cq.cqn);
	prm_set(in, PRM_QP_WQ_UMEM_VALID, 1);
	prm_set(in, PRM_QP_WQ_UMEM_ID, umem_id);
	prm_set(in, PRM_QPC_DBR_UMEM_VALID, 1);
	prm_set(in, PRM_QPC_DBR_UMEM_ID, umem_id);
	prm_set64(in, PRM_QPC_DBR_ADDR, DEVX_QP_DBR_OFFSET);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (obj && qpn)
		*qpn = prm_get(out, PRM_OUT_OBJN);
	return obj;
}

int devx_qp_env_open(struct ibv_context *ctx, struct devx_qp_env *env)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = DEVX_QP_UMEM_PAGES * page;
	int err;

	memset(env, 0, sizeof(*env));
	env->pd = ibv_alloc_pd(ctx);
	if (!env->pd)
		goto fail;
	env->cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!env->cq)
		goto fail;
	err = posix_memalign(&env->buf, page, len);
	if (err) {
		env->buf = NULL;
		errno = err;
		goto fail;
	}
	env->umem = mlx5dv_devx_umem_reg(ctx, env->buf, len,
					 IBV_ACCESS_LOCAL_WRITE);
	if (!env->umem)
		goto fail;
	return 0;
fail:
	err = errno ? errno : EINVAL;
	devx_qp_env_close(env);
	errno = err;
	return err;
}

int devx_qp_env_close(struct devx_qp_env *env)
{
	int first = 0, ret;

	if (env->umem) {
		ret = mlx5dv_devx_umem_dereg(env->umem);
		if (ret && !first)
			first = ret;
	}
	free(env->buf);
	if (env->cq) {
		ret = ibv_destroy_cq(env->cq);
		if (ret && !first)
			first = ret;
	}
	if (env->pd) {
		ret = ibv_dealloc_pd(env->pd);
		if (ret && !first)
			first = ret;
	}
	memset(env, 0, sizeof(*env));
	return first;
}
