// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs QPs under mlx5-emu through the system's libibverbs and libmlx5:
 * RC, UC and UD QPs created three ways, every legal state transition with
 * the attributes the IB spec requires, ibv_query_qp() returning what was
 * set, illegal transitions and missing attributes with the kernel's
 * EINVAL, mlx5's create driver data checks (raw ioctls), and destroy.
 */
#include <stdio.h>
#include <unistd.h>

#include <rdma/mlx5-abi.h>

#include "emu_util.h"
#include "qp_attr.h"

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;

static struct ibv_qp *make_qp(enum ibv_qp_type type, int how)
{
	struct ibv_qp_init_attr ia = test_qp_attr(type, cq, 8);
	struct ibv_qp_init_attr_ex ax = {
		.qp_type = type,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = ia.cap,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct mlx5dv_qp_init_attr dv = {};

	switch (how) {
	case 0:
		return ibv_create_qp(pd, &ia);
	case 1:
		return ibv_create_qp_ex(ctx, &ax);
	default:
		return mlx5dv_create_qp(ctx, &ax, &dv);
	}
}

/*
 * The attributes of every transition these tests make, and the ones
 * check_attrs() reads back: each transition takes those its mask names.
 */
static const struct ibv_qp_attr qp_attrs = {
	.pkey_index = 0,
	.port_num = 1,
	.qkey = 0x11111111,
	.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE,
	.path_mtu = IBV_MTU_1024,
	.dest_qp_num = 0x1234,
	.rq_psn = 0x777,
	.max_dest_rd_atomic = 4,
	.min_rnr_timer = 12,
	.ah_attr = { .dlid = 7, .sl = 2, .port_num = 1 },
	.sq_psn = 0x999,
	.timeout = 14,
	.retry_cnt = 7,
	.rnr_retry = 7,
	.max_rd_atomic = 2,
};

#define INIT_PORT (IBV_QP_PKEY_INDEX | IBV_QP_PORT)
#define RTR_PATH (IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN)
#define RC_RTR (IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define RC_RTS (IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
		IBV_QP_MAX_QP_RD_ATOMIC)

/* RESET->INIT, INIT->RTR, RTR->RTS with what the IB spec requires. */
static int to_next(struct ibv_qp *qp, enum ibv_qp_state state)
{
	static const struct {
		int ud, uc, rc;	/* the mask for each type */
	} required[] = {
		[IBV_QPS_INIT] = { INIT_PORT | IBV_QP_QKEY,
				   INIT_PORT | IBV_QP_ACCESS_FLAGS,
				   INIT_PORT | IBV_QP_ACCESS_FLAGS },
		[IBV_QPS_RTR] = { 0, RTR_PATH, RTR_PATH | RC_RTR },
		[IBV_QPS_RTS] = { IBV_QP_SQ_PSN, IBV_QP_SQ_PSN,
				  IBV_QP_SQ_PSN | RC_RTS },
	};
	struct ibv_qp_attr a = qp_attrs;
	int mask;

	mask = qp->qp_type == IBV_QPT_UD ? required[state].ud :
	       qp->qp_type == IBV_QPT_UC ? required[state].uc :
	       required[state].rc;
	a.qp_state = state;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | mask);
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a = { .qp_state = s };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

static enum ibv_qp_state state_of(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return (enum ibv_qp_state)-1;
	return a.qp_state;
}

static void check_attrs(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	REQUIRE(ibv_query_qp(qp, &a, IBV_QP_STATE, &ia) == 0);
	CHECK_EQ(a.qp_state, IBV_QPS_RTS);
	CHECK_EQ(a.port_num, 1);
	CHECK_EQ(a.pkey_index, 0);
	CHECK_EQ(ia.qp_type, qp->qp_type);
	CHECK_EQ(a.sq_psn, 0x999);
	if (qp->qp_type == IBV_QPT_UD) {
		CHECK_EQ(a.qkey, 0x11111111);
		return;
	}
	CHECK_EQ(a.path_mtu, IBV_MTU_1024);
	CHECK_EQ(a.dest_qp_num, 0x1234);
	CHECK_EQ(a.rq_psn, 0x777);
	CHECK_EQ(a.ah_attr.dlid, 7);
	CHECK_EQ(a.ah_attr.sl, 2);
	CHECK_EQ(a.ah_attr.port_num, 1);
	if (qp->qp_type != IBV_QPT_RC)
		return;
	/* mlx5 keeps the remote rights only, not local write */
	CHECK_EQ(a.qp_access_flags,
		 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	CHECK_EQ(a.max_dest_rd_atomic, 4);
	CHECK_EQ(a.max_rd_atomic, 2);
	CHECK_EQ(a.min_rnr_timer, 12);
	CHECK_EQ(a.timeout, 14);
	CHECK_EQ(a.retry_cnt, 7);
	CHECK_EQ(a.rnr_retry, 7);
}

static void lifecycle(enum ibv_qp_type type, int how)
{
	struct ibv_qp_attr a = {};
	struct ibv_qp *qp = make_qp(type, how);
	struct mlx5dv_obj obj = {};
	struct mlx5dv_qp dvqp = {};

	REQUIRE(qp);
	CHECK(qp->qp_num >= 0x100);
	obj.qp.in = qp;
	obj.qp.out = &dvqp;
	CHECK_EQ(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_RESET);
	/* illegal from RESET: anything but RESET and INIT */
	CHECK_EQ(to_state(qp, IBV_QPS_RTR), EINVAL);
	CHECK_EQ(to_state(qp, IBV_QPS_RTS), EINVAL);
	CHECK_EQ(to_state(qp, IBV_QPS_ERR), EINVAL);
	/* RESET -> INIT without its required attributes */
	CHECK_EQ(to_state(qp, IBV_QPS_INIT), EINVAL);
	/* RESET -> RESET is a no-op */
	CHECK_EQ(to_state(qp, IBV_QPS_RESET), 0);
	CHECK_EQ(to_next(qp, IBV_QPS_INIT), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_INIT);
	/* INIT -> INIT with an optional attribute */
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX), 0);
	/* a port the device lacks, a P_Key index past the table */
	a.port_num = 2;
	CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT), EINVAL);
	a.pkey_index = 128;
	CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX),
		 EINVAL);
	/* INIT -> RTS skips RTR */
	CHECK_EQ(to_state(qp, IBV_QPS_RTS), EINVAL);
	if (type != IBV_QPT_UD)	/* RTR needs its attributes */
		CHECK_EQ(to_state(qp, IBV_QPS_RTR), EINVAL);
	CHECK_EQ(to_next(qp, IBV_QPS_RTR), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_RTR);
	CHECK_EQ(to_state(qp, IBV_QPS_INIT), EINVAL);
	CHECK_EQ(to_next(qp, IBV_QPS_RTS), 0);
	check_attrs(qp);
	/* RTS -> RTS with nothing but the state */
	CHECK_EQ(to_state(qp, IBV_QPS_RTS), 0);
	/* RTS -> SQD: the spec allows it, mlx5 has no command for it */
	CHECK_EQ(to_state(qp, IBV_QPS_SQD), EINVAL);
	CHECK_EQ(to_state(qp, IBV_QPS_ERR), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_ERR);
	CHECK_EQ(to_state(qp, IBV_QPS_RTS), EINVAL);
	CHECK_EQ(to_state(qp, IBV_QPS_ERR), 0);
	CHECK_EQ(to_state(qp, IBV_QPS_RESET), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_RESET);
	/* and round again, this time destroyed from RTS */
	CHECK_EQ(to_next(qp, IBV_QPS_INIT), 0);
	CHECK_EQ(to_next(qp, IBV_QPS_RTR), 0);
	CHECK_EQ(to_next(qp, IBV_QPS_RTS), 0);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
}

/* A raw QP_CREATE of an RC QP with the given driver data; the errno. */
static int raw_qp(const void *uhw, uint16_t len)
{
	struct ib_uverbs_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 8,
					.max_send_sge = 1,
					.max_recv_sge = 1 };
	struct ib_uverbs_qp_cap rcap;
	uint32_t qpn, resp[12] = {};
	uint64_t user_handle = 0;
	struct ib_uverbs_destroy_qp_resp dresp;
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[12];
	} r = {};
	struct emu_raw d;
	int ret;

#define ATTR(_id, _len, _data) r.attrs[r.hdr.num_attrs++] =                 \
	(struct ib_uverbs_attr){ .attr_id = (_id), .len = (_len),          \
				 .flags = UVERBS_ATTR_F_MANDATORY,         \
				 .data = (_data) }
	r.hdr.object_id = UVERBS_OBJECT_QP;
	r.hdr.method_id = UVERBS_METHOD_QP_CREATE;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	ATTR(UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0);
	ATTR(UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, pd->handle);
	ATTR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, cq->handle);
	ATTR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, cq->handle);
	ATTR(UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, user_handle);
	ATTR(UVERBS_ATTR_CREATE_QP_CAP, sizeof(cap), (uintptr_t)&cap);
	ATTR(UVERBS_ATTR_CREATE_QP_TYPE, 8, IBV_QPT_RC);
	ATTR(UVERBS_ATTR_CREATE_QP_RESP_CAP, sizeof(rcap), (uintptr_t)&rcap);
	ATTR(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, (uintptr_t)&qpn);
	ATTR(UVERBS_ATTR_UHW_IN, len, (uintptr_t)uhw);
	ATTR(UVERBS_ATTR_UHW_OUT, sizeof(resp), (uintptr_t)resp);
#undef ATTR
	r.hdr.length = sizeof(r.hdr) + r.hdr.num_attrs * sizeof(r.attrs[0]);
	ret = ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
	if (ret)
		return ret;
	CHECK(qpn != 0);
	CHECK_EQ(resp[0], 0x80000000u);	/* bfreg_index: none */
	raw_init(&d, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY);
	raw_attr(&d, UVERBS_ATTR_DESTROY_QP_HANDLE, 0, r.attrs[0].data);
	raw_attr(&d, UVERBS_ATTR_DESTROY_QP_RESP, sizeof(dresp),
		 (uintptr_t)&dresp);
	CHECK_EQ(raw_exec(ctx->cmd_fd, &d), 0);
	return 0;
}

static void driver_data(void)
{
	static uint8_t buf[4096 * 2] __attribute__((aligned(4096)));
	static uint32_t db[2] __attribute__((aligned(64)));
	struct mlx5_ib_create_qp c = emu_qp_driver_data(buf, db), bad;
	struct {
		struct mlx5_ib_create_qp c;
		uint8_t tail[8];
	} big;

	c.uidx = 1;
	c.bfreg_index = 1;
	memset(&big, 0, sizeof(big));
	big.c = c;

	CHECK_EQ(raw_qp(&c, sizeof(c)), 0);
	CHECK_EQ(raw_qp(&big, sizeof(big)), 0);	/* a zero tail is fine */
	big.tail[5] = 1;
	CHECK_EQ(raw_qp(&big, sizeof(big)), EINVAL);
	CHECK_EQ(raw_qp(&c, offsetof(struct mlx5_ib_create_qp, ece_options) -
			     4), EINVAL);
	bad = c;
	bad.reserved = 1;
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.flags |= 1 << 20;
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.uidx = 0x1000000;
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.sq_wqe_count = 6;	/* not a power of two */
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.rq_wqe_shift = 33;
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.rq_wqe_count = 1u << 16;	/* past log_max_qp_sz */
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EINVAL);
	bad = c;
	bad.ece_options = 0x10000000;
	CHECK_EQ(raw_qp(&bad, sizeof(bad)), EOPNOTSUPP);
}

/* EX_MODIFY_QP through INVOKE_WRITE with the given mlx5 driver data */
static int raw_ex_modify(uint32_t handle, uint32_t mask, uint32_t state,
			 const void *uhw, uint16_t uhw_len)
{
	struct ib_uverbs_ex_modify_qp cmd = {};
	struct ib_uverbs_ex_modify_qp_resp resp;
	struct emu_raw r;

	cmd.base.qp_handle = handle;
	cmd.base.attr_mask = mask;
	cmd.base.qp_state = state;
	cmd.base.port_num = 1;
	cmd.base.qkey = 0x11111111;
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&r, UVERBS_ATTR_WRITE_CMD, 8,
		 IB_USER_VERBS_CMD_FLAG_EXTENDED |
			 IB_USER_VERBS_EX_CMD_MODIFY_QP);
	raw_attr(&r, UVERBS_ATTR_CORE_IN, sizeof(cmd), (uintptr_t)&cmd);
	raw_attr(&r, UVERBS_ATTR_CORE_OUT, sizeof(resp), (uintptr_t)&resp);
	if (uhw_len)
		raw_attr(&r, UVERBS_ATTR_UHW_IN, uhw_len, (uintptr_t)uhw);
	return raw_exec(ctx->cmd_fd, &r);
}

/* mlx5_ib_modify_qp()'s driver data, which only EX_MODIFY_QP carries */
static void modify_driver_data(void)
{
	const uint32_t init = IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			      IBV_QP_PORT | IBV_QP_QKEY;
	struct {
		struct mlx5_ib_modify_qp m;
		uint32_t tail;
	} big = {};
	struct mlx5_ib_modify_qp m = {};
	struct ibv_qp *qp = make_qp(IBV_QPT_UD, 0);

	REQUIRE(qp);
	/* shorter than ece_options */
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &m, 8),
		 EINVAL);
	m.comp_mask = 1;
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &m,
			       sizeof(m)), EOPNOTSUPP);
	m.comp_mask = 0;
	m.burst_info.reserved = 1;
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &m,
			       sizeof(m)), EOPNOTSUPP);
	m.burst_info.reserved = 0;
	m.ece_options = 0x10000000;	/* the device has no ECE */
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &m,
			       sizeof(m)), EOPNOTSUPP);
	big.tail = 1;
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &big,
			       sizeof(big)), EOPNOTSUPP);
	/* an attribute mask past IB_USER_LAST_QP_ATTR_MASK, a dead handle */
	CHECK_EQ(raw_ex_modify(qp->handle, 1u << 26, IBV_QPS_INIT, NULL, 0),
		 EOPNOTSUPP);
	CHECK_EQ(raw_ex_modify(qp->handle + 100, init, IBV_QPS_INIT, NULL, 0),
		 ENOENT);
	/* a state past ERR */
	CHECK_EQ(raw_ex_modify(qp->handle, init, 7, NULL, 0), EINVAL);
	CHECK_EQ(state_of(qp), IBV_QPS_RESET);
	/* good driver data: the transition happens */
	big.tail = 0;
	CHECK_EQ(raw_ex_modify(qp->handle, init, IBV_QPS_INIT, &big,
			       sizeof(big)), 0);
	CHECK_EQ(state_of(qp), IBV_QPS_INIT);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
}

/* Basic SRQs: create, the size answer, a PD under an SRQ, destroy. */
static void srqs(void)
{
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = 100, .max_sge = 2 },
	};
	struct ibv_pd *p = ibv_alloc_pd(ctx);
	struct ibv_srq *srq;

	REQUIRE(p);
	srq = ibv_create_srq(p, &sa);
	REQUIRE(srq);
	/* the queue holds the next power of two above max_wr */
	CHECK(sa.attr.max_wr >= 100);
	CHECK_EQ(ibv_dealloc_pd(p), EBUSY);
	CHECK_EQ(ibv_destroy_srq(srq), 0);
	/* 2^log_max_srq_sz (15) work requests are too many */
	sa.attr.max_wr = 1 << 15;
	CHECK_ERRNO(!ibv_create_srq(p, &sa), EINVAL);
	CHECK_EQ(ibv_dealloc_pd(p), 0);
}

static void unsupported(void)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	/* raw packet QPs are not modelled (mlx5-emu(1)) */
	ia.qp_type = IBV_QPT_RAW_PACKET;
	CHECK_ERRNO(!ibv_create_qp(pd, &ia), EOPNOTSUPP);
}

int main(void)
{
	static const enum ibv_qp_type types[] = { IBV_QPT_RC, IBV_QPT_UC,
						  IBV_QPT_UD };
	unsigned int t;
	int how;

	ctx = emu_start_verbs("test_verbs_qp");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	REQUIRE(pd && cq);
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (how = 0; how < 3; how++)
			lifecycle(types[t], how);
	driver_data();
	modify_driver_data();
	srqs();
	unsupported();
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	printf("test_verbs_qp: %u passed, %u failed\n", check_passed,
	       check_failed);
	return check_failed ? 1 : 0;
}
