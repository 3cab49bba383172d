/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The DEVX contexts and objects the tests make, one definition each: a
 * context opened with DEVX, a DEVX QP and the verbs PD, CQ and UMEM it
 * needs, a PD, a flow counter (or a bulk of them) and a flow meter
 * general object, with their PRM mailboxes written from prm/.  Every
 * function returns what the mlx5dv_devx_*() call under it returns (the
 * object or NULL with errno; 0 or an errno).
 */
#ifndef MLX5_SHARE_TEST_DEVX_OBJS_H
#define MLX5_SHARE_TEST_DEVX_OBJS_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include "prm_layout.h"

/*
 * mlx5dv_open_device() with DEVX of the mlx5 device called name or, when
 * name is NULL, of the index-th mlx5 device; NULL with errno when there
 * is none or it cannot be opened.
 */
struct ibv_context *devx_open(const char *name, int index);

/*
 * CREATE_QP (RC, 8 send and 8 receive WQEs) on verbs pd and cq, its work
 * queue at the start of the UMEM umem_id and its doorbell record at
 * DEVX_QP_DBR_OFFSET in it (a real kernel marks both as lying in a UMEM);
 * *qpn (when not NULL) gets the QP number.
 */
struct mlx5dv_devx_obj *devx_qp_create(struct ibv_context *ctx,
				       struct ibv_pd *pd, struct ibv_cq *cq,
				       uint32_t umem_id, uint32_t *qpn);

/*
 * What devx_qp_create() needs besides the context: a verbs PD and CQ, and
 * a UMEM (DEVX_QP_UMEM_PAGES pages) for the QP's work queue and doorbell
 * record, the record in the last 4 KiB whatever the page size (the work
 * queue takes 640 bytes).
 */
enum {
	DEVX_QP_UMEM_PAGES = 4,
	DEVX_QP_DBR_OFFSET = (DEVX_QP_UMEM_PAGES - 1) * 4096,
};

struct devx_qp_env {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	void *buf;
	struct mlx5dv_devx_umem *umem;
};

/* 0, or an errno (errno set too) with nothing left allocated. */
int devx_qp_env_open(struct ibv_context *ctx, struct devx_qp_env *env);
/* 0, or the errno of the first release that failed (all are tried). */
int devx_qp_env_close(struct devx_qp_env *env);

/* ALLOC_PD; *pdn (when not NULL) gets the PD number. */
struct mlx5dv_devx_obj *pd_alloc(struct ibv_context *ctx, uint32_t *pdn);

/*
 * ALLOC_FLOW_COUNTER of one counter, or with bulk (flow_counter_bulk, in
 * units of 128) of a bulk; *id (when not NULL) gets the first id.
 */
struct mlx5dv_devx_obj *fc_alloc(struct ibv_context *ctx, uint32_t *id);
struct mlx5dv_devx_obj *fc_alloc_bulk(struct ibv_context *ctx,
				      unsigned int bulk, uint32_t *id);

/* QUERY_FLOW_COUNTER of counter id through obj; out gets the mailbox. */
int fc_query(struct mlx5dv_devx_obj *obj, uint32_t id,
	     uint8_t out[PRM_QUERY_FC_OUT_LEN]);
/* The same, giving only the firmware status (when status is not NULL). */
int fc_query_status(struct mlx5dv_devx_obj *obj, uint32_t id, uint8_t *status);

/* CREATE_GENERAL_OBJECT of a flow meter, inactive, no parameters. */
struct mlx5dv_devx_obj *meter_create(struct ibv_context *ctx, uint32_t *id);
/* An active flow meter with valid parameters and this CBS. */
struct mlx5dv_devx_obj *meter_create_cbs(struct ibv_context *ctx,
					 unsigned int cbs_exp,
					 unsigned int cbs_man, uint32_t *id);

/* QUERY_GENERAL_OBJECT of meter id: whether it is active. */
int meter_query(struct mlx5dv_devx_obj *obj, uint32_t id, bool *active);
/* The same, giving its CBS and the firmware status (each when not NULL). */
int meter_query_cbs(struct mlx5dv_devx_obj *obj, uint32_t id,
		    unsigned int *cbs_exp, unsigned int *cbs_man,
		    uint8_t *status);

/* MODIFY_GENERAL_OBJECT of meter id: its active bit, or its CBS. */
int meter_set_active(struct mlx5dv_devx_obj *obj, uint32_t id, bool active);
int meter_set_cbs(struct mlx5dv_devx_obj *obj, uint32_t id,
		  unsigned int cbs_exp, unsigned int cbs_man);

#endif
