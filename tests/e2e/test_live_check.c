// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Below the public API: the raw uverbs ioctl builder, the INFO_HANDLES
 * query and live_check.c against the (emulated) kernel.
 *   - the builder refuses what it cannot encode, and the kernel's answers
 *     to an unknown method and to a bad handle list come through;
 *   - INFO_HANDLES lists exactly the live handles, sorted, also past the
 *     first buffer (more than 256 objects), and follows destroys;
 *   - live_check: which types get their object id confirmed, which only
 *     liveness, the VFIO (no cmd fd) refusal, UMEM handles.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "info_handles.h"
#include "kernel_mode.h"
#include "live_check.h"
#include "import_policy.h"
#include "uverbs_ioctl.h"

#define NAME "e2e_live_check"
#define MANY 300

static void builder(struct ibv_context *ctx)
{
	uint32_t list[3], total;
	int i;

	{
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_INFO_HANDLES, 1);

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID,
			      MLX5_IB_OBJECT_DEVX_OBJ);
		/* Over capacity: refused before the kernel. */
		fill_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total, 4);
		CHECK_EQ(uverbs_cmd_execute(ctx->cmd_fd, RDMA_DRIVER_MLX5,
					    cmd), EINVAL);
	}
	{
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_INFO_HANDLES, 3);

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID,
			      MLX5_IB_OBJECT_DEVX_OBJ);
		CHECK_EQ(uverbs_cmd_execute(-1, RDMA_DRIVER_MLX5, cmd), EBADF);
	}
	{
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE, 0x77, 1);

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID, 0);
		CHECK_EQ(uverbs_cmd_execute(ctx->cmd_fd, RDMA_DRIVER_MLX5,
					    cmd), EPROTONOSUPPORT);
	}
	for (i = 0; i < 2; i++) {
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_INFO_HANDLES, 3);
		struct ib_uverbs_attr *t, *l;

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID,
			      MLX5_IB_OBJECT_DEVX_OBJ);
		t = fill_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total,
				 sizeof(total));
		/* The list length must be a non-zero multiple of 4. */
		l = fill_out_ptr(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, list,
				 i ? sizeof(list) : 6);
		if (i) {
			CHECK_EQ(uverbs_cmd_execute(ctx->cmd_fd,
						    RDMA_DRIVER_MLX5, cmd), 0);
			CHECK(uverbs_attr_written(t));
			CHECK(uverbs_attr_written(l));
			CHECK_EQ(uverbs_attr_out_len(l), sizeof(list));
			CHECK_EQ(total, 0);
		} else {
			CHECK_EQ(uverbs_cmd_execute(ctx->cmd_fd,
						    RDMA_DRIVER_MLX5, cmd),
				 EINVAL);
		}
	}
}

static void handles(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *obj[MANY];
	uint32_t want[MANY], *got = NULL;
	uint8_t blob[E2E_BLOB_MAX];
	size_t n = 1, i, matches;
	bool present;
	uint32_t id;

	CHECK_EQ(info_handles_list(ctx->cmd_fd, RDMA_DRIVER_MLX5,
				   MLX5_IB_OBJECT_DEVX_OBJ, &got, &n), 0);
	CHECK_EQ(n, 0);
	CHECK(got == NULL);

	for (i = 0; i < MANY; i++) {
		obj[i] = e2e_fc_exported(ctx, &id, blob);
		want[i] = e2e_blob_handle(blob);
	}
	CHECK_EQ(info_handles_list(ctx->cmd_fd, RDMA_DRIVER_MLX5,
				   MLX5_IB_OBJECT_DEVX_OBJ, &got, &n), 0);
	CHECK_EQ(n, MANY);
	matches = 0;
	for (i = 0; got && i < n; i++) {
		if (i)
			CHECK(got[i - 1] < got[i]);
		for (size_t j = 0; j < MANY; j++)
			matches += got[i] == want[j];
	}
	CHECK_EQ(matches, MANY);
	free(got);

	/* Another type's list does not show them. */
	CHECK_EQ(info_handles_list(ctx->cmd_fd, RDMA_DRIVER_MLX5,
				   MLX5_IB_OBJECT_DEVX_UMEM, &got, &n), 0);
	CHECK_EQ(n, 0);
	free(got);

	/* Destroy every other one; membership follows. */
	for (i = 0; i < MANY; i += 2)
		CHECK_EQ(mlx5dv_devx_obj_destroy(obj[i]), 0);
	for (i = 0; i < MANY; i++) {
		present = i % 2 == 0;
		CHECK_EQ(info_handles_contains(ctx->cmd_fd, RDMA_DRIVER_MLX5,
					       MLX5_IB_OBJECT_DEVX_OBJ,
					       want[i], &present), 0);
		CHECK_EQ(present, i % 2 == 1);
	}
	CHECK_EQ(e2e_live_devx_objs(ctx), MANY / 2);
	for (i = 1; i < MANY; i += 2)
		CHECK_EQ(mlx5dv_devx_obj_destroy(obj[i]), 0);
	CHECK_EQ(e2e_live_devx_objs(ctx), 0);
}

/*
 * A kernel without INFO_HANDLES (or without the ioctl interface: ENOTTY,
 * as any non-uverbs fd answers) is "cannot tell", and import falls back
 * to the blob checks for the types that have no id query.
 */
static void fallback(void)
{
	struct ibv_context old = { .cmd_fd = open("/dev/null", O_RDWR) };
	bool present = true;

	REQUIRE(old.cmd_fd >= 0);
	CHECK_EQ(info_handles_contains(old.cmd_fd, RDMA_DRIVER_MLX5,
				       MLX5_IB_OBJECT_DEVX_OBJ, 0, &present),
		 EOPNOTSUPP);
	CHECK_EQ(live_check_devx_obj(&old, 3, 0, 0), 0);
	CHECK_EQ(live_check_devx_obj(&old, 3, IMPORT_DEVX_FLOW_TABLE, 9), 0);
	CHECK_EQ(live_check_devx_umem(&old, 3), 0);
	CHECK_EQ(live_check_var(&old, 3), 0);
	close(old.cmd_fd);
}

static void live(struct ibv_context *ctx)
{
	bool old_kernel;
	struct ibv_context vfio = { .cmd_fd = -1 };
	struct mlx5dv_devx_obj *fc, *meter;
	struct mlx5dv_devx_umem *umem;
	uint8_t blob[E2E_BLOB_MAX];
	uint32_t fc_id, meter_id, fh, mh;
	long page = sysconf(_SC_PAGESIZE);
	void *buf;

	CHECK_EQ(live_check_devx_obj(NULL, 0, 0, 0), EINVAL);
	CHECK_EQ(live_check_devx_obj(&vfio, 0, IMPORT_DEVX_FLOW_COUNTER, 1),
		 EOPNOTSUPP);
	CHECK_EQ(live_check_devx_umem(&vfio, 0), EOPNOTSUPP);
	CHECK_EQ(live_check_var(&vfio, 0), EOPNOTSUPP);
	fallback();

	fc = e2e_fc_exported(ctx, &fc_id, blob);
	fh = e2e_blob_handle(blob);
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter || e2e_on_hw());

	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_COUNTER, fc_id),
		 0);
	/* Id confirmed: another id, or the other object's type, fails. */
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_COUNTER,
				     fc_id + 1), ENOENT);
	if (meter) {
		e2e_export(meter, blob);
		mh = e2e_blob_handle(blob);
		CHECK_EQ(live_check_devx_obj(ctx, mh, IMPORT_DEVX_FLOW_METER,
					     meter_id), 0);
		CHECK_EQ(live_check_devx_obj(ctx, mh, IMPORT_DEVX_FLOW_METER,
					     meter_id + 1), ENOENT);
		CHECK_EQ(live_check_devx_obj(ctx, mh, IMPORT_DEVX_FLOW_COUNTER,
					     meter_id), ENOENT);
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	}
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_ASO_CT, fc_id),
		 ENOENT);
	/* Untyped: liveness only, the id is not seen. */
	CHECK_EQ(live_check_devx_obj(ctx, fh, 0, fc_id + 1), 0);
	/*
	 * Flow table, group, entry and packet reformat have a query whose
	 * kernel part checks the creator: a flow counter is none of them
	 * (a kernel since 5.18 reports firmware failures as EREMOTEIO, so
	 * its EINVAL is the kernel's refusal).  Before 5.18 that EINVAL
	 * could be the firmware's: the check falls back to INFO_HANDLES,
	 * which proves only a live DEVX object, and accepts.
	 */
	old_kernel = test_kernel_before(5, 18);
	if (old_kernel)
		printf("%s: pre-5.18 kernel: flow table/group/entry and "
		       "packet reformat prove liveness only\n", NAME);
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_TABLE, fc_id),
		 old_kernel ? 0 : ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_GROUP, fc_id),
		 old_kernel ? 0 : ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_TABLE_ENTRY,
				     fc_id), old_kernel ? 0 : ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_PKT_REFORMAT_CTX,
				     fc_id), old_kernel ? 0 : ENOENT);
	/* An id wider than the QP's 24-bit field: liveness only. */
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_QP, 1u << 24), 0);
	/* A handle that is not live fails whatever the type. */
	CHECK_EQ(live_check_devx_obj(ctx, 999, 0, 0), ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, 999, IMPORT_DEVX_FLOW_COUNTER, fc_id),
		 ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, 999, IMPORT_DEVX_QP, 5), ENOENT);

	REQUIRE(posix_memalign(&buf, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, page, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	{
		uint8_t ublob[E2E_BLOB_MAX] = { 0 };
		struct blob b;

		REQUIRE(mlx5dv_devx_umem_export(umem, ublob) == 0);
		REQUIRE(blob_decode(ublob, sizeof(ublob), BLOB_KIND_DEVX_UMEM,
				    &b) == 0);
		CHECK_EQ(live_check_devx_umem(ctx, b.handle), 0);
		/* Nor is it a DEVX object, nor a DEVX object a umem. */
		CHECK_EQ(live_check_devx_obj(ctx, b.handle, 0, 0),
			 ENOENT);
		CHECK_EQ(live_check_devx_umem(ctx, fh), ENOENT);
	}
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);

	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(live_check_devx_obj(ctx, fh, IMPORT_DEVX_FLOW_COUNTER, fc_id),
		 ENOENT);
	CHECK_EQ(live_check_devx_obj(ctx, fh, 0, fc_id), ENOENT);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;

	ctx = e2e_start(argc, argv, NAME);
	builder(ctx);
	handles(ctx);
	live(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
