// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_METHOD_DEVX_QUERY_HANDLES and the create methods' SERIAL outputs
 * (kernel-headers/rdma_uapi_compat.h) under mlx5-emu, in the mode the
 * arguments name: "on" or "off" (mlx5-emu run --query-handles) and
 * "fresh" or "lowest-free" (--fw-ids).
 *
 * On: the answers per kind (flow counter, PD, UMEM, VAR), the kernel's
 * checks (dead handle ENOENT, another type EINVAL, 0 or more than 2048
 * handles EINVAL, an output short of one answer per handle EINVAL),
 * shared holds (one handle 2048 times), no firmware command.  Off: no
 * method (EPROTONOSUPPORT), the SERIAL outputs ignored as unknown
 * optional attributes, and refused (EPROTONOSUPPORT) when marked
 * mandatory.  Both: a destroy and a create of the same kind give the
 * same uverbs handle; the firmware number is the same with lowest-free,
 * new with fresh; the serial (on) tells the two objects apart.
 */
#include <stdio.h>

#include "emu_counters_read.h"
#include "emu_util.h"
#include "rdma_uapi_compat.h"

#define NAME "emu_query_handles"
#define NO_SERIAL 0xdeadbeefdeadbeefull

static bool on, lowest_free;

struct made {
	uint32_t handle;
	uint32_t fw_id;		/* counter id, pdn, umem id, VAR page */
	uint64_t serial;	/* NO_SERIAL when the output was not set */
	bool serial_valid;	/* UVERBS_ATTR_F_VALID_OUTPUT on SERIAL */
};

/* The SERIAL attribute as a create passes it: optional, 8 bytes. */
static void serial_attr(struct emu_raw *r, uint16_t id, struct made *m,
			uint16_t len, bool mandatory)
{
	struct ib_uverbs_attr *a;

	m->serial = NO_SERIAL;
	a = raw_attr(r, id, len, (uintptr_t)&m->serial);
	if (!mandatory)
		a->flags = 0;
}

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

static int devx_create(int fd, uint16_t opcode, struct made *m,
		       uint16_t serial_len, bool mandatory)
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
	serial_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL, m, serial_len,
		    mandatory);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	if (opcode == PRM_OP_ALLOC_PD)
		m->fw_id = prm_get(out, PRM_PD_OUT);
	else if (opcode == PRM_OP_CREATE_GENERAL_OBJECT)
		m->fw_id = prm_get(out, PRM_GOBJ_OUT_ID);
	else
		m->fw_id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	m->serial_valid = r.attrs[3].flags & UVERBS_ATTR_F_VALID_OUTPUT;
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
	serial_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL, m, 8, false);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	m->serial_valid = r.attrs[4].flags & UVERBS_ATTR_F_VALID_OUTPUT;
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
	serial_attr(&r, MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL, m, 8, false);
	ret = raw_exec(fd, &r);
	m->handle = (uint32_t)r.attrs[0].data;
	m->serial_valid = r.attrs[4].flags & UVERBS_ATTR_F_VALID_OUTPUT;
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

/*
 * The query: n handles (in_len bytes of them, normally n * 4) into
 * out_len bytes of info.  *valid: the output's VALID_OUTPUT flag.
 */
static int query_raw(int fd, const uint32_t *handles, uint16_t in_len,
		     struct mlx5_ib_devx_handle_info *info, uint16_t out_len,
		     bool *valid)
{
	struct emu_raw r;
	int ret;

	raw_init(&r, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_HANDLES);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN, in_len,
		 in_len <= 8 ? 0 : (uintptr_t)handles);
	if (in_len <= 8)	/* inline, as the kernel reads it */
		memcpy(&r.attrs[0].data, handles, in_len);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT, out_len,
		 (uintptr_t)info);
	ret = raw_exec(fd, &r);
	if (valid)
		*valid = r.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT;
	return ret;
}

static int query(int fd, const uint32_t *handles, unsigned int n,
		 struct mlx5_ib_devx_handle_info *info)
{
	return query_raw(fd, handles, (uint16_t)(n * 4), info,
			 (uint16_t)(n * sizeof(*info)), NULL);
}

/* One handle's answer, checked against what its create said. */
static void check_info(const struct mlx5_ib_devx_handle_info *i,
		       const struct made *m, uint32_t kind, uint16_t opcode)
{
	CHECK_EQ(i->kind, kind);
	CHECK_EQ(i->serial, m->serial);
	CHECK_EQ(i->obj_id, m->fw_id);
	CHECK_EQ(i->opcode, opcode);
	CHECK_EQ(i->obj_type, opcode == PRM_OP_CREATE_GENERAL_OBJECT ?
				      PRM_OBJ_TYPE_FLOW_METER : 0);
	CHECK_EQ(i->reserved, 0);
}

static void errors(int fd, const struct made *fc, uint32_t verbs_pd)
{
	static uint32_t many[MLX5_IB_DEVX_QUERY_HANDLES_MAX + 1];
	static struct mlx5_ib_devx_handle_info
		info[MLX5_IB_DEVX_QUERY_HANDLES_MAX + 1];
	uint32_t h[2] = { fc->handle, fc->handle };
	unsigned int i;
	bool valid;

	/* a handle not in the file: the lookup's ENOENT */
	h[1] = 1000;
	CHECK_EQ(query(fd, h, 2, info), ENOENT);
	/* a verbs PD: the handler's EINVAL */
	h[1] = verbs_pd;
	CHECK_EQ(query(fd, h, 2, info), EINVAL);
	/* no handle, a length that is not whole u32s */
	CHECK_EQ(query_raw(fd, h, 0, info, sizeof(info[0]), NULL), EINVAL);
	CHECK_EQ(query_raw(fd, h, 6, info, 2 * sizeof(info[0]), NULL),
		 EINVAL);
	/* an output that holds one answer of two, or less than one */
	h[1] = fc->handle;
	CHECK_EQ(query_raw(fd, h, 8, info, sizeof(info[0]), &valid), EINVAL);
	CHECK(!valid);
	CHECK_EQ(query_raw(fd, h, 4, info, sizeof(info[0]) - 1, NULL),
		 EINVAL);
	/* one handle 2048 times: each held shared, all answered */
	for (i = 0; i <= MLX5_IB_DEVX_QUERY_HANDLES_MAX; i++)
		many[i] = fc->handle;
	memset(info, 0, sizeof(info));
	CHECK_EQ(query(fd, many, MLX5_IB_DEVX_QUERY_HANDLES_MAX, info), 0);
	CHECK_EQ(info[MLX5_IB_DEVX_QUERY_HANDLES_MAX - 1].serial,
		 fc->serial);
	/* one more than the maximum */
	CHECK_EQ(query(fd, many, MLX5_IB_DEVX_QUERY_HANDLES_MAX + 1, info),
		 EINVAL);
	/* the shared holds are gone: the object can be destroyed later */
}

/*
 * The SERIAL output as a kernel with the series treats it (exactly a u64)
 * and as one without does (unknown: ignored, unless mandatory).
 */
static void serial_attr_rules(int fd)
{
	struct made m;

	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &m, 4, false),
		 on ? EINVAL : 0);
	if (!on)
		CHECK_EQ(DESTROY_OBJ(fd, m.handle), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &m, 8, true),
		 on ? 0 : EPROTONOSUPPORT);
	if (on) {
		CHECK(m.serial_valid);
		CHECK_EQ(DESTROY_OBJ(fd, m.handle), 0);
	}
}

/*
 * Destroy, then create again: the same handle (lowest free, both modes);
 * the firmware number again with lowest-free only; a new serial.
 */
static void reuse(int fd, struct made *fc, struct made *pd,
		  struct made *umem, struct made *var, void *buf)
{
	struct mlx5_ib_devx_handle_info info[4];
	struct made n_fc, n_pd, n_umem, n_var;
	uint32_t h[4];

	CHECK_EQ(DESTROY_OBJ(fd, fc->handle), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &n_fc, 8, false),
		 0);
	CHECK_EQ(DESTROY_OBJ(fd, pd->handle), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_PD, &n_pd, 8, false), 0);
	CHECK_EQ(DESTROY_UMEM(fd, umem->handle), 0);
	CHECK_EQ(umem_reg(fd, buf, &n_umem), 0);
	CHECK_EQ(DESTROY_VAR(fd, var->handle), 0);
	CHECK_EQ(var_alloc(fd, &n_var), 0);

	CHECK_EQ(n_fc.handle, fc->handle);
	CHECK_EQ(n_pd.handle, pd->handle);
	CHECK_EQ(n_umem.handle, umem->handle);
	CHECK_EQ(n_var.handle, var->handle);
	if (lowest_free) {
		CHECK_EQ(n_fc.fw_id, fc->fw_id);
		CHECK_EQ(n_pd.fw_id, pd->fw_id);
		CHECK_EQ(n_umem.fw_id, umem->fw_id);
	} else {
		CHECK(n_fc.fw_id != fc->fw_id);
		CHECK(n_pd.fw_id != pd->fw_id);
		CHECK(n_umem.fw_id != umem->fw_id);
	}
	/* the kernel's VAR pages are lowest free whatever the firmware */
	CHECK_EQ(n_var.fw_id, var->fw_id);

	h[0] = n_fc.handle;
	h[1] = n_pd.handle;
	h[2] = n_umem.handle;
	h[3] = n_var.handle;
	if (!on) {
		CHECK_EQ(query(fd, h, 4, info), EPROTONOSUPPORT);
		CHECK(!n_fc.serial_valid && n_fc.serial == NO_SERIAL);
	} else {
		/* what tells the old object from the new one */
		CHECK(n_fc.serial > var->serial);
		CHECK(n_pd.serial > n_fc.serial);
		CHECK(n_umem.serial > n_pd.serial);
		CHECK(n_var.serial > n_umem.serial);
		CHECK_EQ(query(fd, h, 4, info), 0);
		check_info(&info[0], &n_fc, MLX5_IB_DEVX_HANDLE_KIND_OBJ,
			   PRM_OP_ALLOC_FLOW_COUNTER);
		check_info(&info[1], &n_pd, MLX5_IB_DEVX_HANDLE_KIND_OBJ,
			   PRM_OP_ALLOC_PD);
		check_info(&info[2], &n_umem, MLX5_IB_DEVX_HANDLE_KIND_UMEM,
			   0);
		check_info(&info[3], &n_var, MLX5_IB_DEVX_HANDLE_KIND_VAR, 0);
		CHECK(info[0].serial != fc->serial);
		CHECK(info[2].serial != umem->serial);
		CHECK(info[3].serial != var->serial);
	}
	*fc = n_fc;
	*pd = n_pd;
	*umem = n_umem;
	*var = n_var;
}

int main(int argc, char **argv)
{
	struct mlx5_ib_devx_handle_info info[5];
	struct made fc, pd, umem, var, meter;
	struct emu_counters c0, c1;
	struct ibv_context *ctx;
	struct ibv_pd *vpd;
	uint32_t h[5];
	bool valid;
	void *buf;
	int fd;

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

	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_FLOW_COUNTER, &fc, 8, false),
		 0);
	CHECK_EQ(devx_create(fd, PRM_OP_ALLOC_PD, &pd, 8, false), 0);
	CHECK_EQ(umem_reg(fd, buf, &umem), 0);
	CHECK_EQ(var_alloc(fd, &var), 0);
	CHECK_EQ(devx_create(fd, PRM_OP_CREATE_GENERAL_OBJECT, &meter, 8,
			     false), 0);
	CHECK_EQ(meter.serial_valid, on);
	CHECK_EQ(fc.serial_valid, on);
	CHECK_EQ(pd.serial_valid, on);
	CHECK_EQ(umem.serial_valid, on);
	CHECK_EQ(var.serial_valid, on);
	if (on) {
		/* one counter per device from 1, never going back */
		CHECK(fc.serial >= 1);
		CHECK(pd.serial > fc.serial);
		CHECK(umem.serial > pd.serial);
		CHECK(var.serial > umem.serial);
		CHECK(meter.serial > var.serial);
	} else {
		CHECK_EQ(fc.serial, NO_SERIAL);
		CHECK_EQ(var.serial, NO_SERIAL);
	}

	h[0] = fc.handle;
	h[1] = pd.handle;
	h[2] = umem.handle;
	h[3] = var.handle;
	h[4] = meter.handle;
	REQUIRE(emu_counters_read(fd, MLX5_IB_OBJECT_DEVX,
				  MLX5_IB_METHOD_DEVX_QUERY_HANDLES,
				  &c0) == 0);
	memset(info, 0xff, sizeof(info));
	CHECK_EQ(query_raw(fd, h, sizeof(h), info, sizeof(info), &valid),
		 on ? 0 : EPROTONOSUPPORT);
	REQUIRE(emu_counters_read(fd, MLX5_IB_OBJECT_DEVX,
				  MLX5_IB_METHOD_DEVX_QUERY_HANDLES,
				  &c1) == 0);
	/* one kernel call, no firmware command */
	CHECK_EQ(c1.ioctls - c0.ioctls, 1);
	CHECK_EQ(c1.method_ioctls - c0.method_ioctls, on ? 1 : 0);
	CHECK_EQ(c1.fw_cmds, c0.fw_cmds);
	CHECK_EQ(c1.dev_fw_cmds, c0.dev_fw_cmds);
	if (on) {
		CHECK(valid);
		check_info(&info[0], &fc, MLX5_IB_DEVX_HANDLE_KIND_OBJ,
			   PRM_OP_ALLOC_FLOW_COUNTER);
		check_info(&info[1], &pd, MLX5_IB_DEVX_HANDLE_KIND_OBJ,
			   PRM_OP_ALLOC_PD);
		check_info(&info[2], &umem, MLX5_IB_DEVX_HANDLE_KIND_UMEM, 0);
		check_info(&info[3], &var, MLX5_IB_DEVX_HANDLE_KIND_VAR, 0);
		check_info(&info[4], &meter, MLX5_IB_DEVX_HANDLE_KIND_OBJ,
			   PRM_OP_CREATE_GENERAL_OBJECT);
		errors(fd, &fc, vpd->handle);
	} else {
		CHECK(!valid);
		CHECK_EQ(info[0].serial, ~0ull);
	}
	serial_attr_rules(fd);
	reuse(fd, &fc, &pd, &umem, &var, buf);

	CHECK_EQ(DESTROY_OBJ(fd, fc.handle), 0);
	CHECK_EQ(DESTROY_OBJ(fd, pd.handle), 0);
	CHECK_EQ(DESTROY_UMEM(fd, umem.handle), 0);
	CHECK_EQ(DESTROY_VAR(fd, var.handle), 0);
	CHECK_EQ(DESTROY_OBJ(fd, meter.handle), 0);
	/* a dead handle, once its object is gone */
	if (on)
		CHECK_EQ(query(fd, h, 1, info), ENOENT);
	CHECK_EQ(ibv_dealloc_pd(vpd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(buf);
	return check_done(NAME);
}
