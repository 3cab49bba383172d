// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The uverbs handle rule of a kernel, on any verbs device, through the
 * core alone, so that it runs on rdma_rxe in the VM as well as under
 * mlx5-emu.  Objects are made by libibverbs (a PD has no ioctl method
 * in 6.12, and a CQ's create carries the driver's own data); everything
 * the rule decides goes through raw ioctls on the command fd: the core
 * destroy methods, the write() commands' handlers (reached by
 * UVERBS_METHOD_INVOKE_WRITE, as libibverbs reaches them),
 * UVERBS_METHOD_INFO_HANDLES and UVERBS_METHOD_QUERY_MR.
 *
 * unique (kernel series v3, "one handle, one object"):
 *  - after a PD, CQ or MR is destroyed the next one gets another number;
 *    the stale number's destroy (method and write command) and query
 *    answer ENOENT and the new object stays usable;
 *  - N threads creating and destroying PDs in one file never get one
 *    number twice (every number collected, then compared);
 *  - rereg_mr keeps the MR's handle, and burns the number it took for
 *    the transient uobject (the next create is 2 above the last);
 *  - file-descriptor objects (completion channel, async event file) take
 *    no number.
 * lowest-free (every released kernel): the next one gets the number just
 * freed and the stale number reaches it (the hazard, asserted as today's
 * kernels behave); the threads see numbers again; rereg_mr keeps the
 * handle; fd objects take no number.
 *
 * Usage: handles_core --expect=unique|lowest-free [--rounds=N]
 *                     [--threads=N] [DEVICE]
 * Without --expect the program says which rule the kernel follows and
 * checks it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

#include "uverbs_ioctl.h"

#define NAME "handles_core"
#define MAX_THREADS 16

static int failures;
static uint32_t driver_id;
static bool unique;

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			failures++;                                         \
			printf("FAIL %s:%d: %s: ", NAME, __LINE__, #cond);  \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
	} while (0)

/*
 * The driver id the kernel expects in the ioctl header is the device's:
 * the one for which a well-formed INFO_HANDLES, a core method no driver
 * extends, answers anything but EINVAL.
 */
static bool find_driver_id(int fd)
{
	for (driver_id = 0; driver_id < 64; driver_id++) {
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_INFO_HANDLES, 2);
		uint32_t handles[1];

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID,
			      UVERBS_OBJECT_PD);
		fill_out_ptr(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
			     sizeof(handles));
		if (uverbs_cmd_execute(fd, driver_id, cmd) != EINVAL)
			return true;
	}
	return false;
}

/* INFO_HANDLES: is handle among the file's objects of type? */
static bool listed(int fd, uint16_t type, uint32_t handle)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_INFO_HANDLES, 3);
	uint32_t handles[256], total = 0, i;

	fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID, type);
	fill_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total,
		     sizeof(total));
	fill_out_ptr(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
		     sizeof(handles));
	if (uverbs_cmd_execute(fd, driver_id, cmd))
		return false;
	for (i = 0; i < total && i < 256; i++)
		if (handles[i] == handle)
			return true;
	return false;
}

/* a core destroy method: 0 or the errno */
static int destroy_method(int fd, uint16_t type, uint32_t handle)
{
	UVERBS_DECLARE_CMD(cmd, type, 0, 2);
	struct ib_uverbs_destroy_cq_resp resp;

	switch (type) {
	case UVERBS_OBJECT_PD:
		uverbs_cmd_init(cmd, type, UVERBS_METHOD_PD_DESTROY, 2);
		fill_in_idr(cmd, UVERBS_ATTR_DESTROY_PD_HANDLE, handle);
		break;
	case UVERBS_OBJECT_MR:
		uverbs_cmd_init(cmd, type, UVERBS_METHOD_MR_DESTROY, 2);
		fill_in_idr(cmd, UVERBS_ATTR_DESTROY_MR_HANDLE, handle);
		break;
	default:
		uverbs_cmd_init(cmd, type, UVERBS_METHOD_CQ_DESTROY, 2);
		fill_in_idr(cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, handle);
		fill_out_ptr(cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &resp,
			     sizeof(resp));
		break;
	}
	return uverbs_cmd_execute(fd, driver_id, cmd);
}

/* the write() command that destroys one (DEALLOC_PD...): 0 or errno */
static int destroy_write(int fd, uint16_t type, uint32_t handle)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_INVOKE_WRITE, 3);
	struct ib_uverbs_destroy_cq_resp resp;
	struct ib_uverbs_destroy_cq cq = { .cq_handle = handle };

	switch (type) {
	case UVERBS_OBJECT_PD:
		fill_in_const(cmd, UVERBS_ATTR_WRITE_CMD,
			      IB_USER_VERBS_CMD_DEALLOC_PD);
		fill_in_ptr(cmd, UVERBS_ATTR_CORE_IN, &handle, sizeof(handle));
		break;
	case UVERBS_OBJECT_MR:
		fill_in_const(cmd, UVERBS_ATTR_WRITE_CMD,
			      IB_USER_VERBS_CMD_DEREG_MR);
		fill_in_ptr(cmd, UVERBS_ATTR_CORE_IN, &handle, sizeof(handle));
		break;
	default:
		fill_in_const(cmd, UVERBS_ATTR_WRITE_CMD,
			      IB_USER_VERBS_CMD_DESTROY_CQ);
		fill_in_ptr(cmd, UVERBS_ATTR_CORE_IN, &cq, sizeof(cq));
		fill_out_ptr(cmd, UVERBS_ATTR_CORE_OUT, &resp, sizeof(resp));
		break;
	}
	return uverbs_cmd_execute(fd, driver_id, cmd);
}

/* UVERBS_METHOD_QUERY_MR, what ibv_import_mr() asks: 0 or the errno */
static int query_mr(int fd, uint32_t handle, uint32_t *lkey)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, 4);
	uint32_t rkey;
	uint64_t length;

	fill_in_idr(cmd, UVERBS_ATTR_QUERY_MR_HANDLE, handle);
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LKEY, lkey, sizeof(*lkey));
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, sizeof(rkey));
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length,
		     sizeof(length));
	return uverbs_cmd_execute(fd, driver_id, cmd);
}

/* one verbs object: made and destroyed through libibverbs */
struct vobj {
	uint16_t type;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint32_t handle;
};

static char mr_buf[4096];

static bool vobj_make(struct ibv_context *ctx, struct ibv_pd *pd,
		      uint16_t type, struct vobj *o)
{
	memset(o, 0, sizeof(*o));
	o->type = type;
	if (type == UVERBS_OBJECT_PD) {
		o->pd = ibv_alloc_pd(ctx);
		o->handle = o->pd ? o->pd->handle : 0;
		return o->pd;
	}
	if (type == UVERBS_OBJECT_MR) {
		o->mr = ibv_reg_mr(pd, mr_buf, sizeof(mr_buf),
				   IBV_ACCESS_LOCAL_WRITE);
		o->handle = o->mr ? o->mr->handle : 0;
		return o->mr;
	}
	o->cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	o->handle = o->cq ? o->cq->handle : 0;
	return o->cq;
}

static int vobj_destroy(struct vobj *o)
{
	if (o->pd)
		return ibv_dealloc_pd(o->pd);
	if (o->mr)
		return ibv_dereg_mr(o->mr);
	return ibv_destroy_cq(o->cq);
}

/* the object under handle answers: listed, and for an MR, queried */
static bool usable(int fd, uint16_t type, uint32_t handle)
{
	uint32_t lkey;

	if (!listed(fd, type, handle))
		return false;
	return type != UVERBS_OBJECT_MR || !query_mr(fd, handle, &lkey);
}

static const char *type_name(uint16_t type)
{
	return type == UVERBS_OBJECT_PD ? "PD" :
	       type == UVERBS_OBJECT_MR ? "MR" : "CQ";
}

/* create A, destroy A, create B; then A's number */
static void stale(struct ibv_context *ctx, struct ibv_pd *pd, uint16_t type)
{
	int fd = ctx->cmd_fd, ret;
	struct vobj a, b;

	if (!vobj_make(ctx, pd, type, &a)) {
		CHECK(0, "create %s: %s", type_name(type), strerror(errno));
		return;
	}
	CHECK(vobj_destroy(&a) == 0, "destroy %s", type_name(type));
	if (!vobj_make(ctx, pd, type, &b)) {
		CHECK(0, "create %s again: %s", type_name(type),
		      strerror(errno));
		return;
	}
	printf("%s: handle %u destroyed, the next create got %u\n",
	       type_name(type), a.handle, b.handle);
	if (unique) {
		CHECK(b.handle != a.handle, "%s number given twice",
		      type_name(type));
		CHECK(!listed(fd, type, a.handle), "stale %s listed",
		      type_name(type));
		ret = destroy_method(fd, type, a.handle);
		CHECK(ret == ENOENT, "stale %s destroy (method): %s",
		      type_name(type), strerror(ret));
		ret = destroy_write(fd, type, a.handle);
		CHECK(ret == ENOENT, "stale %s destroy (write): %s",
		      type_name(type), strerror(ret));
		if (type == UVERBS_OBJECT_MR) {
			uint32_t lkey;

			ret = query_mr(fd, a.handle, &lkey);
			CHECK(ret == ENOENT, "stale MR query: %s",
			      strerror(ret));
		}
	} else {
		CHECK(b.handle == a.handle, "%s: lowest free number %u not "
		      "given again (%u)", type_name(type), a.handle,
		      b.handle);
	}
	/* unique: the new object is untouched; lowest-free: reached */
	CHECK(usable(fd, type, b.handle), "the new %s", type_name(type));
	CHECK(usable(fd, type, a.handle) == !unique,
	      "the stale %s number reaches the new object: %s",
	      type_name(type), unique ? "yes" : "no");
	CHECK(vobj_destroy(&b) == 0, "destroy the new %s", type_name(type));
}

/* N threads in one file: every number a create returned */
struct racer {
	struct ibv_context *ctx;
	unsigned int rounds;
	uint32_t *handles;
	unsigned int n;
	int err;
};

static void *race_thread(void *arg)
{
	struct racer *r = arg;
	struct ibv_pd *pd;
	unsigned int i;

	for (i = 0; i < r->rounds; i++) {
		pd = ibv_alloc_pd(r->ctx);
		if (!pd) {
			r->err = errno;
			break;
		}
		r->handles[r->n++] = pd->handle;
		if (ibv_dealloc_pd(pd)) {
			r->err = errno ? errno : EIO;
			break;
		}
	}
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void race(struct ibv_context *ctx, unsigned int threads,
		 unsigned int rounds)
{
	struct racer r[MAX_THREADS] = {};
	pthread_t t[MAX_THREADS];
	unsigned int i, started, total = 0, dups = 0;
	uint32_t *all;

	all = calloc((size_t)threads * rounds, sizeof(*all));
	if (!all) {
		CHECK(0, "calloc");
		return;
	}
	for (started = 0; started < threads; started++) {
		r[started].ctx = ctx;
		r[started].rounds = rounds;
		r[started].handles = all + (size_t)started * rounds;
		if (pthread_create(&t[started], NULL, race_thread,
				   &r[started]))
			break;
	}
	CHECK(started == threads, "pthread_create");
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		CHECK(!r[i].err, "thread %u: %s", i, strerror(r[i].err));
		memmove(all + total, r[i].handles,
			r[i].n * sizeof(*all));
		total += r[i].n;
	}
	qsort(all, total, sizeof(*all), cmp_u32);
	for (i = 1; i < total; i++)
		if (all[i] == all[i - 1])
			dups++;
	printf("race: %u threads, %u PD create/destroy pairs, %u numbers "
	       "given again\n", started, total, dups);
	if (unique)
		CHECK(dups == 0, "%u numbers given twice", dups);
	else
		CHECK(dups > 0, "no number given again");
	free(all);
}

/*
 * rereg_mr (access flags: what every driver that rereg's supports) keeps
 * the MR's handle; series v3 burns the number the transient uobject took.
 * A device without rereg leaves the check out.
 */
static void rereg(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct ibv_pd *before, *after;
	struct ibv_mr *mr;
	uint32_t h, lkey;
	int ret;

	mr = ibv_reg_mr(pd, mr_buf, sizeof(mr_buf), IBV_ACCESS_LOCAL_WRITE);
	before = ibv_alloc_pd(ctx);
	if (!mr || !before) {
		CHECK(0, "reg_mr/alloc_pd: %s", strerror(errno));
		return;
	}
	h = mr->handle;
	ret = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	if (ret && (errno == EOPNOTSUPP || errno == ENOSYS)) {
		printf("rereg_mr: %s: check left out\n", strerror(errno));
		ibv_dereg_mr(mr);
		ibv_dealloc_pd(before);
		return;
	}
	CHECK(!ret, "rereg_mr: %d, %s", ret, strerror(errno));
	after = ibv_alloc_pd(ctx);
	CHECK(after, "alloc_pd after rereg: %s", strerror(errno));
	printf("rereg_mr: MR handle %u then %u; PDs around it %u, %u\n", h,
	       mr->handle, before->handle, after ? after->handle : 0);
	CHECK(mr->handle == h, "rereg_mr changed the handle");
	CHECK(query_mr(ctx->cmd_fd, h, &lkey) == 0, "the MR after rereg");
	if (after && unique)
		CHECK(after->handle == before->handle + 2,
		      "the transient number not burnt (%u, %u)",
		      before->handle, after->handle);
	if (after)
		ibv_dealloc_pd(after);
	ibv_dealloc_pd(before);
	CHECK(ibv_dereg_mr(mr) == 0, "dereg_mr");
}

/* an async event file (UVERBS_METHOD_ASYNC_EVENT_ALLOC): 0 or errno */
static int async_fd(struct ibv_context *ctx)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_ASYNC_EVENT,
			   UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1);
	struct ib_uverbs_attr *a;
	int ret;

	a = fill_in_idr(cmd, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	ret = uverbs_cmd_execute(ctx->cmd_fd, driver_id, cmd);
	if (!ret)
		close((int)a->data);
	return ret;
}

static int comp_channel(struct ibv_context *ctx)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);

	if (!ch)
		return errno;
	return ibv_destroy_comp_channel(ch);
}

/* a file-descriptor object between two PDs takes no number */
static void fd_object(struct ibv_context *ctx, const char *what,
		      int (*make)(struct ibv_context *ctx))
{
	struct ibv_pd *a, *b;
	uint32_t ha;
	int ret;

	a = ibv_alloc_pd(ctx);
	if (!a) {
		CHECK(0, "alloc_pd: %s", strerror(errno));
		return;
	}
	ha = a->handle;
	if (!unique)
		ibv_dealloc_pd(a);
	ret = make(ctx);
	b = ibv_alloc_pd(ctx);
	if (!b) {
		CHECK(0, "alloc_pd: %s", strerror(errno));
		return;
	}
	printf("%s: %s; PD handles %u then %u\n", what,
	       ret ? strerror(ret) : "made", ha, b->handle);
	CHECK(b->handle == (unique ? ha + 1 : ha), "%s took a number", what);
	if (unique)
		ibv_dealloc_pd(a);
	ibv_dealloc_pd(b);
}

/* the rule the kernel follows: a PD's number after a destroy */
static bool kernel_is_unique(struct ibv_context *ctx)
{
	struct ibv_pd *a = ibv_alloc_pd(ctx), *b;
	uint32_t ha, hb;

	if (!a)
		return false;
	ha = a->handle;
	ibv_dealloc_pd(a);
	b = ibv_alloc_pd(ctx);
	if (!b)
		return false;
	hb = b->handle;
	ibv_dealloc_pd(b);
	return hb != ha;
}

int main(int argc, char **argv)
{
	const char *expect = NULL, *dev_name = NULL;
	unsigned int rounds = 2000, threads = 4;
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int i, n;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--expect=", 9))
			expect = argv[i] + 9;
		else if (!strncmp(argv[i], "--rounds=", 9))
			rounds = strtoul(argv[i] + 9, NULL, 0);
		else if (!strncmp(argv[i], "--threads=", 10))
			threads = strtoul(argv[i] + 10, NULL, 0);
		else
			dev_name = argv[i];
	}
	if (expect && strcmp(expect, "unique") &&
	    strcmp(expect, "lowest-free")) {
		fprintf(stderr, "%s: --expect=unique|lowest-free\n", NAME);
		return 2;
	}
	if (threads < 2 || threads > MAX_THREADS || !rounds) {
		fprintf(stderr, "%s: --threads=2..%d, --rounds>0\n", NAME,
			MAX_THREADS);
		return 2;
	}
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !dev; i++)
		if (!dev_name ||
		    !strcmp(ibv_get_device_name(list[i]), dev_name))
			dev = list[i];
	if (!dev) {
		printf("SKIP %s: no verbs device%s%s\n", NAME,
		       dev_name ? " " : "", dev_name ? dev_name : "");
		return 77;
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		printf("FAIL %s: ibv_open_device(%s): %s\n", NAME,
		       ibv_get_device_name(dev), strerror(errno));
		return 1;
	}
	if (!find_driver_id(ctx->cmd_fd)) {
		printf("FAIL %s: no driver id accepted by INFO_HANDLES\n",
		       NAME);
		return 1;
	}
	unique = kernel_is_unique(ctx);
	printf("device %s, driver id %u: the kernel gives handles %s\n",
	       ibv_get_device_name(dev), driver_id,
	       unique ? "once (unique)" : "lowest free first");
	if (expect && unique != !strcmp(expect, "unique")) {
		printf("FAIL %s: expected %s\n", NAME, expect);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		printf("FAIL %s: alloc_pd: %s\n", NAME, strerror(errno));
		return 1;
	}
	stale(ctx, pd, UVERBS_OBJECT_PD);
	stale(ctx, pd, UVERBS_OBJECT_CQ);
	stale(ctx, pd, UVERBS_OBJECT_MR);
	race(ctx, threads, rounds);
	rereg(ctx, pd);
	fd_object(ctx, "completion channel", comp_channel);
	fd_object(ctx, "async event file", async_fd);
	CHECK(ibv_dealloc_pd(pd) == 0, "dealloc_pd");
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	if (failures) {
		printf("%s: %d checks failed\n", NAME, failures);
		return 1;
	}
	printf("%s: passed\n", NAME);
	return 0;
}
