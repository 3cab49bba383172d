// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA netlink under mlx5-emu, spoken raw: the NLDEV answers carry what
 * the device says through verbs and what the generated sysfs says, and
 * the socket, its errors and its malformed input behave as the kernel's
 * af_netlink.c and core/netlink.c make them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "emu_util.h"

#define NDEV 2
#define BUFSZ 16384

struct msgbuf {
	uint8_t data[BUFSZ] __attribute__((aligned(8)));
	size_t len;
};

static uint32_t seq = 100;

static int nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);

	REQUIRE(fd >= 0);
	REQUIRE(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	return fd;
}

static void msg_init(struct msgbuf *m, uint16_t op, uint16_t flags)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op),
		.nlmsg_flags = NLM_F_REQUEST | flags,
		.nlmsg_seq = ++seq,
	};

	memset(m, 0, sizeof(*m));
	memcpy(m->data, &h, sizeof(h));
	m->len = NLMSG_HDRLEN;
}

static void msg_attr(struct msgbuf *m, uint16_t type, const void *v,
		     size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len),
			    .nla_type = type };
	uint32_t total;

	memcpy(m->data + m->len, &a, sizeof(a));
	memcpy(m->data + m->len + NLA_HDRLEN, v, len);
	m->len += NLA_ALIGN(NLA_HDRLEN + len);
	total = (uint32_t)m->len;
	memcpy(m->data, &total, sizeof(total));
}

static void msg_u32(struct msgbuf *m, uint16_t type, uint32_t v)
{
	msg_attr(m, type, &v, sizeof(v));
}

static void nl_send(int fd, const struct msgbuf *m)
{
	REQUIRE(send(fd, m->data, m->len, 0) == (ssize_t)m->len);
}

/* one datagram, or 0 bytes if none is queued */
static size_t nl_recv(int fd, struct msgbuf *m)
{
	struct sockaddr_nl from;
	socklen_t flen = sizeof(from);
	ssize_t n = recvfrom(fd, m->data, sizeof(m->data), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);

	if (n < 0) {
		CHECK_EQ(errno, EAGAIN);
		m->len = 0;
		return 0;
	}
	/* everything comes from the kernel */
	CHECK_EQ(flen, sizeof(from));
	CHECK_EQ(from.nl_family, AF_NETLINK);
	CHECK_EQ(from.nl_pid, 0);
	m->len = (size_t)n;
	return m->len;
}

struct reply {
	const struct nlmsghdr *h;
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
};

static void parse_attrs(struct reply *r)
{
	const uint8_t *p = (const uint8_t *)r->h + NLMSG_HDRLEN;
	long rem = (long)r->h->nlmsg_len - NLMSG_HDRLEN;

	memset(r->tb, 0, sizeof(r->tb));
	while (rem >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		REQUIRE(a->nla_len >= NLA_HDRLEN && a->nla_len <= rem);
		if (a->nla_type < RDMA_NLDEV_ATTR_MAX)
			r->tb[a->nla_type] = a;
		p += NLA_ALIGN(a->nla_len);
		rem -= NLA_ALIGN(a->nla_len);
	}
}

static uint64_t get_u64(const struct nlattr *a)
{
	uint64_t v;

	REQUIRE(a && a->nla_len == NLA_HDRLEN + 8);
	memcpy(&v, a + 1, 8);
	return v;
}

static uint32_t get_u32(const struct nlattr *a)
{
	uint32_t v;

	REQUIRE(a && a->nla_len == NLA_HDRLEN + 4);
	memcpy(&v, a + 1, 4);
	return v;
}

static uint8_t get_u8(const struct nlattr *a)
{
	REQUIRE(a && a->nla_len == NLA_HDRLEN + 1);
	return *(const uint8_t *)(a + 1);
}

static const char *get_str(const struct nlattr *a)
{
	REQUIRE(a && a->nla_len > NLA_HDRLEN);
	REQUIRE(((const char *)(a + 1))[a->nla_len - NLA_HDRLEN - 1] == 0);
	return (const char *)(a + 1);
}

static uint32_t portid_of(int fd)
{
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);

	REQUIRE(getsockname(fd, (struct sockaddr *)&sa, &len) == 0);
	CHECK_EQ(len, sizeof(sa));
	CHECK_EQ(sa.nl_family, AF_NETLINK);
	return sa.nl_pid;
}

/* the one message of a doit answer, checked against the request */
static void one_reply(int fd, struct msgbuf *m, struct reply *r,
		      uint16_t type)
{
	REQUIRE(nl_recv(fd, m) > 0);
	r->h = (const struct nlmsghdr *)m->data;
	REQUIRE(r->h->nlmsg_len == m->len);
	CHECK_EQ(r->h->nlmsg_type, type);
	CHECK_EQ(r->h->nlmsg_seq, seq);
	CHECK_EQ(r->h->nlmsg_pid, portid_of(fd));
	parse_attrs(r);
}

/* an NLMSG_ERROR for the last request, with its errno */
static int error_reply(int fd, struct msgbuf *m, bool capped)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)m->data;
	const struct nlmsgerr *e;

	REQUIRE(nl_recv(fd, m) > 0);
	REQUIRE(m->len >= NLMSG_LENGTH(sizeof(*e)));
	CHECK_EQ(h->nlmsg_type, NLMSG_ERROR);
	CHECK_EQ(h->nlmsg_seq, seq);
	e = (const struct nlmsgerr *)NLMSG_DATA(h);
	CHECK_EQ(e->msg.nlmsg_seq, seq);
	if (e->error && !capped)
		CHECK_EQ(h->nlmsg_len, NLMSG_LENGTH(sizeof(int)) +
					       e->msg.nlmsg_len);
	else
		CHECK(h->nlmsg_flags & NLM_F_CAPPED);
	return e->error;
}

static char *sysfs_read(const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("SYSFS_PATH"), rel);
	f = fopen(path, "r");
	REQUIRE(f);
	REQUIRE(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* GET dump: every device, as verbs and sysfs know it */
static void test_dev_dump(int fd, struct ibv_device **list)
{
	struct msgbuf m, in;
	int seen = 0;
	bool done = false;

	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP | NLM_F_ACK);
	nl_send(fd, &m);
	while (!done && nl_recv(fd, &in)) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)in.data;
		size_t rem = in.len;

		for (; NLMSG_OK(h, rem); h = NLMSG_NEXT(h, rem)) {
			struct ibv_device_attr attr;
			struct ibv_context *ctx;
			struct reply r = { .h = h };
			char name[32], fw[64], buf[128];
			uint32_t idx;

			CHECK_EQ(h->nlmsg_seq, seq);
			if (h->nlmsg_type == NLMSG_DONE) {
				CHECK_EQ(*(const int *)NLMSG_DATA(h), 0);
				done = true;
				break;
			}
			CHECK_EQ(h->nlmsg_type,
				 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						  RDMA_NLDEV_CMD_GET));
			CHECK(h->nlmsg_flags & NLM_F_MULTI);
			parse_attrs(&r);
			idx = get_u32(r.tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
			REQUIRE(idx < NDEV);
			CHECK_EQ(idx, seen);
			snprintf(name, sizeof(name), "mlx5_%u", idx);
			CHECK(!strcmp(get_str(r.tb[RDMA_NLDEV_ATTR_DEV_NAME]),
				      name));
			CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1);
			CHECK_EQ(get_u8(r.tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]),
				 1);
			CHECK(!strcmp(get_str(r.tb[
					      RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
				      "ib"));
			/* host order in netlink, big endian in verbs */
			CHECK(htobe64(get_u64(
				      r.tb[RDMA_NLDEV_ATTR_NODE_GUID])) ==
			      ibv_get_device_guid(list[idx]));
			ctx = ibv_open_device(list[idx]);
			REQUIRE(ctx);
			REQUIRE(ibv_query_device(ctx, &attr) == 0);
			CHECK(!strcmp(get_str(r.tb[RDMA_NLDEV_ATTR_FW_VERSION]),
				      attr.fw_ver));
			CHECK(htobe64(get_u64(
				      r.tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID])) ==
			      attr.sys_image_guid);
			CHECK_EQ(get_u64(r.tb[RDMA_NLDEV_ATTR_CAP_FLAGS]),
				 attr.device_cap_flags);
			ibv_close_device(ctx);
			/* the same facts in the generated sysfs */
			snprintf(fw, sizeof(fw), "class/infiniband/%s/fw_ver",
				 name);
			CHECK(!strcmp(sysfs_read(fw, buf, sizeof(buf)),
				      attr.fw_ver));
			seen++;
		}
	}
	CHECK(done);
	CHECK_EQ(seen, NDEV);
	/* a dump is never acknowledged */
	CHECK_EQ(nl_recv(fd, &in), 0);
}

/* GET doit, and PORT_GET doit and dump, against ibv_query_port() */
static void test_doit(int fd, struct ibv_device **list)
{
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	struct msgbuf m, in;
	struct reply r;
	char path[128], buf[128];
	unsigned int i;

	for (i = 0; i < NDEV; i++) {
		msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
		msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, i);
		nl_send(fd, &m);
		one_reply(fd, &in, &r,
			  RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_DEV_INDEX]), i);
		CHECK_EQ(r.h->nlmsg_flags & NLM_F_MULTI, 0);

		ctx = ibv_open_device(list[i]);
		REQUIRE(ctx);
		REQUIRE(ibv_query_port(ctx, 1, &pa) == 0);
		ibv_close_device(ctx);

		/* with NLM_F_ACK: the answer, then an ack of 0 */
		msg_init(&m, RDMA_NLDEV_CMD_PORT_GET, NLM_F_ACK);
		msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, i);
		msg_u32(&m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		nl_send(fd, &m);
		/* nldev_port_get_doit() answers with CMD_GET's type */
		one_reply(fd, &in, &r,
			  RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1);
		CHECK_EQ(get_u8(r.tb[RDMA_NLDEV_ATTR_PORT_STATE]), pa.state);
		CHECK_EQ(get_u8(r.tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]),
			 pa.phys_state);
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_LID]), pa.lid);
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_SM_LID]), pa.sm_lid);
		CHECK_EQ(get_u8(r.tb[RDMA_NLDEV_ATTR_LMC]), pa.lmc);
		CHECK_EQ(get_u64(r.tb[RDMA_NLDEV_ATTR_CAP_FLAGS]),
			 pa.port_cap_flags);
		CHECK_EQ(get_u64(r.tb[RDMA_NLDEV_ATTR_SUBNET_PREFIX]),
			 0xfe80000000000000ull);
		/* an IB port has no netdev */
		CHECK(!r.tb[RDMA_NLDEV_ATTR_NDEV_NAME]);
		CHECK_EQ(error_reply(fd, &in, true), 0);
		snprintf(path, sizeof(path),
			 "class/infiniband/mlx5_%u/ports/1/lid", i);
		CHECK_EQ(strtoul(sysfs_read(path, buf, sizeof(buf)), NULL, 16),
			 pa.lid);

		msg_init(&m, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
		msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, i);
		nl_send(fd, &m);
		REQUIRE(nl_recv(fd, &in) > 0);
		r.h = (const struct nlmsghdr *)in.data;
		CHECK_EQ(r.h->nlmsg_type,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					  RDMA_NLDEV_CMD_PORT_GET));
		parse_attrs(&r);
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_DEV_INDEX]), i);
		CHECK_EQ(get_u32(r.tb[RDMA_NLDEV_ATTR_PORT_INDEX]), 1);
		REQUIRE(nl_recv(fd, &in) > 0);
		CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type, NLMSG_DONE);
	}
}

/*
 * A request the kernel refuses: its op and flags, the device and port
 * indexes and char device type it carries (-1, NULL: none), the error.
 */
struct refusal {
	const char *what;
	uint16_t op, flags;
	int dev, port;
	const char *type;
	int err;
};

static void check_refusals(int fd, const struct refusal *r, size_t n)
{
	struct msgbuf m, in;
	size_t i;
	int got;

	for (i = 0; i < n; i++, r++) {
		msg_init(&m, r->op, r->flags);
		if (r->dev >= 0)
			msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, r->dev);
		if (r->port >= 0)
			msg_u32(&m, RDMA_NLDEV_ATTR_PORT_INDEX, r->port);
		if (r->type)
			msg_attr(&m, RDMA_NLDEV_ATTR_CHARDEV_TYPE, r->type,
				 strlen(r->type) + 1);
		nl_send(fd, &m);
		got = error_reply(fd, &in, false);
		if (got != -r->err)
			fprintf(stderr, "refusal of %s\n", r->what);
		CHECK_EQ(got, -r->err);
	}
}

/* GET_CHARDEV: what libibverbs asks for each device */
static void test_chardev(int fd)
{
	static const struct refusal chardev_refusals[] = {
		{ "a client the kernel does not have",
		  RDMA_NLDEV_CMD_GET_CHARDEV, 0, 0, -1, "nosuch", EOPNOTSUPP },
		{ "uverbs has no global char device",
		  RDMA_NLDEV_CMD_GET_CHARDEV, 0, -1, -1, "uverbs", EOPNOTSUPP },
		{ "nor one per port",
		  RDMA_NLDEV_CMD_GET_CHARDEV, 0, 0, 1, "uverbs", EINVAL },
		{ "the type is required",
		  RDMA_NLDEV_CMD_GET_CHARDEV, 0, 0, -1, NULL, EINVAL },
		{ "a port without a device",
		  RDMA_NLDEV_CMD_GET_CHARDEV, 0, -1, 1, "uverbs", EINVAL },
	};
	struct msgbuf m, in;
	struct reply r;
	uint64_t devt;
	unsigned int i;
	char name[32];

	for (i = 0; i < NDEV; i++) {
		msg_init(&m, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
		msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, i);
		msg_attr(&m, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs", 7);
		nl_send(fd, &m);
		one_reply(fd, &in, &r,
			  RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					   RDMA_NLDEV_CMD_GET_CHARDEV));
		snprintf(name, sizeof(name), "uverbs%u", i);
		CHECK(!strcmp(get_str(r.tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]),
			      name));
		CHECK_EQ(get_u64(r.tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]), 1);
		/* huge_encode_dev() of 231:(192 + i) */
		devt = get_u64(r.tb[RDMA_NLDEV_ATTR_CHARDEV]);
		CHECK_EQ((devt & 0xfff00) >> 8, 231);
		CHECK_EQ((devt & 0xff) | ((devt >> 12) & 0xfff00), 192 + i);
		/* mlx5 binds by modalias, not by driver id */
		CHECK(!r.tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]);
	}

	check_refusals(fd, chardev_refusals, sizeof(chardev_refusals) /
					     sizeof(chardev_refusals[0]));

	/* SYS_GET: copy-on-fork is reported */
	msg_init(&m, RDMA_NLDEV_CMD_SYS_GET, 0);
	nl_send(fd, &m);
	one_reply(fd, &in, &r,
		  RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET));
	CHECK_EQ(get_u8(r.tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]), 1);
}

/* what the kernel answers to what it cannot use */
static void test_bad(int fd)
{
	static const struct refusal missing[] = {
		{ "no such device", RDMA_NLDEV_CMD_GET, 0, NDEV, -1, NULL,
		  EINVAL },
		{ "no such port", RDMA_NLDEV_CMD_PORT_GET, 0, 0, 2, NULL,
		  EINVAL },
		{ "missing index", RDMA_NLDEV_CMD_GET, 0, -1, -1, NULL,
		  EINVAL },
	}, unknown[] = {
		{ "no dump for GET_CHARDEV", RDMA_NLDEV_CMD_GET_CHARDEV,
		  NLM_F_DUMP, -1, -1, NULL, EINVAL },
		{ "ops past the table", RDMA_NLDEV_NUM_OPS, 0, -1, -1, NULL,
		  EINVAL },
		{ "a hole in the table", 8, 0, -1, -1, NULL, EINVAL },
	}, res_get = {
		"resource tracking", RDMA_NLDEV_CMD_RES_GET, 0, 0, -1, NULL,
		EOPNOTSUPP,
	};
	struct msgbuf m, in;
	uint16_t shortv = 1;
	struct nlmsghdr h;
	int one = 1;

	check_refusals(fd, missing, sizeof(missing) / sizeof(missing[0]));
	/* a u32 attribute two bytes long breaks the policy */
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	msg_attr(&m, RDMA_NLDEV_ATTR_DEV_INDEX, &shortv, sizeof(shortv));
	nl_send(fd, &m);
	CHECK_EQ(error_reply(fd, &in, false), -EINVAL);
	/* a dump whose handler fails says so in NLMSG_DONE, with no ack */
	msg_init(&m, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP | NLM_F_ACK);
	nl_send(fd, &m);
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type, NLMSG_DONE);
	CHECK_EQ(*(int *)NLMSG_DATA((struct nlmsghdr *)in.data), -EINVAL);
	CHECK_EQ(nl_recv(fd, &in), 0);
	check_refusals(fd, unknown, sizeof(unknown) / sizeof(unknown[0]));
	/* another client: EINVAL */
	msg_init(&m, 0, 0);
	h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS, 1);
	memcpy(m.data + offsetof(struct nlmsghdr, nlmsg_type),
	       &h.nlmsg_type, sizeof(h.nlmsg_type));
	nl_send(fd, &m);
	CHECK_EQ(error_reply(fd, &in, false), -EINVAL);
	/* resource tracking is not modelled */
	check_refusals(fd, &res_get, 1);
	/* not a request: only acknowledged if asked */
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	((struct nlmsghdr *)m.data)->nlmsg_flags = NLM_F_ACK;
	nl_send(fd, &m);
	CHECK_EQ(error_reply(fd, &in, true), 0);
	/* a header longer than the datagram: dropped without a word */
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_ACK);
	((struct nlmsghdr *)m.data)->nlmsg_len = 64;
	nl_send(fd, &m);
	CHECK_EQ(nl_recv(fd, &in), 0);
	REQUIRE(send(fd, m.data, 8, 0) == 8);
	CHECK_EQ(nl_recv(fd, &in), 0);
	/* two requests in one datagram: two answers, in order */
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, NDEV + 5);
	memcpy(m.data + m.len, m.data, m.len);
	((struct nlmsghdr *)(m.data + m.len))->nlmsg_seq = seq + 1;
	m.len *= 2;
	nl_send(fd, &m);
	CHECK_EQ(error_reply(fd, &in, false), -EINVAL);
	seq++;
	CHECK_EQ(error_reply(fd, &in, false), -EINVAL);
	/* NETLINK_CAP_ACK: errors without the request's payload */
	REQUIRE(setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
			   sizeof(one)) == 0);
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, NDEV);
	nl_send(fd, &m);
	CHECK_EQ(error_reply(fd, &in, true), -EINVAL);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_len,
		 NLMSG_LENGTH(sizeof(struct nlmsgerr)));
	one = 0;
	REQUIRE(setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
			   sizeof(one)) == 0);
	/* unknown SOL_NETLINK option */
	CHECK_ERRNO(setsockopt(fd, SOL_NETLINK, 999, &one, sizeof(one)),
		    ENOPROTOOPT);
}

static void test_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, fd2, v;
	socklen_t len = sizeof(v);
	struct msgbuf m;
	ssize_t n;

	CHECK_ERRNO(socket(AF_NETLINK, SOCK_STREAM, NETLINK_RDMA) < 0,
		    ESOCKTNOSUPPORT);
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_RDMA);
	REQUIRE(fd >= 0);
	REQUIRE(getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len) == 0);
	CHECK_EQ(v, NETLINK_RDMA);
	REQUIRE(getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) == 0);
	CHECK_EQ(v, AF_NETLINK);
	/* unbound: port id 0; sending binds it to the tgid */
	CHECK_EQ(portid_of(fd), 0);
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	nl_send(fd, &m);
	CHECK_EQ(portid_of(fd), (uint32_t)getpid());
	/* MSG_PEEK | MSG_TRUNC tells the size without taking it */
	n = recv(fd, m.data, 4, MSG_PEEK | MSG_TRUNC);
	CHECK(n > 4);
	CHECK_EQ(recv(fd, m.data, sizeof(m.data), 0), n);
	/* a second socket autobinds elsewhere; its port can't be taken */
	fd2 = socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA);
	REQUIRE(fd2 >= 0);
	sa.nl_pid = (uint32_t)getpid();
	CHECK_ERRNO(bind(fd2, (struct sockaddr *)&sa, sizeof(sa)),
		    EADDRINUSE);
	sa.nl_pid = 0;
	REQUIRE(bind(fd2, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CHECK(portid_of(fd2) != (uint32_t)getpid());
	/* rebinding elsewhere, a short address, another family */
	sa.nl_pid = 12345;
	CHECK_ERRNO(bind(fd2, (struct sockaddr *)&sa, sizeof(sa)), EINVAL);
	CHECK_ERRNO(bind(fd2, (struct sockaddr *)&sa, 4), EINVAL);
	/* to another user socket: nobody there */
	CHECK_ERRNO(sendto(fd2, m.data, m.len, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) < 0,
		    ECONNREFUSED);
	sa.nl_family = AF_INET;
	CHECK_ERRNO(sendto(fd2, m.data, m.len, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) < 0,
		    EINVAL);
	CHECK_EQ(close(fd2), 0);
	CHECK_EQ(close(fd), 0);
	/* plain sockets are untouched: no netlink options there */
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	REQUIRE(fd >= 0);
	CHECK(setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &v, sizeof(v)));
	len = sizeof(v);
	REQUIRE(getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) == 0);
	CHECK_EQ(v, AF_UNIX);
	close(fd);
}

/*
 * netlink_ack(): NLM_F_CAPPED only where the request's payload is left
 * out (a success, or NETLINK_CAP_ACK); an error for a bare header
 * carries that header as its whole payload, uncapped.
 */
static void test_capped(int fd)
{
	const struct nlmsgerr *e;
	const struct nlmsghdr *h;
	struct msgbuf m, in;

	/* GET without an index: EINVAL, for a request with no attributes */
	msg_init(&m, RDMA_NLDEV_CMD_GET, 0);
	nl_send(fd, &m);
	REQUIRE(nl_recv(fd, &in) > 0);
	h = (const struct nlmsghdr *)in.data;
	e = (const struct nlmsgerr *)NLMSG_DATA(h);
	CHECK_EQ(h->nlmsg_type, NLMSG_ERROR);
	CHECK_EQ(e->error, -EINVAL);
	CHECK_EQ(h->nlmsg_flags & NLM_F_CAPPED, 0);
	CHECK_EQ(h->nlmsg_len, NLMSG_LENGTH(sizeof(*e)));
	CHECK_EQ(e->msg.nlmsg_len, NLMSG_HDRLEN);
	/* a success asked for: the answer, then a capped ack */
	msg_init(&m, RDMA_NLDEV_CMD_SYS_GET, NLM_F_ACK);
	nl_send(fd, &m);
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type,
		 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET));
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(h->nlmsg_type, NLMSG_ERROR);
	CHECK_EQ(e->error, 0);
	CHECK(h->nlmsg_flags & NLM_F_CAPPED);
	CHECK_EQ(nl_recv(fd, &in), 0);
}

/*
 * Reads everything queued: how many device records, NLMSG_DONEs and
 * error acks (their errno in *err) came.
 */
static void drain(int fd, int *records, int *dones, int *errors, int *err)
{
	struct msgbuf in;

	*records = *dones = *errors = 0;
	while (nl_recv(fd, &in) > 0) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)in.data;
		int left = (int)in.len;

		for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				(*dones)++;
			} else if (h->nlmsg_type == NLMSG_ERROR) {
				(*errors)++;
				*err = ((const struct nlmsgerr *)
						NLMSG_DATA(h))->error;
			} else {
				(*records)++;
			}
		}
	}
}

/*
 * netlink_dump_start(): one dump at a time per socket.  A second dump
 * asked for before the first one's records are read gets EBUSY (an
 * error ack); once they are read, the next dump runs.  A dump that ends
 * at once (its handler failed) leaves nothing running.
 */
static void test_dump_busy(int fd)
{
	int records, dones, errors, err = 0;
	struct msgbuf m, in;

	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	/*
	 * In the kernel's order: the records, the refusal, and NLMSG_DONE
	 * only once the records are read.
	 */
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type,
		 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type, NLMSG_ERROR);
	CHECK_EQ(((struct nlmsgerr *)NLMSG_DATA(
			 (struct nlmsghdr *)in.data))->error, -EBUSY);
	REQUIRE(nl_recv(fd, &in) > 0);
	CHECK_EQ(((struct nlmsghdr *)in.data)->nlmsg_type, NLMSG_DONE);
	CHECK_EQ(nl_recv(fd, &in), 0);
	/* read: the next dump runs */
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	drain(fd, &records, &dones, &errors, &err);
	CHECK_EQ(records, NDEV);
	CHECK_EQ(dones, 1);
	CHECK_EQ(errors, 0);
	/* a dump that fails at once: the next one runs at once too */
	msg_init(&m, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	drain(fd, &records, &dones, &errors, &err);
	CHECK_EQ(records, NDEV);
	CHECK_EQ(dones, 2);
	CHECK_EQ(errors, 0);
	/* another socket's dump is its own */
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	nl_send(fd, &m);
	{
		int fd2 = nl_open();

		nl_send(fd2, &m);
		drain(fd2, &records, &dones, &errors, &err);
		CHECK_EQ(records, NDEV);
		CHECK_EQ(errors, 0);
		close(fd2);
	}
	drain(fd, &records, &dones, &errors, &err);
	CHECK_EQ(records, NDEV);
	CHECK_EQ(errors, 0);
}

/* the kernel has no per-process limit on netlink sockets of its own */
static void test_many_sockets(void)
{
	enum { MANY = 200 };
	int fds[MANY], i, records, dones, errors, err = 0;
	struct rlimit rl;
	struct msgbuf m;

	REQUIRE(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	if (rl.rlim_cur < MANY + 64) {
		printf("many sockets: RLIMIT_NOFILE %llu, not tried\n",
		       (unsigned long long)rl.rlim_cur);
		return;
	}
	for (i = 0; i < MANY; i++) {
		fds[i] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				NETLINK_RDMA);
		CHECK(fds[i] >= 0);
		if (fds[i] < 0)
			break;
	}
	msg_init(&m, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	if (i == MANY) {
		nl_send(fds[MANY - 1], &m);
		drain(fds[MANY - 1], &records, &dones, &errors, &err);
		CHECK_EQ(records, NDEV);
	}
	while (i--)
		close(fds[i]);
}

/* CAP_NET_ADMIN in the calling thread's effective set: capget() */
static bool caps(bool set, bool on)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	uint32_t bit = 1u << (CAP_NET_ADMIN % 32);

	memset(d, 0, sizeof(d));
	REQUIRE(syscall(SYS_capget, &h, d) == 0);
	if (!set)
		return d[CAP_NET_ADMIN / 32].effective & bit;
	if (on && !(d[CAP_NET_ADMIN / 32].permitted & bit))
		return false;
	if (on)
		d[CAP_NET_ADMIN / 32].effective |= bit;
	else
		d[CAP_NET_ADMIN / 32].effective &= ~bit;
	return syscall(SYS_capset, &h, d) == 0;
}

/* an administrative op (SET): EPERM without the capability */
static int admin_op(int fd)
{
	struct msgbuf m, in;

	msg_init(&m, RDMA_NLDEV_CMD_SET, 0);
	msg_u32(&m, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	nl_send(fd, &m);
	return error_reply(fd, &in, false);
}

/*
 * netlink_capable(CAP_NET_ADMIN): the capability, not the user id, of
 * both the socket's creator and the sender.  Root without it gets EPERM;
 * with it, the op goes on (and is not modelled: EOPNOTSUPP).
 */
static void test_cap_net_admin(void)
{
	int fd, fd2;

	if (!caps(false, false)) {
		fd = nl_open();
		CHECK_EQ(admin_op(fd), -EPERM);
		close(fd);
		printf("cap_net_admin: not held, only EPERM tried\n");
		return;
	}
	fd = nl_open();
	CHECK_EQ(admin_op(fd), -EOPNOTSUPP);
	REQUIRE(caps(true, false));
	CHECK(!caps(false, false));
	/* still uid 0, without the capability */
	CHECK_EQ(admin_op(fd), -EPERM);
	fd2 = nl_open();
	REQUIRE(caps(true, true));
	/* a socket made without it stays without it */
	CHECK_EQ(admin_op(fd2), -EPERM);
	CHECK_EQ(admin_op(fd), -EOPNOTSUPP);
	close(fd2);
	close(fd);
}

int main(void)
{
	struct ibv_device **list;
	int fd, n;

	emu_require("netlink");
	if (getenv("MLX5_EMU_NETLINK") && !strcmp(getenv("MLX5_EMU_NETLINK"),
						  "0")) {
		/* mlx5-emu run --no-netlink: a kernel without it */
		CHECK_ERRNO(socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA) < 0,
			    EPROTONOSUPPORT);
		return check_done("netlink refused");
	}
	list = ibv_get_device_list(&n);
	REQUIRE(list);
	REQUIRE(n == NDEV);
	fd = nl_open();
	test_dev_dump(fd, list);
	test_doit(fd, list);
	test_chardev(fd);
	test_bad(fd);
	test_capped(fd);
	test_dump_busy(fd);
	close(fd);
	test_socket();
	test_many_sockets();
	test_cap_net_admin();
	ibv_free_device_list(list);
	return check_done("netlink");
}
