// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Random CQ and QP commands against the emulated kernel: creates with
 * random counts, vectors, types, handles and driver data, modifies and
 * queries with random attribute bytes, destroys of random handles.  Each
 * call must get 0 or an errno the kernel gives for bad input (never EIO,
 * which would mean the daemon died), the daemon must still serve the
 * context afterwards, and closing it must tear everything down so that a
 * new context starts clean.
 */
#include <stdio.h>
#include <unistd.h>

#include <rdma/mlx5-abi.h>

#include "emu_util.h"

#define ROUNDS 3000

static struct ibv_context *ctx;
static unsigned int seed = 1;
static unsigned int made_cq, made_qp, modified;
static uint32_t pd_handle, cq_handle, qp_handle;
static uint8_t buf[1 << 16] __attribute__((aligned(4096)));

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static void fill(void *p, size_t n)
{
	uint8_t *b = p;

	while (n--)
		*b++ = (uint8_t)rnd();
}

static bool allowed(int err)
{
	switch (err) {
	case 0: case EINVAL: case ENOENT: case EOPNOTSUPP: case EBUSY:
	case EFAULT: case ENOSPC: case EPROTONOSUPPORT: case EBADF:
	case ENOSYS: case EREMOTEIO:
		return true;
	default:
		return false;
	}
}

static void check_err(const char *what, int err)
{
	if (!allowed(err))
		fprintf(stderr, "%s: %s\n", what, strerror(err));
	CHECK(allowed(err));
}

/*
 * Driver data: random bytes, or half the time a good request of the
 * kind (sane, of size len) with one byte changed or not.
 */
static uint16_t uhw(uint8_t *in, const void *sane, uint16_t len)
{
	if (rnd() % 2) {
		len = (uint16_t)(rnd() % 65);
		fill(in, len);
		return len;
	}
	memcpy(in, sane, len);
	if (rnd() % 2)
		in[rnd() % len] ^= (uint8_t)(1u << rnd() % 8);
	return len;
}

static void random_cq_create(void)
{
	struct mlx5_ib_create_cq sane = {
		.buf_addr = (uintptr_t)buf,
		.db_addr = (uintptr_t)buf,
		.cqe_size = 64,
		.flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX,
	};
	uint8_t in[64], out[16];
	uint32_t resp_cqe;
	uint64_t user_handle = 0;
	struct emu_raw r;
	uint16_t len = uhw(in, &sane, sizeof(sane));
	int ret;

	raw_init(&r, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_CQE, 4, rnd() % 4 ? rnd() % 512 :
								rnd());
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, user_handle);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, rnd() % 6);
	raw_attr(&r, UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, (uintptr_t)&resp_cqe);
	raw_attr(&r, UVERBS_ATTR_UHW_IN, len, (uintptr_t)in);
	if (len <= 8)
		memcpy(&r.attrs[r.hdr.num_attrs - 1].data, in, len);
	raw_attr(&r, UVERBS_ATTR_UHW_OUT, sizeof(out), (uintptr_t)out);
	ret = raw_exec(ctx->cmd_fd, &r);
	check_err("CQ_CREATE", ret);
	made_cq += !ret;
}

static void random_qp_create(void)
{
	struct mlx5_ib_create_qp sane = emu_qp_driver_data(buf, buf);
	struct ib_uverbs_qp_cap cap, rcap;
	uint8_t in[64], out[48];
	uint64_t user_handle = 0;
	uint32_t qpn;
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[12];
	} r = {};
	uint16_t len = uhw(in, &sane, sizeof(sane));
	int ret;

#define ATTR(_id, _len, _data) r.attrs[r.hdr.num_attrs++] =                 \
	(struct ib_uverbs_attr){ .attr_id = (_id), .len = (_len),          \
				 .flags = UVERBS_ATTR_F_MANDATORY,         \
				 .data = (_data) }
	fill(&cap, sizeof(cap));
	if (rnd() % 4)
		cap.max_recv_wr %= 64;
	r.hdr.object_id = UVERBS_OBJECT_QP;
	r.hdr.method_id = UVERBS_METHOD_QP_CREATE;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	ATTR(UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0);
	if (rnd() % 8)
		ATTR(UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0,
		     rnd() % 4 ? pd_handle : rnd() % 8);
	if (rnd() % 8)
		ATTR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0,
		     rnd() % 4 ? cq_handle : rnd() % 8);
	if (rnd() % 8)
		ATTR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0,
		     rnd() % 4 ? cq_handle : rnd() % 8);
	ATTR(UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, user_handle);
	ATTR(UVERBS_ATTR_CREATE_QP_CAP, sizeof(cap), (uintptr_t)&cap);
	ATTR(UVERBS_ATTR_CREATE_QP_TYPE, 8, rnd() % 2 ? 2 + rnd() % 3 :
							  rnd() % 12);
	ATTR(UVERBS_ATTR_CREATE_QP_RESP_CAP, sizeof(rcap), (uintptr_t)&rcap);
	ATTR(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, (uintptr_t)&qpn);
	ATTR(UVERBS_ATTR_UHW_IN, len, (uintptr_t)in);
	ATTR(UVERBS_ATTR_UHW_OUT, sizeof(out), (uintptr_t)out);
#undef ATTR
	if (len <= 8)
		memcpy(&r.attrs[r.hdr.num_attrs - 2].data, in, len);
	r.hdr.length = sizeof(r.hdr) + r.hdr.num_attrs * sizeof(r.attrs[0]);
	ret = ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
	check_err("QP_CREATE", ret);
	made_qp += !ret;
	if (!ret)
		qp_handle = (uint32_t)r.attrs[0].data;
}

static void random_write(uint32_t cmd_id, size_t req_len, size_t resp_len)
{
	uint8_t req[128], resp[256];
	struct emu_raw r;
	int ret;

	fill(req, req_len);
	if (cmd_id == IB_USER_VERBS_CMD_MODIFY_QP && rnd() % 2) {
		struct ib_uverbs_modify_qp *m = (void *)req;

		/* a plausible one: a QP handle, few attributes, port 1 */
		m->qp_handle = rnd() % 4 ? qp_handle : rnd() % 16;
		m->attr_mask &= 0x1fffff;
		if (rnd() % 2)
			m->attr_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				       IBV_QP_PORT | (rnd() % 2 ? IBV_QP_QKEY :
						      IBV_QP_ACCESS_FLAGS);
		m->qp_state = rnd() % 8;
		m->port_num = 1;
		m->pkey_index = 0;
		m->dest.port_num = 1;
	} else if (cmd_id == IB_USER_VERBS_CMD_QUERY_QP) {
		((struct ib_uverbs_query_qp *)(void *)req)->qp_handle =
			rnd() % 4 ? qp_handle : rnd() % 16;
	}
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&r, UVERBS_ATTR_WRITE_CMD, 8, cmd_id);
	raw_attr(&r, UVERBS_ATTR_CORE_IN, (uint16_t)req_len, (uintptr_t)req);
	if (resp_len)
		raw_attr(&r, UVERBS_ATTR_CORE_OUT, (uint16_t)resp_len,
			 (uintptr_t)resp);
	ret = raw_exec(ctx->cmd_fd, &r);
	check_err("write", ret);
	modified += !ret && cmd_id == IB_USER_VERBS_CMD_MODIFY_QP;
}

static void random_destroy(uint16_t obj, uint16_t meth, uint16_t h_id,
			   uint16_t resp_id, size_t resp_len)
{
	uint8_t resp[16];
	struct emu_raw r;

	raw_init(&r, obj, meth);
	raw_attr(&r, h_id, 0, rnd() % 8);
	raw_attr(&r, resp_id, (uint16_t)resp_len, (uintptr_t)resp);
	check_err("destroy", raw_exec(ctx->cmd_fd, &r));
}

static void destroy_qps(void)
{
	struct ib_uverbs_destroy_qp_resp resp;
	uint32_t list[512], total = 0, i;
	struct emu_raw r;

	REQUIRE(emu_info_handles(ctx->cmd_fd, UVERBS_OBJECT_QP, list,
				 sizeof(list) / sizeof(list[0]), &total) == 0);
	CHECK(total < sizeof(list) / sizeof(list[0]));
	for (i = 0; i < total; i++) {
		raw_init(&r, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY);
		raw_attr(&r, UVERBS_ATTR_DESTROY_QP_HANDLE, 0, list[i]);
		raw_attr(&r, UVERBS_ATTR_DESTROY_QP_RESP, sizeof(resp),
			 (uintptr_t)&resp);
		CHECK_EQ(raw_exec(ctx->cmd_fd, &r), 0);
	}
}

static struct ibv_context *open_first(void)
{
	struct ibv_device **list;
	struct ibv_context *c;
	int n;

	list = ibv_get_device_list(&n);
	REQUIRE(list && n > 0);
	c = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	return c;
}

int main(void)
{
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	unsigned int i;

	emu_require("test_verbs_random");
	ctx = open_first();
	REQUIRE(ctx);
	/* a few real objects for the random handles to hit */
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	REQUIRE(pd && cq);
	pd_handle = pd->handle;
	cq_handle = cq->handle;
	for (i = 0; i < ROUNDS; i++) {
		switch (rnd() % 7) {
		case 0:
			random_cq_create();
			break;
		case 1:
		case 2:
			random_qp_create();
			break;
		case 3:
			random_write(IB_USER_VERBS_CMD_MODIFY_QP,
				     sizeof(struct ib_uverbs_modify_qp), 0);
			break;
		case 4:
			random_write(IB_USER_VERBS_CMD_QUERY_QP,
				     sizeof(struct ib_uverbs_query_qp),
				     sizeof(struct ib_uverbs_query_qp_resp));
			break;
		case 5:
			random_destroy(UVERBS_OBJECT_QP,
				       UVERBS_METHOD_QP_DESTROY,
				       UVERBS_ATTR_DESTROY_QP_HANDLE,
				       UVERBS_ATTR_DESTROY_QP_RESP,
				       sizeof(struct
					      ib_uverbs_destroy_qp_resp));
			break;
		default:
			random_destroy(UVERBS_OBJECT_CQ,
				       UVERBS_METHOD_CQ_DESTROY,
				       UVERBS_ATTR_DESTROY_CQ_HANDLE,
				       UVERBS_ATTR_DESTROY_CQ_RESP,
				       sizeof(struct
					      ib_uverbs_destroy_cq_resp));
			break;
		}
	}
	/* the rounds reached the firmware, not only the first checks */
	printf("%u CQs, %u QPs made, %u modifies done\n", made_cq, made_qp,
	       modified);
	CHECK(made_cq > 0);
	CHECK(made_qp > 0);
	CHECK(modified > 0);
	/*
	 * Still served.  Destroying every QP the rounds left frees the PD
	 * and the CQ for destroy (their use counts came back to 0); the
	 * close tears down the random CQs.
	 */
	destroy_qps();
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = open_first();
	REQUIRE(ctx);
	pd = ibv_alloc_pd(ctx);
	CHECK(pd != NULL);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	printf("test_verbs_random: %u passed, %u failed\n", check_passed,
	       check_failed);
	return check_failed ? 1 : 0;
}
