// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs CQs under mlx5-emu through the system's libibverbs and libmlx5:
 * the three create paths, what the kernel answers about the CQ (its
 * size, its cqn), the completion vector and flag checks, mlx5's driver
 * data checks (driven with raw ioctls: libmlx5 always sends good data),
 * and a CQ a QP uses refusing to go first.
 */
#include <stdio.h>
#include <unistd.h>

#include <rdma/mlx5-abi.h>

#include "emu_util.h"

static struct ibv_context *ctx;

static void three_paths(void)
{
	struct ibv_cq_init_attr_ex ax = {
		.cqe = 100,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct mlx5dv_cq_init_attr dv = {};
	struct mlx5dv_obj obj = {};
	struct mlx5dv_cq dvcq = {};
	struct ibv_cq_ex *cqx, *cqdv;
	struct ibv_cq *cq;
	struct ibv_wc wc;

	cq = ibv_create_cq(ctx, 10, NULL, NULL, 0);
	REQUIRE(cq);
	/* the ring is the next power of two above 10 + 1: 15 usable */
	CHECK(cq->cqe >= 10);
	/* no data path: nothing is ever completed */
	CHECK_EQ(ibv_poll_cq(cq, 1, &wc), 0);
	obj.cq.in = cq;
	obj.cq.out = &dvcq;
	CHECK_EQ(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0);
	CHECK(dvcq.cqn != 0);
	CHECK_EQ(dvcq.cqe_size, 64);

	cqx = ibv_create_cq_ex(ctx, &ax);
	REQUIRE(cqx);
	CHECK(ibv_cq_ex_to_cq(cqx)->cqe >= 100);

	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 128;
	cqdv = mlx5dv_create_cq(ctx, &ax, &dv);
	REQUIRE(cqdv);
	obj.cq.in = ibv_cq_ex_to_cq(cqdv);
	CHECK_EQ(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0);
	CHECK_EQ(dvcq.cqe_size, 128);

	CHECK_EQ(ibv_destroy_cq(ibv_cq_ex_to_cq(cqdv)), 0);
	CHECK_EQ(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), 0);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
}

static void resize_and_moderate(void)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 10, NULL, NULL, 0);
	struct ibv_modify_cq_attr m = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = { .cq_count = 16, .cq_period = 100 },
	};

	REQUIRE(cq);
	/* the device reports no cq_resize: mlx5 answers ENOSYS */
	CHECK_EQ(ibv_resize_cq(cq, 100), ENOSYS);
	CHECK_EQ(ibv_modify_cq(cq, &m), 0);
	/* cq_period is 12 bits */
	m.moderate.cq_period = 0x1000;
	CHECK_EQ(ibv_modify_cq(cq, &m), EINVAL);
	m.attr_mask = 0;
	CHECK_EQ(ibv_modify_cq(cq, &m), EINVAL);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
}

static void kernel_checks(void)
{
	/* a completion vector the device lacks (it has num_comp_vectors) */
	CHECK_ERRNO(!ibv_create_cq(ctx, 10, NULL, NULL,
				   ctx->num_comp_vectors),
		    EINVAL);
	/* more CQEs than log_max_cq_sz (22) allows: libmlx5 says EINVAL */
	CHECK_ERRNO(!ibv_create_cq(ctx, 1 << 23, NULL, NULL, 0), EINVAL);
}

/* A raw CQ_CREATE with the given driver data; returns the errno. */
static int raw_cq(const void *uhw, uint16_t len, uint32_t cqe,
		  uint32_t vector, uint32_t *handle)
{
	uint64_t user_handle = 0;
	uint32_t resp_cqe = 0;
	uint32_t resp[2] = {};
	struct emu_raw r;
	int ret;

	raw_init(&r, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_CQE, 4, cqe);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, user_handle);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, vector);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, (uintptr_t)&resp_cqe);
	raw_attr(&r, UVERBS_ATTR_UHW_IN, len, len <= 8 ? 0 : (uintptr_t)uhw);
	if (len && len <= 8)
		memcpy(&r.attrs[r.hdr.num_attrs - 1].data, uhw, len);
	raw_attr(&r, UVERBS_ATTR_UHW_OUT, sizeof(resp), (uintptr_t)resp);
	ret = raw_exec(ctx->cmd_fd, &r);
	if (!ret) {
		*handle = (uint32_t)r.attrs[0].data;
		CHECK_EQ(resp_cqe, 15);	/* 8 asked: a ring of 16 */
		CHECK(resp[0] != 0);	/* mlx5_ib_create_cq_resp.cqn */
	}
	return ret;
}

static int raw_cq_destroy(uint32_t handle)
{
	struct ib_uverbs_destroy_cq_resp resp;
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	raw_attr(&r, UVERBS_ATTR_DESTROY_CQ_HANDLE, 0, handle);
	raw_attr(&r, UVERBS_ATTR_DESTROY_CQ_RESP, sizeof(resp),
		 (uintptr_t)&resp);
	return raw_exec(ctx->cmd_fd, &r);
}

static void driver_data(void)
{
	static uint8_t ring[4096 * 2] __attribute__((aligned(4096)));
	static uint32_t db[2] __attribute__((aligned(64)));
	struct {
		struct mlx5_ib_create_cq c;
		uint8_t tail[8];
	} big = {};
	struct mlx5_ib_create_cq c = {
		.buf_addr = (uintptr_t)ring,
		.db_addr = (uintptr_t)db,
		.cqe_size = 64,
		.flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX,
	};
	struct mlx5_ib_create_cq bad;
	uint32_t h;

	/* the good request */
	CHECK_EQ(raw_cq(&c, sizeof(c), 8, 0, &h), 0);
	CHECK_EQ(raw_cq_destroy(h), 0);
	CHECK_EQ(raw_cq_destroy(h), ENOENT);
	/* a longer one: the kernel reads what it knows */
	big.c = c;
	big.tail[3] = 1;
	CHECK_EQ(raw_cq(&big, sizeof(big), 8, 0, &h), 0);
	CHECK_EQ(raw_cq_destroy(h), 0);
	/* shorter than the flags, or none */
	CHECK_EQ(raw_cq(&c, offsetof(struct mlx5_ib_create_cq, flags) - 1, 8,
			0, &h), EINVAL);
	CHECK_EQ(raw_cq(&c, 0, 8, 0, &h), EINVAL);
	/* a CQE size mlx5 does not have */
	bad = c;
	bad.cqe_size = 32;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EINVAL);
	/* reserved fields, unknown flags */
	bad = c;
	bad.reserved0 = 1;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EINVAL);
	bad = c;
	bad.reserved1 = 1;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EINVAL);
	bad = c;
	bad.flags |= 1 << 7;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EINVAL);
	/* a dynamic-UAR context must name its UAR page */
	bad = c;
	bad.flags = 0;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EINVAL);
	/* capabilities the device lacks */
	bad = c;
	bad.flags |= MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS;
	CHECK_EQ(raw_cq(&bad, sizeof(bad), 8, 0, &h), EOPNOTSUPP);
	/* the core's checks come first */
	CHECK_EQ(raw_cq(&c, sizeof(c), 8, 64, &h), EINVAL);
	CHECK_EQ(raw_cq(&c, sizeof(c), 0x80000000u, 0, &h), EINVAL);
}

static void busy_under_qp(void)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *scq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	struct ibv_cq *rcq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	struct ibv_qp *qp;

	REQUIRE(pd && scq && rcq);
	ia.send_cq = scq;
	ia.recv_cq = rcq;
	qp = ibv_create_qp(pd, &ia);
	REQUIRE(qp);
	/* ib_destroy_cq_user(): usecnt -> EBUSY; the CQ stays usable */
	CHECK_EQ(ibv_destroy_cq(scq), EBUSY);
	CHECK_EQ(ibv_destroy_cq(rcq), EBUSY);
	CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(ibv_destroy_cq(scq), 0);
	CHECK_EQ(ibv_destroy_cq(rcq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

int main(void)
{
	ctx = emu_start_verbs("test_verbs_cq");
	three_paths();
	kernel_checks();
	resize_and_moderate();
	driver_data();
	busy_under_qp();
	CHECK_EQ(ibv_close_device(ctx), 0);
	printf("test_verbs_cq: %u passed, %u failed\n", check_passed,
	       check_failed);
	return check_failed ? 1 : 0;
}
