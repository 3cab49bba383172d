// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs MRs under mlx5-emu through the system's libibverbs and libmlx5,
 * and the two queries the verbs' imports ask (driven with raw ioctls):
 * what registration checks (access flags, the iova's page offset, the
 * PD), the keys (lkey = rkey, their low byte the device's next variant),
 * QUERY_MR's answers (the iova only when asked), PD_QUERY's PD number,
 * each query's handle rules (another type EINVAL, a destroyed handle
 * ENOENT, a missing mandatory answer EINVAL), and a PD an MR uses
 * refusing to go first.
 */
#include <stdio.h>

#include "emu_util.h"

static int query_mr(int fd, uint32_t handle, bool with_length, bool iova,
		    uint32_t out[2], uint64_t *len, uint64_t *va)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_HANDLE, 0, handle);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, (uintptr_t)&out[0]);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, (uintptr_t)&out[1]);
	if (with_length)
		raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8,
			 (uintptr_t)len);
	if (iova)
		raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_IOVA, 8,
			 (uintptr_t)va);
	return raw_exec(fd, &r);
}

static int query_pd(int fd, uint32_t handle, uint32_t *pdn)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_PD, MLX5_IB_METHOD_PD_QUERY);
	raw_attr(&r, MLX5_IB_ATTR_QUERY_PD_HANDLE, 0, handle);
	raw_attr(&r, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, 4, (uintptr_t)pdn);
	return raw_exec(fd, &r);
}

int main(void)
{
	static char buf[4 * 4096] __attribute__((aligned(4096)));
	struct ibv_context *ctx = emu_start_verbs("emu_verbs_mr");
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .out = &dvpd } };
	uint64_t len = 0, va = 7;
	struct ibv_mr *mr, *mr2;
	uint32_t keys[2], pdn;
	int fd = ctx->cmd_fd;
	struct ibv_pd *pd;
	uint32_t h;

	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	obj.pd.in = pd;
	REQUIRE(mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD) == 0);

	/* ib_check_mr_access(), then the page offsets of start and iova */
	CHECK_ERRNO(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_REMOTE_WRITE),
		    EINVAL);
	CHECK_ERRNO(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_REMOTE_ATOMIC),
		    EINVAL);
	CHECK_ERRNO(!ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_ON_DEMAND),
		    EOPNOTSUPP);
	CHECK_ERRNO(!ibv_reg_mr_iova(pd, buf, 4096, 0x10000 + 8,
				     IBV_ACCESS_LOCAL_WRITE), EINVAL);

	/* registered at another iova, same page offset */
	mr = ibv_reg_mr_iova(pd, buf + 16, 3 * 4096, 0x7000010,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	REQUIRE(mr);
	mr2 = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(mr2);
	CHECK_EQ(mr->lkey, mr->rkey);
	CHECK_EQ(mr2->lkey & 0xff, (mr->lkey + 1) & 0xff);
	CHECK(mr2->lkey >> 8 != mr->lkey >> 8);

	CHECK_EQ(query_mr(fd, mr->handle, true, true, keys, &len, &va), 0);
	CHECK_EQ(keys[0], mr->lkey);
	CHECK_EQ(keys[1], mr->rkey);
	CHECK_EQ(len, 3 * 4096);
	CHECK_EQ(va, 0x7000010);
	/* the iova is optional, the length is not */
	va = 7;
	CHECK_EQ(query_mr(fd, mr->handle, true, false, keys, &len, &va), 0);
	CHECK_EQ(va, 7);
	CHECK_EQ(query_mr(fd, mr->handle, false, true, keys, &len, &va),
		 EINVAL);
	/* the handle's type, both ways */
	CHECK_EQ(query_mr(fd, pd->handle, true, true, keys, &len, &va),
		 EINVAL);
	CHECK_EQ(query_pd(fd, mr->handle, &pdn), EINVAL);
	CHECK_EQ(query_pd(fd, pd->handle, &pdn), 0);
	CHECK_EQ(pdn, dvpd.pdn);

	/* a PD an MR uses stays; a destroyed MR's handle is gone */
	CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
	CHECK_EQ(query_pd(fd, pd->handle, &pdn), 0);
	h = mr2->handle;
	CHECK_EQ(ibv_dereg_mr(mr2), 0);
	CHECK_EQ(query_mr(fd, h, true, true, keys, &len, &va), ENOENT);
	h = mr->handle;
	CHECK_EQ(ibv_dereg_mr(mr), 0);
	CHECK_EQ(query_mr(fd, h, true, true, keys, &len, &va), ENOENT);
	h = pd->handle;
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(query_pd(fd, h, &pdn), ENOENT);

	/*
	 * an MR and its PD left for the last close, which destroys both;
	 * unimport frees the library's structs and leaves the objects, so
	 * the process leaks nothing of its own
	 */
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(mr);
	ibv_unimport_mr(mr);
	ibv_unimport_pd(pd);
	CHECK_EQ(ibv_close_device(ctx), 0);
	ctx = emu_start_verbs("emu_verbs_mr");
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr != NULL);
	CHECK_EQ(mr ? ibv_dereg_mr(mr) : 0, 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_verbs_mr");
}
