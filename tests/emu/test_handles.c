// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The uverbs handle rule under mlx5-emu, in the mode the argument names
 * (mlx5-emu run --handles=MODE):
 *
 * unique (kernel series v3): after a destroy, a create of the same kind
 * gets a number the file never gave (PD, CQ, MR, DEVX object, UMEM,
 * VAR); the stale handle's destroy and query fail with ENOENT, through
 * a method and a write() command alike, and the new object stays usable;
 * QUERY_CONTEXT's FILE_ID is written, non-zero, the same on every call
 * through one file (also through a context imported from it) and
 * different for another file.
 *
 * lowest-free (every released kernel): the same create gets the number
 * just freed, and the stale handle reaches the new object (the hazard,
 * asserted as today's kernels behave); FILE_ID is an unknown attribute
 * (ignored when optional, EPROTONOSUPPORT when mandatory).
 *
 * Both: file-descriptor objects (async event file, completion channel,
 * DEVX async command and event files) take no number.
 *
 * unique-end: run with MLX5_EMU_TEST_FIRST_HANDLE near 2^31: the file
 * gives numbers up to INT_MAX, then ENOSPC for every create, ioctl or
 * write(), also after a destroy; its objects still work.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>

#include "emu_util.h"
#include "rdma_uapi_compat.h"

#define NAME "emu_handles"

static bool unique;

/* one object the test made: its handle, and what it needs to go on */
struct obj {
	uint32_t handle;
	uint32_t fw_id;		/* DEVX counter id, VAR page */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
};

struct env {
	struct ibv_context *ctx;
	int fd;
	struct ibv_pd *pd;	/* the MRs' */
	void *buf;		/* the UMEMs' and MRs' memory */
};

static int destroy_raw(int fd, uint16_t obj, uint16_t meth, uint16_t attr,
		       uint32_t handle)
{
	struct emu_raw r;

	raw_init(&r, obj, meth);
	raw_attr(&r, attr, 0, handle);
	return raw_exec(fd, &r);
}

/*
 * IB_USER_VERBS_CMD_DEALLOC_PD / DEREG_MR, the write() commands'
 * handlers, reached as libibverbs reaches them (UVERBS_METHOD_INVOKE_WRITE;
 * mlx5-emu answers write() itself with EOPNOTSUPP): 0 or errno
 */
static int write_destroy(int fd, uint32_t command, uint32_t handle)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&r, UVERBS_ATTR_WRITE_CMD, 8, command);
	raw_attr(&r, UVERBS_ATTR_CORE_IN, sizeof(handle), handle);
	return raw_exec(fd, &r);
}

/* a flow counter through DEVX, with its handle */
static int fc_create(struct env *e, struct obj *o)
{
	uint8_t in[PRM_ALLOC_FC_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	struct emu_raw r;
	int ret;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	raw_init(&r, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, 0, 0);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, sizeof(in),
		 (uintptr_t)in);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, sizeof(out),
		 (uintptr_t)out);
	ret = raw_exec(e->fd, &r);
	o->handle = (uint32_t)r.attrs[0].data;
	o->fw_id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	return ret;
}

static int fc_destroy(struct env *e, uint32_t h)
{
	return destroy_raw(e->fd, MLX5_IB_OBJECT_DEVX_OBJ,
			   MLX5_IB_METHOD_DEVX_OBJ_DESTROY,
			   MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, h);
}

static int fc_use(struct env *e, struct obj *o, uint32_t h)
{
	return emu_raw_counter_query(e->fd, h, o->fw_id);
}

static int umem_create(struct env *e, struct obj *o)
{
	uint32_t id;
	struct emu_raw r;
	int ret;

	raw_init(&r, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_REG);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE, 0, 0);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, 8, (uintptr_t)e->buf);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, 8, 4096);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, 4, (uintptr_t)&id);
	ret = raw_exec(e->fd, &r);
	o->handle = (uint32_t)r.attrs[0].data;
	return ret;
}

static int umem_destroy(struct env *e, uint32_t h)
{
	return destroy_raw(e->fd, MLX5_IB_OBJECT_DEVX_UMEM,
			   MLX5_IB_METHOD_DEVX_UMEM_DEREG,
			   MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE, h);
}

static int var_create(struct env *e, struct obj *o)
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
		 (uintptr_t)&o->fw_id);
	ret = raw_exec(e->fd, &r);
	o->handle = (uint32_t)r.attrs[0].data;
	return ret;
}

static int var_destroy(struct env *e, uint32_t h)
{
	return destroy_raw(e->fd, MLX5_IB_OBJECT_VAR,
			   MLX5_IB_METHOD_VAR_OBJ_DESTROY,
			   MLX5_IB_ATTR_VAR_OBJ_DESTROY_HANDLE, h);
}

/* the handle is in the file's list of its type (INFO_HANDLES) */
static int listed(struct env *e, uint16_t type, uint32_t h)
{
	uint32_t list[64], total = 0;
	int ret = emu_info_handles(e->fd, type, list, 64, &total);

	if (ret)
		return ret;
	return handles_contain(list, total < 64 ? total : 64, h) ? 0 : ENOENT;
}

static int umem_use(struct env *e, struct obj *o, uint32_t h)
{
	return listed(e, MLX5_IB_OBJECT_DEVX_UMEM, h);
}

static int var_use(struct env *e, struct obj *o, uint32_t h)
{
	return listed(e, MLX5_IB_OBJECT_VAR, h);
}

/* verbs objects through libibverbs; their destroys through the kernel */
static int pd_create(struct env *e, struct obj *o)
{
	o->pd = ibv_alloc_pd(e->ctx);
	if (!o->pd)
		return errno;
	o->handle = o->pd->handle;
	return 0;
}

static int pd_destroy(struct env *e, uint32_t h)
{
	return destroy_raw(e->fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			   UVERBS_ATTR_DESTROY_PD_HANDLE, h);
}

/* MLX5_IB_METHOD_PD_QUERY, what ibv_import_pd() asks */
static int pd_use(struct env *e, struct obj *o, uint32_t h)
{
	uint32_t pdn;
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_PD, MLX5_IB_METHOD_PD_QUERY);
	raw_attr(&r, MLX5_IB_ATTR_QUERY_PD_HANDLE, 0, h);
	raw_attr(&r, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, 4, (uintptr_t)&pdn);
	return raw_exec(e->fd, &r);
}

static int cq_create(struct env *e, struct obj *o)
{
	o->cq = ibv_create_cq(e->ctx, 4, NULL, NULL, 0);
	if (!o->cq)
		return errno;
	o->handle = o->cq->handle;
	return 0;
}

static int cq_destroy(struct env *e, uint32_t h)
{
	struct ib_uverbs_destroy_cq_resp resp;
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	raw_attr(&r, UVERBS_ATTR_DESTROY_CQ_HANDLE, 0, h);
	raw_attr(&r, UVERBS_ATTR_DESTROY_CQ_RESP, sizeof(resp),
		 (uintptr_t)&resp);
	return raw_exec(e->fd, &r);
}

static int cq_use(struct env *e, struct obj *o, uint32_t h)
{
	return listed(e, UVERBS_OBJECT_CQ, h);
}

static int mr_create(struct env *e, struct obj *o)
{
	o->mr = ibv_reg_mr(e->pd, e->buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!o->mr)
		return errno;
	o->handle = o->mr->handle;
	return 0;
}

static int mr_destroy(struct env *e, uint32_t h)
{
	return destroy_raw(e->fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			   UVERBS_ATTR_DESTROY_MR_HANDLE, h);
}

/* UVERBS_METHOD_QUERY_MR, what ibv_import_mr() asks */
static int mr_use(struct env *e, struct obj *o, uint32_t h)
{
	uint32_t lkey, rkey;
	uint64_t length;
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_HANDLE, 0, h);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, (uintptr_t)&lkey);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, (uintptr_t)&rkey);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8, (uintptr_t)&length);
	return raw_exec(e->fd, &r);
}

/* the destroy an owner makes: libibverbs for its objects, else raw */
static int release(struct env *e, const struct obj *o,
		   int (*destroy)(struct env *e, uint32_t h))
{
	if (o->pd)
		return ibv_dealloc_pd(o->pd);
	if (o->cq)
		return ibv_destroy_cq(o->cq);
	if (o->mr)
		return ibv_dereg_mr(o->mr);
	return destroy(e, o->handle);
}

struct kind {
	const char *name;
	int (*create)(struct env *e, struct obj *o);
	int (*destroy)(struct env *e, uint32_t h);
	int (*use)(struct env *e, struct obj *o, uint32_t h);
	/* the write() command that destroys one, or 0 */
	uint32_t write_destroy;
};

static const struct kind kinds[] = {
	{ "PD", pd_create, pd_destroy, pd_use, IB_USER_VERBS_CMD_DEALLOC_PD },
	{ "CQ", cq_create, cq_destroy, cq_use, 0 },
	{ "MR", mr_create, mr_destroy, mr_use, IB_USER_VERBS_CMD_DEREG_MR },
	{ "DEVX obj", fc_create, fc_destroy, fc_use, 0 },
	{ "UMEM", umem_create, umem_destroy, umem_use, 0 },
	{ "VAR", var_create, var_destroy, var_use, 0 },
};

/*
 * create A, destroy A, create B, then A's handle: unique, it names
 * nothing (ENOENT through ioctl and write) and B goes on; lowest-free,
 * it names B (and destroys it, for the objects libibverbs does not hold).
 */
static void one_kind(struct env *e, const struct kind *k)
{
	struct obj a = {}, b = {};

	REQUIRE(k->create(e, &a) == 0);
	CHECK_EQ(release(e, &a, k->destroy), 0);
	REQUIRE(k->create(e, &b) == 0);
	printf("%s: handle %u destroyed, the next create got %u\n", k->name,
	       a.handle, b.handle);
	if (unique) {
		CHECK(b.handle > a.handle);
		CHECK_EQ(k->use(e, &b, a.handle), ENOENT);
		CHECK_EQ(k->destroy(e, a.handle), ENOENT);
		if (k->write_destroy)
			CHECK_EQ(write_destroy(e->fd, k->write_destroy,
					       a.handle), ENOENT);
		CHECK_EQ(k->use(e, &b, b.handle), 0);
		CHECK_EQ(release(e, &b, k->destroy), 0);
		return;
	}
	CHECK_EQ(b.handle, a.handle);
	/* the hazard: the stale handle reaches the new object */
	CHECK_EQ(k->use(e, &b, a.handle), 0);
	if (b.pd || b.cq || b.mr) {
		CHECK_EQ(release(e, &b, k->destroy), 0);
		return;
	}
	CHECK_EQ(k->destroy(e, a.handle), 0);
	CHECK_EQ(k->use(e, &b, b.handle), ENOENT);
}

/*
 * QUERY_CONTEXT with FILE_ID (flags: the attribute's, 0 or MANDATORY):
 * 0 or the errno; *valid: the kernel flagged it written
 */
static int file_id(int fd, uint16_t flags, uint64_t *id, bool *valid)
{
	struct mlx5_ib_alloc_ucontext_resp uctx;
	struct ib_uverbs_attr *a;
	struct emu_raw r;
	int ret;

	*id = 0;
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	a = raw_attr(&r, UVERBS_ATTR_QUERY_CONTEXT_FILE_ID, sizeof(*id),
		     (uintptr_t)id);
	a->flags = flags;
	raw_attr(&r, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, sizeof(uctx),
		 (uintptr_t)&uctx);
	ret = raw_exec(fd, &r);
	*valid = r.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT;
	return ret;
}

static void file_ids(struct env *e)
{
	struct ibv_context *other, *imported, *dev1;
	uint64_t id, again, id_other, id_imp, id_dev1;
	bool valid;

	if (!unique) {
		CHECK_EQ(file_id(e->fd, 0, &id, &valid), 0);
		CHECK(!valid);
		CHECK_EQ(id, 0);
		CHECK_EQ(file_id(e->fd, UVERBS_ATTR_F_MANDATORY, &id, &valid),
			 EPROTONOSUPPORT);
		return;
	}
	CHECK_EQ(file_id(e->fd, 0, &id, &valid), 0);
	CHECK(valid);
	CHECK(id != 0);
	CHECK_EQ(file_id(e->fd, UVERBS_ATTR_F_MANDATORY, &again, &valid), 0);
	CHECK(valid);
	CHECK_EQ(again, id);
	/* another open of the same device: another file */
	other = devx_open(NULL, 0);
	REQUIRE(other);
	CHECK_EQ(file_id(other->cmd_fd, 0, &id_other, &valid), 0);
	CHECK(valid && id_other && id_other != id);
	/* a context imported from (a dup of) the fd: the same file */
	imported = ibv_import_device(dup(e->fd));
	REQUIRE(imported);
	CHECK_EQ(file_id(imported->cmd_fd, 0, &id_imp, &valid), 0);
	CHECK(valid);
	CHECK_EQ(id_imp, id);
	/* another device's file */
	dev1 = devx_open(NULL, 1);
	REQUIRE(dev1);
	CHECK_EQ(file_id(dev1->cmd_fd, 0, &id_dev1, &valid), 0);
	CHECK(valid && id_dev1 && id_dev1 != id && id_dev1 != id_other);
	printf("FILE_ID: %llu, another open %llu, imported %llu, "
	       "device 1 %llu\n", (unsigned long long)id,
	       (unsigned long long)id_other, (unsigned long long)id_imp,
	       (unsigned long long)id_dev1);
	ibv_close_device(dev1);
	ibv_close_device(imported);
	ibv_close_device(other);
}

/*
 * A file-descriptor object between two creates: unique, the second
 * handle follows the first; lowest-free, the number the first freed
 * comes back.  Either way the fd object took none.
 */
static void no_number(struct env *e, const char *what,
		      int (*make)(struct env *e))
{
	struct obj a = {}, b = {};
	int ret;

	REQUIRE(fc_create(e, &a) == 0);
	if (!unique)
		CHECK_EQ(fc_destroy(e, a.handle), 0);
	ret = make(e);
	REQUIRE(fc_create(e, &b) == 0);
	printf("%s: %s; handles %u then %u\n", what,
	       ret ? strerror(ret) : "made", a.handle, b.handle);
	CHECK_EQ(b.handle, unique ? a.handle + 1 : a.handle);
	if (unique)
		CHECK_EQ(fc_destroy(e, a.handle), 0);
	CHECK_EQ(fc_destroy(e, b.handle), 0);
}

static int make_async_event_fd(struct env *e)
{
	struct emu_raw r;
	int ret;

	raw_init(&r, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_attr(&r, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	ret = raw_exec(e->fd, &r);
	if (!ret)
		close((int)r.attrs[0].data);
	return ret;
}

static int make_comp_channel(struct env *e)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(e->ctx);

	if (!ch)
		return errno;
	ibv_destroy_comp_channel(ch);
	return 0;
}

static int make_devx_cmd_fd(struct env *e)
{
	struct mlx5dv_devx_cmd_comp *c = mlx5dv_devx_create_cmd_comp(e->ctx);

	if (!c)
		return errno;
	mlx5dv_devx_destroy_cmd_comp(c);
	return 0;
}

static int make_devx_event_fd(struct env *e)
{
	struct mlx5dv_devx_event_channel *c =
		mlx5dv_devx_create_event_channel(e->ctx, 0);

	if (!c)
		return errno;
	mlx5dv_devx_destroy_event_channel(c);
	return 0;
}

/* unique-end: the file's last numbers, then ENOSPC for good */
static void range_end(struct env *e)
{
	struct obj o[8], more;
	unsigned int n = 0, i;
	int ret;

	while (n < 8 && !(ret = fc_create(e, &o[n])))
		n++;
	REQUIRE(n > 0 && n < 8);
	printf("%u creates, the last handle %u, then %s\n", n,
	       o[n - 1].handle, strerror(ret));
	CHECK_EQ(o[n - 1].handle, INT_MAX);
	CHECK_EQ(ret, ENOSPC);
	/* through write() too, and after a destroy: no wrap */
	CHECK_ERRNO(!ibv_alloc_pd(e->ctx), ENOSPC);
	CHECK_EQ(fc_destroy(e, o[0].handle), 0);
	CHECK_EQ(fc_create(e, &more), ENOSPC);
	/* the file's objects still work */
	for (i = 1; i < n; i++) {
		CHECK_EQ(fc_use(e, &o[i], o[i].handle), 0);
		CHECK_EQ(fc_destroy(e, o[i].handle), 0);
	}
}

int main(int argc, char **argv)
{
	struct env e = {};
	size_t i;

	if (argc != 2)
		return 2;
	unique = strcmp(argv[1], "lowest-free") != 0;
	e.ctx = emu_start(NAME);
	e.fd = e.ctx->cmd_fd;
	e.buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(e.buf != MAP_FAILED);
	if (!strcmp(argv[1], "unique-end")) {
		range_end(&e);
		ibv_close_device(e.ctx);
		return check_done(NAME);
	}
	e.pd = ibv_alloc_pd(e.ctx);
	REQUIRE(e.pd);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		one_kind(&e, &kinds[i]);
	file_ids(&e);
	no_number(&e, "async event fd", make_async_event_fd);
	no_number(&e, "completion channel", make_comp_channel);
	no_number(&e, "DEVX async command fd", make_devx_cmd_fd);
	no_number(&e, "DEVX event fd", make_devx_event_fd);
	CHECK_EQ(ibv_dealloc_pd(e.pd), 0);
	CHECK_EQ(ibv_close_device(e.ctx), 0);
	munmap(e.buf, 4096);
	return check_done(NAME);
}
