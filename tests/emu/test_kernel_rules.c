// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The uverbs core's rules, with raw ioctls: a handle not in the ufile is
 * ENOENT, a handle of another type EINVAL, a destroyed handle is never
 * given again (kernel series v3, mlx5-emu's default), and malformed
 * calls get the errno uverbs_ioctl.c gives them
 * (header length, reserved fields, driver id, unknown method, unknown
 * mandatory attribute, duplicates, sizes, bad pointers) - after which the
 * daemon still serves.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "emu_util.h"

#define DEVX_OBJ MLX5_IB_OBJECT_DEVX_OBJ

static int obj_destroy(int fd, uint64_t handle)
{
	struct emu_raw r;

	raw_init(&r, DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, 0, handle);
	return raw_exec(fd, &r);
}

static uint32_t newest(int fd, uint16_t type)
{
	uint32_t list[16], total = 0;

	REQUIRE(emu_info_handles(fd, type, list, 16, &total) == 0 && total);
	return list[0];
}

static int query_eqn(int fd, struct emu_raw *r, uint32_t *vec, uint32_t *eqn)
{
	raw_init(r, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_EQN);
	raw_attr(r, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, 4, *vec);
	raw_attr(r, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, 4, (uintptr_t)eqn);
	return raw_exec(fd, r);
}

static void handles(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *a, *b, *c;
	uint32_t ha, hb, hc, ida, idb, umem_h;
	struct mlx5dv_devx_umem *umem;
	int fd = ctx->cmd_fd;
	struct ibv_pd *pd;
	void *buf;

	a = fc_alloc_bulk(ctx, 0, &ida);
	REQUIRE(a);
	ha = newest(fd, DEVX_OBJ);
	b = fc_alloc_bulk(ctx, 0, &idb);
	REQUIRE(b);
	hb = newest(fd, DEVX_OBJ);
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	umem_h = newest(fd, MLX5_IB_OBJECT_DEVX_UMEM);

	/* uverbs_get_uobject_from_file(): not in this ufile -> ENOENT */
	CHECK_EQ(obj_destroy(fd, 4000), ENOENT);
	CHECK_EQ(emu_raw_counter_query(fd, 4000, ida), ENOENT);
	/* a negative id: lookup_get_idr_uobject() -> EINVAL */
	CHECK_EQ(obj_destroy(fd, (uint64_t)-5), EINVAL);
	/* another type where the spec names DEVX_OBJ -> EINVAL */
	CHECK_EQ(obj_destroy(fd, pd->handle), EINVAL);
	CHECK_EQ(obj_destroy(fd, umem_h), EINVAL);
	/* ANY_OBJECT accepts the PD, devx_is_valid_obj_id() does not */
	CHECK_EQ(emu_raw_counter_query(fd, pd->handle, ida), EINVAL);
	CHECK_EQ(emu_raw_counter_query(fd, umem_h, ida), EINVAL);
	/* the right handle, the other object's id */
	CHECK_EQ(emu_raw_counter_query(fd, ha, idb), EINVAL);
	CHECK_EQ(emu_raw_counter_query(fd, ha, ida), 0);
	/* the PD destroy method refuses a DEVX object handle */
	{
		struct emu_raw r;

		raw_init(&r, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
		raw_attr(&r, UVERBS_ATTR_DESTROY_PD_HANDLE, 0, ha);
		CHECK_EQ(raw_exec(fd, &r), EINVAL);
	}

	/*
	 * kernel series v3 (the default): a destroyed handle is never
	 * handed out again (test_handles checks both rules)
	 */
	CHECK_EQ(obj_destroy(fd, ha), 0);
	CHECK_EQ(emu_raw_counter_query(fd, ha, ida), ENOENT);
	CHECK_EQ(obj_destroy(fd, ha), ENOENT);
	c = fc_alloc_bulk(ctx, 0, NULL);
	REQUIRE(c);
	hc = newest(fd, DEVX_OBJ);
	CHECK(hc > hb);

	/* a was destroyed behind libmlx5's back: only free its memory */
	free(a);
	CHECK_EQ(mlx5dv_devx_obj_destroy(b), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(c), 0);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	free(buf);
}

static void malformed(int fd)
{
	uint32_t vec = 0, eqn = 0, in[4] = {};
	uint8_t big[64] = {};
	struct emu_raw r;

	CHECK_EQ(query_eqn(fd, &r, &vec, &eqn), 0);
	CHECK(r.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);

	/* header length that does not match num_attrs -> EINVAL */
	query_eqn(fd, &r, &vec, &eqn);
	r.hdr.length += 16;
	CHECK_EQ(ioctl(fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0, EINVAL);
	/* reserved header fields -> EPROTONOSUPPORT */
	query_eqn(fd, &r, &vec, &eqn);
	r.hdr.reserved1 = 1;
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	query_eqn(fd, &r, &vec, &eqn);
	r.hdr.reserved2 = 1;
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	/* another driver's id -> EINVAL */
	query_eqn(fd, &r, &vec, &eqn);
	r.hdr.driver_id = RDMA_DRIVER_MLX4;
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* unknown object or method -> EPROTONOSUPPORT */
	raw_init(&r, UVERBS_OBJECT_DEVICE, 0x77);
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	raw_init(&r, 0x0fff, 0);
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	/* an attribute the method lacks: ignored, unless mandatory */
	query_eqn(fd, &r, &vec, &eqn);
	raw_attr(&r, 0x1777, 4, 0)->flags = 0;
	CHECK_EQ(raw_exec(fd, &r), 0);
	query_eqn(fd, &r, &vec, &eqn);
	raw_attr(&r, 0x1777, 4, 0);
	CHECK_EQ(raw_exec(fd, &r), EPROTONOSUPPORT);
	/* the same attribute twice -> EINVAL */
	query_eqn(fd, &r, &vec, &eqn);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, 4, 0);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* a mandatory attribute missing -> EINVAL */
	raw_init(&r, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_EQN);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, 4, 0);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* a size the spec does not allow -> EINVAL */
	query_eqn(fd, &r, &vec, &eqn);
	r.attrs[0].len = 8;
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* reserved attr data -> EINVAL */
	query_eqn(fd, &r, &vec, &eqn);
	r.attrs[0].attr_data.reserved = 1;
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* a handle attribute with a length -> EINVAL */
	raw_init(&r, DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, 4, 0);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* input behind a bad pointer -> EFAULT */
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	raw_init(&r, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, 16, 16);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, sizeof(big),
		 (uintptr_t)big);
	CHECK_EQ(raw_exec(fd, &r), EFAULT);
	/* output behind a bad pointer -> EFAULT */
	raw_init(&r, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, 16, (uintptr_t)in);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, sizeof(big), 16);
	CHECK_EQ(raw_exec(fd, &r), EFAULT);
	/* the header itself behind a bad pointer -> EFAULT */
	CHECK_ERRNO(ioctl(fd, RDMA_VERBS_IOCTL, (void *)16) != 0, EFAULT);

	/* and the daemon still answers */
	CHECK_EQ(query_eqn(fd, &r, &vec, &eqn), 0);
}

static void no_context(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	uint32_t vec = 0, eqn;
	struct emu_raw r;
	int fd;

	REQUIRE(list);
	/* a fresh open without GET_CONTEXT: methods needing it -> EINVAL */
	fd = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
	REQUIRE(fd >= 0);
	CHECK_EQ(query_eqn(fd, &r, &vec, &eqn), EINVAL);
	close(fd);
	/* and a second GET_CONTEXT on a ufile that has one -> EINVAL */
	ctx = ibv_open_device(list[0]);
	REQUIRE(ctx);
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	CHECK_EQ(raw_exec(ctx->cmd_fd, &r), EINVAL);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
}

int main(void)
{
	struct ibv_context *ctx;

	ctx = emu_start("emu_kernel_rules");
	handles(ctx);
	malformed(ctx->cmd_fd);
	no_context();
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_kernel_rules");
}
