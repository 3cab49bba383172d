// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The core handle query (UVERBS_METHOD_QUERY_HANDLE,
 * kernel-headers/rdma_uapi_compat.h) under mlx5-emu, in the mode the
 * arguments name: "on" or "off" (mlx5-emu run --query-handles) and
 * "fresh" or "lowest-free" (--fw-ids).  Runs with two devices.
 *
 * On: every object of every kind has a cookie (flow counter, flow meter,
 * DEVX PD, UMEM, VAR, verbs PD), never 0, no two alike, across the
 * ufiles of both devices; the lookup is typed (another type or a dead
 * handle ENOENT, an object type the device does not know EINVAL, the
 * cookie output missing EINVAL); no firmware command; no object lock (an
 * object held exclusive, as a destroy in progress holds it, still
 * answers).  Off: the method is unknown (EPROTONOSUPPORT).  Both: a
 * destroy and a create of the same kind give the same uverbs handle, the
 * firmware number again with lowest-free only; the cookie (on) tells the
 * two objects apart whatever the firmware did.
 */
#include <stdio.h>

#include "emu_counters_read.h"
#include "emu_hold.h"
#include "emu_util.h"
#include "query_handle_probe.h"
#include "rdma_uapi_compat.h"
#include "uapi_spec.h"

#define NAME "emu_query_handle"

static bool on, lowest_free;

struct made {
	uint32_t handle;
	uint16_t type;		/* uverbs object type */
	uint32_t fw_id;		/* counter id, pdn, umem id, VAR page */
	uint64_t cookie;
};

/* the input length of each create the test makes */
static uint16_t create_in_len(uint16_t opcode)
{
	switch (opcode) {
	case PRM_OP_ALLOC_PD:
		return PRM_HDR_LEN;
	case PRM_OP_CREATE_GENERAL_OBJECT:	/* a flow meter */
		return PRM_METER_IN_LEN;
	default:
		return PRM_ALLOC_FC_IN_LEN;
	}
}

static int devx_create(int fd, uint16_t opcode, struct made *m)
{
	uint8_t in[PRM_METER_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	struct emu_raw r;
	int ret;

	prm_set(in, PRM_HDR_OPCODE, opcode);
	if (opcode == PRM_OP_CREATE_GENERAL_OBJECT)
		prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	raw_init(&r, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, 0, 0);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN,
		 create_in_len(opcode), (uintptr_t)in);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, sizeof(out),
		 (uintptr_t)out);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	m->type = MLX5_IB_OBJECT_DEVX_OBJ;
	if (opcode == PRM_OP_ALLOC_PD)
		m->fw_id = prm_get(out, PRM_PD_OUT);
	else if (opcode == PRM_OP_CREATE_GENERAL_OBJECT)
		m->fw_id = prm_get(out, PRM_GOBJ_OUT_ID);
	else
		m->fw_id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	return ret;
}

static int umem_reg(int fd, void *buf, struct made *m)
{
	uint64_t addr = (uintptr_t)buf, len = 4096;
	struct emu_raw r;
	int ret;

	raw_init(&r, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_REG);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE, 0, 0);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, 8, addr);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, 8, len);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, 4,
		 (uintptr_t)&m->fw_id);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	m->type = MLX5_IB_OBJECT_DEVX_UMEM;
	return ret;
}

static int var_alloc(int fd, struct made *m)
{
	uint64_t offset;
	uint32_t length;
	struct emu_raw r;
	int ret;

	raw_init(&r, MLX5_IB_OBJECT_VAR, MLX5_IB_METHOD_VAR_OBJ_ALLOC);
	raw_attr(&r, MLX5_IB_ATTR_VAR_OBJ_ALLOC_HANDLE, 0, 0);
	raw_attr(&r, MLX5_IB_ATTR_VAR_OBJ_ALLOC_MMAP_OFFSET, 8,
		 (uintptr_t)&offset);
	raw_attr(&r, MLX5_IB_ATTR_VAR_OBJ_ALLOC_MMAP_LENGTH, 4,
		 (uintptr_t)&length);
	raw_attr(&r, MLX5_IB_ATTR_VAR_OBJ_ALLOC_PAGE_ID, 4,
		 (uintptr_t)&m->fw_id);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	m->type = MLX5_IB_OBJECT_VAR;
	return ret;
}

static int destroy(int fd, uint16_t obj, uint16_t meth, uint16_t attr,
		   uint32_t handle)
{
	struct emu_raw r;

	raw_init(&r, obj, meth);
	raw_attr(&r, attr, 0, handle);
	return raw_exec(fd, &r);
}

#define DESTROY_OBJ(fd, h)                                                  \
	destroy(fd, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY, \
		MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, h)
#define DESTROY_UMEM(fd, h)                                                 \
	destroy(fd, MLX5_IB_OBJECT_DEVX_UMEM,                               \
		MLX5_IB_METHOD_DEVX_UMEM_DEREG,                             \
		MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE, h)
#define DESTROY_VAR(fd, h)                                                  \
	destroy(fd, MLX5_IB_OBJECT_VAR, MLX5_IB_METHOD_VAR_OBJ_DESTROY,     \
		MLX5_IB_ATTR_VAR_OBJ_DESTROY_HANDLE, h)

/* m's cookie, asked of the kernel: 0 or its errno */
static int ask(int fd, struct made *m)
{
	bool valid = false;
	int ret;

	m->cookie = 0;
	ret = query_handle(fd, m->handle, m->type, &m->cookie, &valid);
	CHECK_EQ(valid, ret == 0);
	return ret;
}


static bool all_distinct(const uint64_t *v, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (v[i] == v[j])
				return false;
	return true;
}

/* The kernel's checks: a typed lookup, mandatory attributes. */
static void errors(int fd, const struct made *fc, const struct made *umem,
		   uint32_t verbs_pd)
{
	struct emu_raw r;
	uint64_t cookie;

	/* a handle not in the file, and one of another type */
	CHECK_EQ(query_handle(fd, 1000, MLX5_IB_OBJECT_DEVX_OBJ, &cookie,
			      NULL), ENOENT);
	CHECK_EQ(query_handle(fd, fc->handle, MLX5_IB_OBJECT_DEVX_UMEM,
			      &cookie, NULL), ENOENT);
	CHECK_EQ(query_handle(fd, umem->handle, MLX5_IB_OBJECT_DEVX_OBJ,
			      &cookie, NULL), ENOENT);
	CHECK_EQ(query_handle(fd, verbs_pd, MLX5_IB_OBJECT_DEVX_OBJ,
			      &cookie, NULL), ENOENT);
	CHECK_EQ(query_handle(fd, fc->handle, UVERBS_OBJECT_PD, &cookie,
			      NULL), ENOENT);
	/* a file-descriptor type has no handles */
	CHECK_EQ(query_handle(fd, fc->handle, UVERBS_OBJECT_ASYNC_EVENT,
			      &cookie, NULL), ENOENT);
	/* an object type no device has */
	CHECK_EQ(query_handle(fd, fc->handle, 0x0fff, &cookie, NULL), EINVAL);
	/* a handle beyond u32 */
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_HANDLE);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_HANDLE, 8, 1ull << 32);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, 8,
		 MLX5_IB_OBJECT_DEVX_OBJ);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE, 8,
		 (uintptr_t)&cookie);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* no cookie output: a mandatory attribute missing */
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_HANDLE);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_HANDLE, 8, fc->handle);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, 8,
		 MLX5_IB_OBJECT_DEVX_OBJ);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
	/* an output that is not a u64 */
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_HANDLE);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_HANDLE, 8, fc->handle);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, 8,
		 MLX5_IB_OBJECT_DEVX_OBJ);
	raw_attr(&r, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE, 4,
		 (uintptr_t)&cookie);
	CHECK_EQ(raw_exec(fd, &r), EINVAL);
}

/* No lock: an object held exclusive or shared answers as any other. */
static void no_lock(int fd, const struct made *fc)
{
	struct made m = *fc;
	int mode;

	for (mode = 0; mode <= 1; mode++) {
		REQUIRE(emu_hold(fd, fc->handle, mode) == 0);
		CHECK_EQ(ask(fd, &m), 0);
		CHECK_EQ(m.cookie, fc->cookie);
		CHECK_EQ(emu_release(fd, fc->handle), 0);
	}
}

/*
 * Destroy, then create again: the same handle (lowest free, both modes);
 * the firmware number again with lowest-free only; a new cookie.
 */
static void reuse(int fd, struct made *o, void *buf)
{
	struct made n[4];
	uint64_t seen[8];
	int i;

	CHECK_EQ(DESTROY_OBJ(fd, o[0].handle), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &n[0]), 0);
	CHECK_EQ(DESTROY_OBJ(fd, o[1].handle), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_PD, &n[1]), 0);
	CHECK_EQ(DESTROY_UMEM(fd, o[2].handle), 0);
	CHECK_EQ(umem_reg(fd, buf, &n[2]), 0);
	CHECK_EQ(DESTROY_VAR(fd, o[3].handle), 0);
	CHECK_EQ(var_alloc(fd, &n[3]), 0);

	for (i = 0; i < 4; i++)
		CHECK_EQ(n[i].handle, o[i].handle);
	for (i = 0; i < 3; i++)
		CHECK_EQ(n[i].fw_id == o[i].fw_id, lowest_free);
	/* the kernel's VAR pages are lowest free whatever the firmware */
	CHECK_EQ(n[3].fw_id, o[3].fw_id);

	for (i = 0; i < 4; i++) {
		CHECK_EQ(ask(fd, &n[i]), on ? 0 : EPROTONOSUPPORT);
		seen[i] = o[i].cookie;
		seen[4 + i] = n[i].cookie;
	}
	/* what tells the old object from the new one */
	if (on)
		CHECK(all_distinct(seen, 8));
	for (i = 0; i < 4; i++)
		o[i] = n[i];
}

/* device 1's own file: its objects' cookies are new too */
static void other_device(const uint64_t *seen, size_t n)
{
	struct ibv_context *ctx;
	struct made fc, pd;
	uint64_t all[16];

	ctx = devx_open(NULL, 1);
	REQUIRE(ctx);
	CHECK_EQ(devx_create(ctx->cmd_fd, PRM_OP_ALLOC_FLOW_COUNTER, &fc), 0);
	CHECK_EQ(devx_create(ctx->cmd_fd, PRM_OP_ALLOC_PD, &pd), 0);
	CHECK_EQ(ask(ctx->cmd_fd, &fc), 0);
	CHECK_EQ(ask(ctx->cmd_fd, &pd), 0);
	REQUIRE(n + 2 <= 16);
	memcpy(all, seen, n * sizeof(*seen));
	all[n] = fc.cookie;
	all[n + 1] = pd.cookie;
	CHECK(all_distinct(all, n + 2));
	CHECK(fc.cookie && pd.cookie);
	CHECK_EQ(DESTROY_OBJ(ctx->cmd_fd, fc.handle), 0);
	CHECK_EQ(DESTROY_OBJ(ctx->cmd_fd, pd.handle), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
}

int main(int argc, char **argv)
{
	struct made o[5], vpd_m;
	struct emu_counters c0, c1;
	struct ibv_context *ctx;
	uint64_t seen[6];
	struct ibv_pd *vpd;
	void *buf;
	int fd, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s on|off fresh|lowest-free\n",
			argv[0]);
		return 2;
	}
	on = !strcmp(argv[1], "on");
	lowest_free = !strcmp(argv[2], "lowest-free");
	ctx = emu_start(NAME);
	fd = ctx->cmd_fd;
	REQUIRE(posix_memalign(&buf, 4096, 4096) == 0);
	vpd = ibv_alloc_pd(ctx);
	REQUIRE(vpd);
	vpd_m = (struct made){ .handle = vpd->handle,
			       .type = UVERBS_OBJECT_PD };

	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &o[0]), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_PD, &o[1]), 0);
	CHECK_EQ(umem_reg(fd, buf, &o[2]), 0);
	CHECK_EQ(var_alloc(fd, &o[3]), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_CREATE_GENERAL_OBJECT, &o[4]), 0);

	REQUIRE(emu_counters_read(fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_QUERY_HANDLE, &c0) == 0);
	for (i = 0; i < 5; i++) {
		CHECK_EQ(ask(fd, &o[i]), on ? 0 : EPROTONOSUPPORT);
		seen[i] = o[i].cookie;
	}
	CHECK_EQ(ask(fd, &vpd_m), on ? 0 : EPROTONOSUPPORT);
	seen[5] = vpd_m.cookie;
	REQUIRE(emu_counters_read(fd, UVERBS_OBJECT_DEVICE,
				  UVERBS_METHOD_QUERY_HANDLE, &c1) == 0);
	/* one kernel call each, no firmware command */
	CHECK_EQ(c1.ioctls - c0.ioctls, 6);
	CHECK_EQ(c1.method_ioctls - c0.method_ioctls, on ? 6 : 0);
	CHECK_EQ(c1.fw_cmds, c0.fw_cmds);
	CHECK_EQ(c1.dev_fw_cmds, c0.dev_fw_cmds);
	CHECK_EQ(query_handle_present(fd), on);
	if (on) {
		for (i = 0; i < 6; i++)
			CHECK(seen[i] != 0);
		CHECK(all_distinct(seen, 6));
		/* the same answer every time */
		for (i = 0; i < 5; i++) {
			struct made again = o[i];

			CHECK_EQ(ask(fd, &again), 0);
			CHECK_EQ(again.cookie, o[i].cookie);
		}
		errors(fd, &o[0], &o[2], vpd->handle);
		no_lock(fd, &o[0]);
		other_device(seen, 6);
	}
	reuse(fd, o, buf);

	CHECK_EQ(DESTROY_OBJ(fd, o[0].handle), 0);
	CHECK_EQ(DESTROY_OBJ(fd, o[1].handle), 0);
	CHECK_EQ(DESTROY_UMEM(fd, o[2].handle), 0);
	CHECK_EQ(DESTROY_VAR(fd, o[3].handle), 0);
	CHECK_EQ(DESTROY_OBJ(fd, o[4].handle), 0);
	/* a dead handle, once its object is gone */
	CHECK_EQ(ask(fd, &o[0]), on ? ENOENT : EPROTONOSUPPORT);
	CHECK_EQ(ibv_dealloc_pd(vpd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(buf);
	return check_done(NAME);
}
