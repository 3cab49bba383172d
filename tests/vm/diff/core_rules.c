// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The uverbs core's rules that mlx5-emu models, through core verbs and raw
 * core ioctls only, so that the same program runs on rdma_rxe in the VM
 * and under mlx5-emu; it prints one line per observation and nothing that
 * depends on the device (vm_diff_core compares the two outputs):
 *   - handles: one number space for every type, given as the kernel
 *     gives them: lowest free first (every released kernel), or each
 *     number once per file (the linux/ series, mlx5-emu --handles=unique);
 *     what a stale handle reaches (the destroy method, the write command,
 *     QUERY_MR), threads racing in one file, file-descriptor objects;
 *   - INFO_HANDLES: order, truncation at the list's length and the count
 *     it reports, malformed lengths, unknown and "any" object types;
 *   - the same file through a dup()ed descriptor (QUERY_PORT, a core
 *     method every driver serves: QUERY_CONTEXT is the driver's, rxe has
 *     none and mlx5 makes its own attribute mandatory);
 *   - the command descriptor's file operations: zero-length write(),
 *     read(), poll(), a close while a forked process goes on using it;
 *   - the errno of malformed ioctls and of wrong handles.
 * The header's driver id is the device's own: rxe's for an rxe device,
 * mlx5's otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

struct raw {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[6];
};

static uint16_t driver_id;
static uint32_t base;	/* what handles are printed relative to */

static void raw_init(struct raw *r, uint16_t object, uint16_t method)
{
	memset(r, 0, sizeof(*r));
	r->hdr.object_id = object;
	r->hdr.method_id = method;
	r->hdr.driver_id = driver_id;
}

static struct ib_uverbs_attr *raw_attr(struct raw *r, uint16_t id,
				       uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a = &r->attrs[r->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	return a;
}

static const char *raw_exec(int fd, struct raw *r)
{
	static char s[32];

	r->hdr.length = sizeof(r->hdr) + r->hdr.num_attrs * sizeof(r->attrs[0]);
	if (!ioctl(fd, RDMA_VERBS_IOCTL, &r->hdr))
		return "ok";
	snprintf(s, sizeof(s), "%s", strerrorname_np(errno));
	return s;
}

static const char *err(int e)
{
	return e ? strerrorname_np(e) : "ok";
}

/* INFO_HANDLES of type with a list of len bytes: "rc total=N [h...]" */
static void info(const char *what, int fd, uint64_t type, uint16_t len)
{
	uint32_t list[16] = {}, total = 0xdead;
	struct raw r;
	const char *rc;
	unsigned int i;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	raw_attr(&r, UVERBS_ATTR_INFO_OBJECT_ID, 8, type);
	raw_attr(&r, UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, (uintptr_t)&total);
	raw_attr(&r, UVERBS_ATTR_INFO_HANDLES_LIST, len, (uintptr_t)list);
	rc = raw_exec(fd, &r);
	printf("info_handles %s: %s", what, rc);
	if (!strcmp(rc, "ok")) {
		printf(" total=%u [", total);
		/* an FD object's id is no handle: printed as it is */
		for (i = 0; i < total && i < 16; i++)
			printf("%s%u", i ? " " : "",
			       list[i] - (type == UVERBS_OBJECT_ASYNC_EVENT ?
					  0 : base));
		printf("]");
	}
	printf("\n");
}

static void pd_destroy(const char *what, int fd, uint64_t handle,
		       uint16_t len)
{
	struct raw r;

	raw_init(&r, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	raw_attr(&r, UVERBS_ATTR_DESTROY_PD_HANDLE, len, handle);
	printf("pd_destroy %s: %s\n", what, raw_exec(fd, &r));
}

/*
 * How many handles the file holds, of every type that takes one from the
 * file's handle space (not the FD types: the async event file, the
 * completion channels, mlx5's two async fds): libmlx5 allocates a UAR
 * object at open, rxe nothing, so handles are printed relative to it.
 */
static uint32_t held(int fd)
{
	uint32_t list[16], total, sum = 0;
	unsigned int t;
	struct raw r;

	for (t = 0; t < 0x1040; t++) {
		if (t == 0x40)
			t = 0x1000;
		if (t == UVERBS_OBJECT_ASYNC_EVENT ||
		    t == UVERBS_OBJECT_COMP_CHANNEL ||
		    t == MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD ||
		    t == MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD)
			continue;
		total = 0;
		raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
		raw_attr(&r, UVERBS_ATTR_INFO_OBJECT_ID, 8, t);
		raw_attr(&r, UVERBS_ATTR_INFO_TOTAL_HANDLES, 4,
			 (uintptr_t)&total);
		raw_attr(&r, UVERBS_ATTR_INFO_HANDLES_LIST, sizeof(list),
			 (uintptr_t)list);
		if (!strcmp(raw_exec(fd, &r), "ok"))
			sum += total;
	}
	return sum;
}

static void handles(struct ibv_context *ctx, struct ibv_context *ctx2)
{
	int fd = ctx->cmd_fd;
	uint32_t before = held(fd), before2 = held(ctx2->cmd_fd);
	struct ibv_pd *a = ibv_alloc_pd(ctx), *b = ibv_alloc_pd(ctx);
	struct ibv_pd *c = ibv_alloc_pd(ctx), *d, *e;
	struct ibv_cq *cq;

	if (!a || !b || !c) {
		printf("alloc_pd: %s\n", err(errno));
		exit(1);
	}
	/* from here on, handles are printed minus base */
	base = before;
	printf("first pd takes the first free handle: %s\n",
	       a->handle == before ? "yes" : "no");
	printf("pd handles: %u %u %u\n", a->handle - base, b->handle - base,
	       c->handle - base);
	info("pd, room for 16", fd, UVERBS_OBJECT_PD, 64);
	info("pd, room for 1", fd, UVERBS_OBJECT_PD, 4);
	info("pd, 6 bytes", fd, UVERBS_OBJECT_PD, 6);
	info("pd, 0 bytes", fd, UVERBS_OBJECT_PD, 0);
	info("cq, none", fd, UVERBS_OBJECT_CQ, 64);
	info("unknown type 0x0fff", fd, 0x0fff, 64);
	info("any type", fd, 0xffff, 64);
	info("async event files", fd, UVERBS_OBJECT_ASYNC_EVENT, 64);
	printf("dealloc middle: %s\n", err(ibv_dealloc_pd(b)));
	info("pd after dealloc", fd, UVERBS_OBJECT_PD, 64);
	cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	printf("cq after dealloc takes: %u\n", cq ? cq->handle - base : ~0u);
	d = ibv_alloc_pd(ctx);
	printf("next pd: %u\n", d ? d->handle - base : ~0u);
	e = ibv_alloc_pd(ctx2);
	printf("other file's first pd takes its first free handle: %s\n",
	       e && e->handle == before2 ? "yes" : "no");
	pd_destroy("not in the file", fd, 999, 0);
	pd_destroy("a cq handle", fd, cq ? cq->handle : 999, 0);
	pd_destroy("with a length", fd, a->handle, 4);
	pd_destroy("twice, first", fd, c->handle, 0);
	pd_destroy("twice, second", fd, c->handle, 0);
	info("pd at the end", fd, UVERBS_OBJECT_PD, 64);
	/* c was destroyed by hand: libibverbs must not free it again */
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(d);
	ibv_dealloc_pd(e);
	ibv_dealloc_pd(a);
}

/* a write() command's handler through UVERBS_METHOD_INVOKE_WRITE */
static const char *invoke_write(int fd, uint32_t command, uint32_t handle)
{
	struct raw r;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	raw_attr(&r, UVERBS_ATTR_WRITE_CMD, 8, command);
	raw_attr(&r, UVERBS_ATTR_CORE_IN, sizeof(handle), handle);
	return raw_exec(fd, &r);
}

static const char *query_mr(int fd, uint32_t handle)
{
	uint32_t lkey, rkey;
	uint64_t length;
	struct raw r;

	raw_init(&r, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_HANDLE, 0, handle);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, (uintptr_t)&lkey);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, (uintptr_t)&rkey);
	raw_attr(&r, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8, (uintptr_t)&length);
	return raw_exec(fd, &r);
}

static const char *next_number(uint32_t freed, uint32_t now)
{
	static char s[32];

	if (now == freed)
		return "the same number";
	snprintf(s, sizeof(s), "a new number (%+d)", (int)(now - freed));
	return s;
}

/*
 * A handle kept after its object is destroyed, then a new object of the
 * same type: what the stale handle reaches.
 */
static void stale(struct ibv_context *ctx)
{
	static char buf[4096];
	int fd = ctx->cmd_fd;
	struct ibv_pd *a = ibv_alloc_pd(ctx), *b, *pd;
	struct ibv_mr *m, *n;
	const char *rc;
	uint32_t h;
	struct raw r;

	if (!a) {
		printf("alloc_pd: %s\n", err(errno));
		exit(1);
	}
	h = a->handle;
	ibv_dealloc_pd(a);
	b = ibv_alloc_pd(ctx);
	if (!b) {
		printf("alloc_pd: %s\n", err(errno));
		exit(1);
	}
	printf("pd after a destroy takes %s\n", next_number(h, b->handle));
	if (b->handle == h) {
		/* the hazard: the stale number names the new PD */
		info("pd, the new pd holds the stale number", fd,
		     UVERBS_OBJECT_PD, 64);
	} else {
		pd_destroy("stale", fd, h, 0);
		printf("pd dealloc (write) stale: %s\n",
		       invoke_write(fd, IB_USER_VERBS_CMD_DEALLOC_PD, h));
	}
	printf("new pd after the stale commands: %s\n",
	       err(ibv_dealloc_pd(b)));
	pd_destroy("handle 2^32", fd, 1ull << 32, 0);
	pd_destroy("handle -1", fd, (uint64_t)-1, 0);

	pd = ibv_alloc_pd(ctx);
	m = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) :
		 NULL;
	if (!m) {
		printf("reg_mr: %s\n", err(errno));
		exit(1);
	}
	h = m->handle;
	ibv_dereg_mr(m);
	n = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!n) {
		printf("reg_mr: %s\n", err(errno));
		exit(1);
	}
	printf("mr after a dereg takes %s\n", next_number(h, n->handle));
	printf("query_mr stale: %s\n", query_mr(fd, h));
	printf("query_mr new: %s\n", query_mr(fd, n->handle));
	if (n->handle != h)
		printf("mr dereg (write) stale: %s\n",
		       invoke_write(fd, IB_USER_VERBS_CMD_DEREG_MR, h));
	printf("new mr after the stale commands: %s\n", err(ibv_dereg_mr(n)));

	/* an async event file between two PDs takes no number */
	a = ibv_alloc_pd(ctx);
	h = a ? a->handle : 0;
	raw_init(&r, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_attr(&r, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	rc = raw_exec(fd, &r);
	printf("async event file: %s\n", rc);
	if (!strcmp(rc, "ok"))
		close((int)r.attrs[0].data);
	b = ibv_alloc_pd(ctx);
	printf("pd after an async event file: %+d\n",
	       a && b ? (int)(b->handle - h) : -999);
	if (b)
		ibv_dealloc_pd(b);
	if (a)
		ibv_dealloc_pd(a);
	ibv_dealloc_pd(pd);
}

/* two threads creating and destroying PDs in one file */
struct racer {
	struct ibv_context *ctx;
	uint32_t handles[2000];
	unsigned int n;
};

static void *race_thread(void *arg)
{
	struct racer *t = arg;
	struct ibv_pd *pd;

	while (t->n < 2000) {
		pd = ibv_alloc_pd(t->ctx);
		if (!pd)
			break;
		t->handles[t->n++] = pd->handle;
		ibv_dealloc_pd(pd);
	}
	return NULL;
}

static void race(struct ibv_context *ctx)
{
	static struct racer t[2];
	pthread_t th[2];
	unsigned int i, j, twice = 0;

	for (i = 0; i < 2; i++) {
		t[i].ctx = ctx;
		pthread_create(&th[i], NULL, race_thread, &t[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	/* a number both threads got */
	for (i = 0; i < t[0].n && !twice; i++)
		for (j = 0; j < t[1].n && !twice; j++)
			twice = t[0].handles[i] == t[1].handles[j];
	printf("two threads, %u pd pairs: one number given to both: %s\n",
	       t[0].n + t[1].n, twice ? "yes" : "no");
}

/* the answer, and room behind it for the "too long" case */
static struct {
	struct ib_uverbs_query_port_resp_ex resp;
	uint8_t tail[8];
} port;

/* UVERBS_METHOD_QUERY_PORT of port 1: a core method every driver serves */
static void query_port_init(struct raw *r)
{
	raw_init(r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	raw_attr(r, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1);
	raw_attr(r, UVERBS_ATTR_QUERY_PORT_RESP, sizeof(port.resp),
		 (uintptr_t)&port);
}

static void query_port(const char *what, int fd)
{
	struct raw r;

	query_port_init(&r);
	printf("query_port %s: %s\n", what, raw_exec(fd, &r));
}

static void shared_fd(struct ibv_context *ctx)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	int fd2 = dup(ctx->cmd_fd);

	query_port("own fd", ctx->cmd_fd);
	query_port("dup fd", fd2);
	info("pd through the dup fd", fd2, UVERBS_OBJECT_PD, 64);
	close(fd2);
	ibv_dealloc_pd(pd);
}

static void file_ops(struct ibv_context *ctx)
{
	struct pollfd p = { .fd = ctx->cmd_fd, .events = POLLIN | POLLOUT };
	char buf[16];
	ssize_t n;
	int fd, st, ret;
	pid_t pid;
	struct raw r;

	errno = 0;
	n = write(ctx->cmd_fd, buf, 0);
	printf("write 0 bytes: %zd %s\n", n, err(n < 0 ? errno : 0));
	errno = 0;
	n = read(ctx->cmd_fd, buf, sizeof(buf));
	printf("read: %zd %s\n", n, err(n < 0 ? errno : 0));
	ret = poll(&p, 1, 0);
	printf("poll: %d revents=0x%x\n", ret, p.revents);

	/* the parent closes its descriptor, the child goes on with its own */
	fd = dup(ctx->cmd_fd);
	pid = fork();
	if (pid == 0) {
		usleep(200000);
		query_port_init(&r);
		printf("child after the parent's close: %s\n",
		       raw_exec(fd, &r));
		fflush(stdout);
		_exit(0);
	}
	close(fd);
	waitpid(pid, &st, 0);
}

static void malformed(int fd)
{
	uint64_t one = 1;
	struct raw r;
	const char *ok;

#define QC() query_port_init(&r)
	QC();
	ok = raw_exec(fd, &r);
	printf("ioctl well formed: %s\n", ok);
	QC();
	r.hdr.length = sizeof(r.hdr) + 3 * sizeof(r.attrs[0]);
	printf("ioctl header length too long: %s\n",
	       ioctl(fd, RDMA_VERBS_IOCTL, &r.hdr) ? strerrorname_np(errno) :
						     "ok");
	QC();
	r.hdr.reserved1 = 1;
	printf("ioctl reserved1: %s\n", raw_exec(fd, &r));
	QC();
	r.hdr.reserved2 = 1;
	printf("ioctl reserved2: %s\n", raw_exec(fd, &r));
	QC();
	r.hdr.driver_id = RDMA_DRIVER_MLX4;
	printf("ioctl another driver id: %s\n", raw_exec(fd, &r));
	raw_init(&r, UVERBS_OBJECT_DEVICE, 0x77);
	printf("ioctl unknown method: %s\n", raw_exec(fd, &r));
	raw_init(&r, 0x0fff, 0);
	printf("ioctl unknown object: %s\n", raw_exec(fd, &r));
	QC();
	raw_attr(&r, 0x1777, 4, 0)->flags = 0;
	printf("ioctl unknown optional attribute: %s\n", raw_exec(fd, &r));
	QC();
	raw_attr(&r, 0x1777, 4, 0);
	printf("ioctl unknown mandatory attribute: %s\n", raw_exec(fd, &r));
	QC();
	raw_attr(&r, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, one);
	printf("ioctl the same attribute twice: %s\n", raw_exec(fd, &r));
	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	printf("ioctl mandatory attribute missing: %s\n", raw_exec(fd, &r));
	QC();
	r.attrs[1].len = 4;
	printf("ioctl attribute too short: %s\n", raw_exec(fd, &r));
	QC();
	r.attrs[1].len = sizeof(port);
	memset(port.tail, 0xff, sizeof(port.tail));
	ok = raw_exec(fd, &r);
	printf("ioctl struct answer longer than the struct: %s, tail %s\n",
	       ok, port.tail[0] || port.tail[7] ? "left" : "zeroed");
	QC();
	r.attrs[0].attr_data.reserved = 1;
	printf("ioctl attribute reserved field: %s\n", raw_exec(fd, &r));
	QC();
	r.attrs[1].data = 16;
	printf("ioctl output behind a bad pointer: %s\n", raw_exec(fd, &r));
	printf("ioctl header behind a bad pointer: %s\n",
	       ioctl(fd, RDMA_VERBS_IOCTL, (void *)16) ?
		       strerrorname_np(errno) : "ok");
	QC();
	printf("ioctl still served: %s\n", raw_exec(fd, &r));
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx, *ctx2;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	if (!list || n < 1) {
		printf("SKIP core_rules: no RDMA device\n");
		return 77;
	}
	driver_id = strncmp(ibv_get_device_name(list[0]), "rxe", 3) ?
		    RDMA_DRIVER_MLX5 : RDMA_DRIVER_RXE;
	ctx = ibv_open_device(list[0]);
	ctx2 = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	if (!ctx || !ctx2) {
		printf("open: %s\n", err(errno));
		return 1;
	}
	handles(ctx, ctx2);
	stale(ctx);
	race(ctx);
	shared_fd(ctx);
	file_ops(ctx);
	malformed(ctx->cmd_fd);
	ibv_close_device(ctx2);
	ibv_close_device(ctx);
	return 0;
}
