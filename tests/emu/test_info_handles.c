// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_METHOD_INFO_HANDLES as the kernel implements it: the handles of
 * one object type in the ufile, newest first, cut at the buffer's
 * capacity with TOTAL_HANDLES reporting how many were written; a list
 * length that is not a positive multiple of 4, an unknown object type or
 * UVERBS_IDR_ANY_OBJECT fail.  Before and after destroy.
 */
#include <stdio.h>

#include "emu_util.h"

#define DEVX_OBJ MLX5_IB_OBJECT_DEVX_OBJ

static uint32_t newest_handle(int fd, uint16_t type)
{
	uint32_t list[64], total = 0;

	if (emu_info_handles(fd, type, list, 64, &total) || !total)
		return ~0u;
	return list[0];
}

#define NO_ID UINT64_MAX

/*
 * A raw INFO_HANDLES with the attributes given: the object id unless
 * NO_ID, the list when list is not NULL, TOTAL_HANDLES when total is not.
 */
static int info_raw(struct emu_raw *r, int fd, uint64_t obj_id,
		    uint16_t list_len, uint32_t *list, uint32_t *total)
{
	raw_init(r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	if (obj_id != NO_ID)
		raw_attr(r, UVERBS_ATTR_INFO_OBJECT_ID, 8, obj_id);
	if (list)
		raw_attr(r, UVERBS_ATTR_INFO_HANDLES_LIST, list_len,
			 (uintptr_t)list);
	if (total)
		raw_attr(r, UVERBS_ATTR_INFO_TOTAL_HANDLES, 4,
			 (uintptr_t)total);
	return raw_exec(fd, r);
}

static void errors(int fd)
{
	uint32_t list[4], total = 77;
	struct emu_raw r;

	/* unknown object type: uapi_get_object() -> ENOENT */
	CHECK_EQ(emu_info_handles(fd, 0x1234, list, 4, &total), ENOENT);
	/* UVERBS_IDR_ANY_OBJECT -> ENOMSG */
	CHECK_EQ(emu_info_handles(fd, 0xffff, list, 4, &total), ENOMSG);
	CHECK_EQ(total, 77);

	/* a list length that is not a multiple of 4 */
	CHECK_EQ(info_raw(&r, fd, DEVX_OBJ, 6, list, NULL), EINVAL);
	/* shorter than the spec's minimum of one u32 */
	CHECK_EQ(info_raw(&r, fd, DEVX_OBJ, 2, list, NULL), EINVAL);
	/* no list at all: its length is -ENOENT, which is <= 0 */
	CHECK_EQ(info_raw(&r, fd, DEVX_OBJ, 0, NULL, &total), EINVAL);
	/* no object id: mandatory */
	CHECK_EQ(info_raw(&r, fd, NO_ID, 16, list, NULL), EINVAL);
	/* an object id beyond u16: uverbs_get_const() */
	CHECK_EQ(info_raw(&r, fd, 0x10000 | DEVX_OBJ, 16, list, NULL),
		 EINVAL);
	/*
	 * TOTAL_HANDLES is declared optional, but the handler's final
	 * uverbs_copy_to() of it returns -ENOENT when it is missing: the
	 * list is written, the call fails.
	 */
	CHECK_EQ(info_raw(&r, fd, DEVX_OBJ, 16, list, NULL), ENOENT);
	CHECK(r.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
}

int main(void)
{
	struct mlx5dv_devx_obj *obj[3];
	uint32_t h[3], list[8], total, i;
	struct ibv_context *ctx;
	struct mlx5dv_devx_umem *umem;
	struct ibv_pd *pd;
	struct emu_raw r;
	void *buf;
	int fd;

	ctx = emu_start("emu_info_handles");
	fd = ctx->cmd_fd;

	total = 99;
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 0);

	for (i = 0; i < 3; i++) {
		obj[i] = fc_alloc_bulk(ctx, 0, NULL);
		REQUIRE(obj[i]);
		h[i] = newest_handle(fd, DEVX_OBJ);
		CHECK(h[i] != ~0u);
	}
	CHECK(h[0] != h[1] && h[1] != h[2] && h[0] != h[2]);

	/* all three, newest first (the kernel's list_add() order) */
	memset(list, 0xff, sizeof(list));
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 3);
	CHECK_EQ(list[0], h[2]);
	CHECK_EQ(list[1], h[1]);
	CHECK_EQ(list[2], h[0]);
	CHECK_EQ(list[3], 0xffffffff);	/* nothing written past the count */

	/* the output flag the kernel sets */
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	raw_attr(&r, UVERBS_ATTR_INFO_OBJECT_ID, 8, DEVX_OBJ);
	raw_attr(&r, UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, (uintptr_t)&total);
	raw_attr(&r, UVERBS_ATTR_INFO_HANDLES_LIST, 32, (uintptr_t)list);
	CHECK_EQ(raw_exec(fd, &r), 0);
	CHECK(r.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	CHECK(r.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	CHECK(!(r.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT));

	/* capacity: a full buffer holds the newest, total says how many */
	memset(list, 0xff, sizeof(list));
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 2, &total), 0);
	CHECK_EQ(total, 2);
	CHECK_EQ(list[0], h[2]);
	CHECK_EQ(list[1], h[1]);
	CHECK_EQ(list[2], 0xffffffff);
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 1, &total), 0);
	CHECK_EQ(total, 1);
	CHECK_EQ(list[0], h[2]);

	/* type filter: UMEMs and PDs are listed under their own types */
	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	CHECK_EQ(emu_info_handles(fd, MLX5_IB_OBJECT_DEVX_UMEM, list, 8,
				  &total), 0);
	CHECK_EQ(total, 1);
	CHECK(!handles_contain(h, 3, list[0]));
	CHECK_EQ(emu_info_handles(fd, UVERBS_OBJECT_PD, list, 8, &total), 0);
	CHECK_EQ(total, 1);
	CHECK_EQ(list[0], pd->handle);
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 3);
	/* a type the device has but nothing of it exists */
	CHECK_EQ(emu_info_handles(fd, UVERBS_OBJECT_CQ, list, 8, &total), 0);
	CHECK_EQ(total, 0);

	/* after destroy: gone from the list */
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj[1]), 0);
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 2);
	CHECK(!handles_contain(list, total, h[1]));
	CHECK(handles_contain(list, total, h[0]));
	CHECK(handles_contain(list, total, h[2]));
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	CHECK_EQ(emu_info_handles(fd, MLX5_IB_OBJECT_DEVX_UMEM, list, 8,
				  &total), 0);
	CHECK_EQ(total, 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(emu_info_handles(fd, UVERBS_OBJECT_PD, list, 8, &total), 0);
	CHECK_EQ(total, 0);

	errors(fd);

	CHECK_EQ(mlx5dv_devx_obj_destroy(obj[0]), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj[2]), 0);
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 8, &total), 0);
	CHECK_EQ(total, 0);
	free(buf);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_info_handles");
}
