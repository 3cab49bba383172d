// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA netlink's NLDEV client for the emulated devices, after
 * drivers/infiniband/core/netlink.c (rdma_nl_rcv_skb, rdma_nl_rcv_msg)
 * and nldev.c (the GET, PORT_GET, GET_CHARDEV and SYS_GET handlers).
 * The answers carry the facts of emu_ibdev.h, the ones the generated
 * sysfs shows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "emu_ibdev.h"
#include "nldev.h"

/* RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE, IB_DEVICE_NAME_MAX - 1, IFNAMSIZ */
#define CHARDEV_TYPE_SIZE 16
#define DEV_NAME_MAX 63
#define IFNAMSIZ_ 16

/* the nla_policy types nldev_policy uses */
enum pol {
	P_ANY,		/* NLA_UNSPEC: no check */
	P_U8,
	P_U32,
	P_U64,
	P_STR,		/* NLA_NUL_STRING, len: longest string */
	P_NESTED,
};

struct policy {
	uint8_t type;
	uint8_t len;
};

/* nldev_policy: how the kernel validates each attribute it is sent */
static const struct policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { P_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { P_STR, DEV_NAME_MAX },
	[RDMA_NLDEV_ATTR_PORT_INDEX] = { P_U32 },
	[RDMA_NLDEV_ATTR_CAP_FLAGS] = { P_U64 },
	[RDMA_NLDEV_ATTR_FW_VERSION] = { P_STR, DEV_NAME_MAX },
	[RDMA_NLDEV_ATTR_NODE_GUID] = { P_U64 },
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = { P_U64 },
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX] = { P_U64 },
	[RDMA_NLDEV_ATTR_LID] = { P_U32 },
	[RDMA_NLDEV_ATTR_SM_LID] = { P_U32 },
	[RDMA_NLDEV_ATTR_LMC] = { P_U8 },
	[RDMA_NLDEV_ATTR_PORT_STATE] = { P_U8 },
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = { P_U8 },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_SUMMARY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME] = { P_STR, 1 },
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = { P_U64 },
	[RDMA_NLDEV_ATTR_RES_QP] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_LQPN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_RQPN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_TYPE] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_STATE] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_PID] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = { P_STR, 1 },
	[RDMA_NLDEV_ATTR_RES_CM_ID] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_PS] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_CQ] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_CQE] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_USECNT] = { P_U64 },
	[RDMA_NLDEV_ATTR_RES_POLL_CTX] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_MR] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_RKEY] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_LKEY] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_IOVA] = { P_U64 },
	[RDMA_NLDEV_ATTR_RES_MRLEN] = { P_U64 },
	[RDMA_NLDEV_ATTR_RES_PD] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY] = { P_U32 },
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = { P_U32 },
	[RDMA_NLDEV_ATTR_NDEV_NAME] = { P_STR, IFNAMSIZ_ - 1 },
	[RDMA_NLDEV_ATTR_DRIVER] = { P_NESTED },
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_DRIVER_STRING] = { P_STR, 1 },
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE] = { P_U8 },
	[RDMA_NLDEV_ATTR_DRIVER_S32] = { P_U32 },
	[RDMA_NLDEV_ATTR_DRIVER_U32] = { P_U32 },
	[RDMA_NLDEV_ATTR_DRIVER_S64] = { P_U64 },
	[RDMA_NLDEV_ATTR_DRIVER_U64] = { P_U64 },
	[RDMA_NLDEV_ATTR_RES_PDN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_CQN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_MRN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = { P_U32 },
	[RDMA_NLDEV_ATTR_RES_CTXN] = { P_U32 },
	[RDMA_NLDEV_ATTR_LINK_TYPE] = { P_STR, IFNAMSIZ_ },
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = { P_U8 },
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL] = { P_STR, 1 },
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE] = { P_STR, CHARDEV_TYPE_SIZE },
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = { P_STR, 1 },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = { P_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV] = { P_U64 },
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_MODE] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_RES] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_COUNTER] = { P_NESTED },
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = { P_NESTED },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = { P_U64 },
	[RDMA_NLDEV_ATTR_DEV_DIM] = { P_U8 },
	[RDMA_NLDEV_ATTR_RES_CTX] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQ] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY] = { P_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQN] = { P_U32 },
	[RDMA_NLDEV_ATTR_MIN_RANGE] = { P_U32 },
	[RDMA_NLDEV_ATTR_MAX_RANGE] = { P_U32 },
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = { P_U8 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX] = { P_U32 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = { P_U8 },
};

/* What nldev_cb_table has for each op. */
enum op_kind {
	OP_NONE,	/* no handler: rdma_nl_rcv_msg() keeps -EINVAL */
	OP_MODEL,	/* answered here */
	OP_UNMODELLED,	/* the kernel has it, the model does not */
};

struct op {
	uint8_t kind;
	bool admin;	/* RDMA_NL_ADMIN_PERM */
	bool dump;	/* has a .dump */
};

static const struct op nldev_ops[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = { OP_MODEL, false, true },
	[RDMA_NLDEV_CMD_SET] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_NEWLINK] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_DELLINK] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_PORT_GET] = { OP_MODEL, false, true },
	[RDMA_NLDEV_CMD_SYS_GET] = { OP_MODEL, false, false },
	[RDMA_NLDEV_CMD_SYS_SET] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_RES_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_QP_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_CQ_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_MR_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_PD_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_GET_CHARDEV] = { OP_MODEL, false, false },
	[RDMA_NLDEV_CMD_STAT_SET] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_STAT_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_STAT_DEL] = { OP_UNMODELLED, true, false },
	[RDMA_NLDEV_CMD_RES_QP_GET_RAW] = { OP_UNMODELLED, true, true },
	[RDMA_NLDEV_CMD_RES_CQ_GET_RAW] = { OP_UNMODELLED, true, true },
	[RDMA_NLDEV_CMD_RES_MR_GET_RAW] = { OP_UNMODELLED, true, true },
	[RDMA_NLDEV_CMD_RES_CTX_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_RES_SRQ_GET] = { OP_UNMODELLED, false, true },
	[RDMA_NLDEV_CMD_STAT_GET_STATUS] = { OP_UNMODELLED, false, true },
};

/* A reply being built: at most EMU_NL_GOODSIZE bytes, like one skb. */
struct nlbuf {
	uint8_t data[EMU_NL_GOODSIZE] __attribute__((aligned(8)));
	size_t len;
	size_t msg;	/* where the message being built starts */
};

struct req {
	const struct nlmsghdr *nlh;	/* the request, in the datagram */
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	const struct emu_nl_sender *s;
};

static int msg_start(struct nlbuf *b, const struct req *r, uint16_t type,
		     uint16_t flags)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = type,
		.nlmsg_flags = flags,
		.nlmsg_seq = r->nlh->nlmsg_seq,
		.nlmsg_pid = r->s->portid,
	};

	if (b->len + NLMSG_HDRLEN > sizeof(b->data))
		return -EMSGSIZE;
	b->msg = b->len;
	memcpy(b->data + b->len, &h, sizeof(h));
	b->len += NLMSG_HDRLEN;
	return 0;
}

static void msg_end(struct nlbuf *b)
{
	uint32_t len = (uint32_t)(b->len - b->msg);

	memcpy(b->data + b->msg, &len, sizeof(len));
}

/* nlmsg_cancel() */
static void msg_cancel(struct nlbuf *b)
{
	b->len = b->msg;
}

static int put(struct nlbuf *b, uint16_t type, const void *data,
	       size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len),
			    .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + len);

	if (b->len + total > sizeof(b->data))
		return -EMSGSIZE;
	memset(b->data + b->len, 0, total);
	memcpy(b->data + b->len, &a, sizeof(a));
	memcpy(b->data + b->len + NLA_HDRLEN, data, len);
	b->len += total;
	return 0;
}

static int put_u8(struct nlbuf *b, uint16_t type, uint8_t v)
{
	return put(b, type, &v, sizeof(v));
}

static int put_u32(struct nlbuf *b, uint16_t type, uint32_t v)
{
	return put(b, type, &v, sizeof(v));
}

/* nla_put_u64_64bit(): no pad attribute where unaligned access is cheap */
static int put_u64(struct nlbuf *b, uint16_t type, uint64_t v)
{
	return put(b, type, &v, sizeof(v));
}

static int put_str(struct nlbuf *b, uint16_t type, const char *s)
{
	return put(b, type, s, strlen(s) + 1);
}

static int emit(const struct req *r, struct nlbuf *b)
{
	return r->s->emit(r->s->arg, b->data, b->len);
}

static uint32_t attr_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

/* validate_nla() for the policy types above: 0, -ERANGE or -EINVAL */
static int validate(const struct policy *p, const uint8_t *data,
		    size_t len)
{
	static const uint8_t minlen[] = {
		[P_U8] = 1, [P_U32] = 4, [P_U64] = 8,
	};
	size_t n;

	switch (p->type) {
	case P_U8:
	case P_U32:
	case P_U64:
		/* longer is only warned about without strict validation */
		return len < minlen[p->type] ? -ERANGE : 0;
	case P_STR:
		n = len < (size_t)p->len + 1 ? len : (size_t)p->len + 1;
		if (!n || !memchr(data, 0, n))
			return -EINVAL;
		if (!data[len - 1])
			len--;
		return len > p->len ? -ERANGE : 0;
	default:
		return 0;
	}
}

/*
 * __nla_parse() as nlmsg_parse() calls it (liberal): attributes are read
 * until one does not fit; unknown types are skipped; a known one that
 * breaks its policy fails the whole message.
 */
static int parse(struct req *r)
{
	const uint8_t *p = (const uint8_t *)r->nlh + NLMSG_HDRLEN;
	long rem = (long)r->nlh->nlmsg_len - NLMSG_HDRLEN;

	memset(r->tb, 0, sizeof(r->tb));
	while (rem >= (long)NLA_HDRLEN) {
		struct nlattr a;
		uint16_t type;
		int err;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > rem)
			break;
		type = a.nla_type & NLA_TYPE_MASK;
		if (type && type < RDMA_NLDEV_ATTR_MAX) {
			err = validate(&nldev_policy[type], p + NLA_HDRLEN,
				       a.nla_len - NLA_HDRLEN);
			if (err)
				return err;
			r->tb[type] = (const struct nlattr *)p;
		}
		p += NLA_ALIGN(a.nla_len);
		rem -= NLA_ALIGN(a.nla_len);
	}
	return 0;
}

/* ib_device_get_by_index(): the device index, or -1 */
static int get_dev(const struct req *r)
{
	uint32_t index;

	if (!r->tb[RDMA_NLDEV_ATTR_DEV_INDEX])
		return -1;
	index = attr_u32(r->tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	return index < r->s->ndev ? (int)index : -1;
}

/* fill_nldev_handle() */
static int fill_handle(struct nlbuf *b, unsigned int dev)
{
	char name[32];

	emu_ibdev_name(dev, name, sizeof(name));
	if (put_u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, dev) ||
	    put_str(b, RDMA_NLDEV_ATTR_DEV_NAME, name))
		return -EMSGSIZE;
	return 0;
}

/* fill_dev_info() */
static int fill_dev_info(struct nlbuf *b, unsigned int dev)
{
	char fw[64];

	emu_ibdev_fw_str(fw, sizeof(fw));
	if (fill_handle(b, dev) ||
	    put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, EMU_NUM_PORTS) ||
	    put_u64(b, RDMA_NLDEV_ATTR_CAP_FLAGS, EMU_DEVICE_CAP_FLAGS) ||
	    put_str(b, RDMA_NLDEV_ATTR_FW_VERSION, fw) ||
	    put_u64(b, RDMA_NLDEV_ATTR_NODE_GUID, emu_device_guid(dev)) ||
	    put_u64(b, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, emu_device_guid(dev)) ||
	    put_u8(b, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, EMU_NODE_TYPE_CA) ||
	    /* mlx5_ib_stage_caps_init(): use_cq_dim */
	    put_u8(b, RDMA_NLDEV_ATTR_DEV_DIM, 1))
		return -EMSGSIZE;
	/* the link type of the first port */
	return put_str(b, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "ib");
}

/* fill_port_info(): an IB port has no netdev to report */
static int fill_port_info(struct nlbuf *b, unsigned int dev,
			  unsigned int port)
{
	struct emu_port_facts p;

	if (fill_handle(b, dev) ||
	    put_u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	if (emu_ibdev_port(dev, port, &p))
		return -EINVAL;
	if (put_u64(b, RDMA_NLDEV_ATTR_CAP_FLAGS, p.cap_flags) ||
	    put_u64(b, RDMA_NLDEV_ATTR_SUBNET_PREFIX, p.subnet_prefix) ||
	    put_u32(b, RDMA_NLDEV_ATTR_LID, p.lid) ||
	    put_u32(b, RDMA_NLDEV_ATTR_SM_LID, p.sm_lid) ||
	    put_u8(b, RDMA_NLDEV_ATTR_LMC, p.lmc) ||
	    put_u8(b, RDMA_NLDEV_ATTR_PORT_STATE, p.state) ||
	    put_u8(b, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, p.phys_state))
		return -EMSGSIZE;
	return 0;
}

static int send_one(const struct req *r, uint16_t cmd,
		    int (*fill)(struct nlbuf *, unsigned int, unsigned int),
		    unsigned int dev, unsigned int port)
{
	struct nlbuf *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return -ENOMEM;
	ret = msg_start(b, r, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0);
	if (!ret)
		ret = fill(b, dev, port);
	if (!ret) {
		msg_end(b);
		ret = emit(r, b);
	}
	free(b);
	return ret;
}

static int fill_dev_info_port(struct nlbuf *b, unsigned int dev,
			      unsigned int port)
{
	(void)port;
	return fill_dev_info(b, dev);
}

/* nldev_get_doit() */
static int get_doit(struct req *r)
{
	int dev;

	if (parse(r))
		return -EINVAL;
	dev = get_dev(r);
	if (dev < 0)
		return -EINVAL;
	return send_one(r, RDMA_NLDEV_CMD_GET, fill_dev_info_port, dev, 0);
}

/* nldev_port_get_doit(): the reply's type is CMD_GET, as the kernel's */
static int port_get_doit(struct req *r)
{
	uint32_t port;
	int dev;

	if (parse(r) || !r->tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EINVAL;
	dev = get_dev(r);
	if (dev < 0)
		return -EINVAL;
	port = attr_u32(r->tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (port < 1 || port > EMU_NUM_PORTS)
		return -EINVAL;
	return send_one(r, RDMA_NLDEV_CMD_GET, fill_port_info, dev, port);
}

/*
 * A dump: the records as netlink_dump() packs them, one datagram while
 * they fit, then NLMSG_DONE carrying the dump's status on its own.
 */
struct dump {
	struct nlbuf b;
	struct req *r;
	uint16_t type;
	int err;
	unsigned int parts;	/* record datagrams emitted */
};

static void dump_add(struct dump *d,
		     int (*fill)(struct nlbuf *, unsigned int, unsigned int),
		     unsigned int dev, unsigned int port)
{
	if (d->err)
		return;
	d->err = msg_start(&d->b, d->r, d->type, NLM_F_MULTI);
	if (!d->err)
		d->err = fill(&d->b, dev, port);
	if (d->err == -EMSGSIZE && d->b.msg) {
		/* full: this datagram goes, the record starts the next */
		msg_cancel(&d->b);
		d->err = emit(d->r, &d->b);
		d->parts++;
		d->b.len = 0;
		if (!d->err)
			d->err = msg_start(&d->b, d->r, d->type, NLM_F_MULTI);
		if (!d->err)
			d->err = fill(&d->b, dev, port);
	}
	if (d->err)
		msg_cancel(&d->b);
	else
		msg_end(&d->b);
}

/* netlink_dump_done(): the status is the int after the header */
static int dump_done(struct dump *d, int status)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_LENGTH(sizeof(int)),
		.nlmsg_type = NLMSG_DONE,
		.nlmsg_flags = NLM_F_MULTI,
		.nlmsg_seq = d->r->nlh->nlmsg_seq,
		.nlmsg_pid = d->r->s->portid,
	};
	int ret = 0;

	if (d->b.len) {
		ret = emit(d->r, &d->b);
		d->parts++;
	}
	d->b.len = 0;
	if (d->r->s->dump_started)
		d->r->s->dump_started(d->r->s->arg, d->parts);
	if (ret)
		return ret;
	memcpy(d->b.data, &h, sizeof(h));
	memcpy(d->b.data + NLMSG_HDRLEN, &status, sizeof(status));
	d->b.len = NLMSG_ALIGN(h.nlmsg_len);
	return emit(d->r, &d->b);
}

/* nldev_get_dumpit(): every device, no attribute looked at */
static int get_dumpit(struct dump *d)
{
	unsigned int dev;

	d->type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	for (dev = 0; dev < d->r->s->ndev; dev++)
		dump_add(d, fill_dev_info_port, dev, 0);
	return 0;
}

/* nldev_port_get_dumpit(): every port of the device asked for */
static int port_get_dumpit(struct dump *d)
{
	struct req *r = d->r;
	unsigned int port;
	int dev;

	if (parse(r))
		return -EINVAL;
	dev = get_dev(r);
	if (dev < 0)
		return -EINVAL;
	d->type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET);
	for (port = 1; port <= EMU_NUM_PORTS; port++)
		dump_add(d, fill_port_info, dev, port);
	return 0;
}

/*
 * netlink_dump_start(): a socket runs one dump at a time (EBUSY while
 * one runs, acknowledged as any error); the dump's own errors travel in
 * NLMSG_DONE, and no acknowledgement follows (-EINTR to
 * rdma_nl_rcv_skb()).  The kernel queues the first datagram of records
 * at once and each next one, then NLMSG_DONE, as the reader takes the
 * one before: the dump runs until its last record datagram is read.
 * Here the records are queued at once and the socket, told before
 * NLMSG_DONE is emitted (dump_started), counts the reads and holds
 * NLMSG_DONE back until then.
 */
static int run_dump(struct req *r, int (*dumpit)(struct dump *))
{
	struct dump *d;
	int status;

	if (r->s->dump_running && r->s->dump_running(r->s->arg))
		return -EBUSY;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->r = r;
	status = dumpit(d);
	if (!status && d->err && d->err != -EMSGSIZE)
		status = d->err;
	dump_done(d, status);
	free(d);
	return -EINTR;
}

/* ib_uverbs_get_nl_info() for mlx5: no driver id, per device only */
static int fill_uverbs_chardev(struct nlbuf *b, unsigned int dev,
			       unsigned int port)
{
	unsigned int minor = EMU_UVERBS_MINOR_BASE + dev;
	/* huge_encode_dev() */
	uint64_t devt = (minor & 0xff) | ((uint64_t)EMU_UVERBS_MAJOR << 8) |
			((uint64_t)(minor & ~0xffu) << 12);
	char name[32];

	(void)port;
	emu_ibdev_uverbs_name(dev, name, sizeof(name));
	if (put_u64(b, RDMA_NLDEV_ATTR_CHARDEV, devt) ||
	    put_u64(b, RDMA_NLDEV_ATTR_CHARDEV_ABI, EMU_UVERBS_ABI) ||
	    put_str(b, RDMA_NLDEV_ATTR_CHARDEV_NAME, name))
		return -EMSGSIZE;
	return 0;
}

/*
 * nldev_get_chardev(): the only client of the emulated kernel with a
 * char device is uverbs, which answers per device and not per port;
 * ib_get_client_nl_info() turns an unknown client into EOPNOTSUPP.
 */
static int get_chardev(struct req *r)
{
	const struct nlattr *t;
	bool has_port;
	char type[CHARDEV_TYPE_SIZE];
	size_t n;
	int dev = -1;

	if (parse(r) || !r->tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE])
		return -EINVAL;
	t = r->tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE];
	/* nla_strscpy() */
	memset(type, 0, sizeof(type));
	n = (size_t)t->nla_len - NLA_HDRLEN;
	memcpy(type, (const uint8_t *)t + NLA_HDRLEN,
	       n < sizeof(type) - 1 ? n : sizeof(type) - 1);
	has_port = r->tb[RDMA_NLDEV_ATTR_PORT_INDEX];
	if (r->tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		dev = get_dev(r);
		if (dev < 0)
			return -EINVAL;
		if (has_port) {
			uint32_t port =
				attr_u32(r->tb[RDMA_NLDEV_ATTR_PORT_INDEX]);

			if (port < 1 || port > EMU_NUM_PORTS)
				return -EINVAL;
		}
	} else if (has_port) {
		return -EINVAL;
	}
	if (strcmp(type, "uverbs") || dev < 0)
		return -EOPNOTSUPP;
	/* ib_uverbs_get_nl_info(): a port is not a uverbs thing */
	if (has_port)
		return -EINVAL;
	return send_one(r, RDMA_NLDEV_CMD_GET_CHARDEV, fill_uverbs_chardev,
			dev, 0);
}

static int fill_sys(struct nlbuf *b, unsigned int dev, unsigned int port)
{
	(void)dev;
	(void)port;
	/* shared network namespaces (the default); copy-on-fork is there */
	if (put_u8(b, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1) ||
	    put_u8(b, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1))
		return -EMSGSIZE;
	return 0;
}

/* nldev_sys_get_doit() */
static int sys_get(struct req *r)
{
	int ret = parse(r);

	if (ret)
		return ret;
	return send_one(r, RDMA_NLDEV_CMD_SYS_GET, fill_sys, 0, 0);
}

/* rdma_nl_rcv_msg() */
static int rcv_msg(struct req *r)
{
	uint16_t type = r->nlh->nlmsg_type;
	unsigned int client = RDMA_NL_GET_CLIENT(type);
	unsigned int op = RDMA_NL_GET_OP(type);
	const struct op *o;
	bool dump = r->nlh->nlmsg_flags & NLM_F_DUMP;

	/* is_nl_msg_valid(), and no other client in the emulated kernel */
	if (client != RDMA_NL_NLDEV || op >= RDMA_NLDEV_NUM_OPS)
		return -EINVAL;
	o = &nldev_ops[op];
	if (o->kind == OP_NONE)
		return -EINVAL;
	if (o->admin && !r->s->net_admin)
		return -EPERM;
	if (dump && !o->dump)
		return -EINVAL;
	if (o->kind == OP_UNMODELLED)
		return -EOPNOTSUPP;
	switch (op) {
	case RDMA_NLDEV_CMD_GET:
		return dump ? run_dump(r, get_dumpit) : get_doit(r);
	case RDMA_NLDEV_CMD_PORT_GET:
		return dump ? run_dump(r, port_get_dumpit) : port_get_doit(r);
	case RDMA_NLDEV_CMD_GET_CHARDEV:
		return get_chardev(r);
	case RDMA_NLDEV_CMD_SYS_GET:
		return sys_get(r);
	}
	return -EINVAL;
}

/*
 * netlink_ack(): NLMSG_ERROR with the errno and the request's header,
 * and its whole payload (none for a bare header) when it failed unless
 * NETLINK_CAP_ACK is set; NLM_F_CAPPED says the payload was left out,
 * which every success and every capped error is, whatever its length.
 */
static void ack(const struct req *r, int err)
{
	const struct nlmsghdr *in = r->nlh;
	bool whole = err && !r->s->cap_ack;
	size_t copy = whole ? (size_t)in->nlmsg_len : sizeof(*in);
	size_t len = NLMSG_LENGTH(sizeof(int) + copy);
	struct nlmsghdr h = {
		.nlmsg_len = (uint32_t)len,
		.nlmsg_type = NLMSG_ERROR,
		.nlmsg_flags = whole ? 0 : NLM_F_CAPPED,
		.nlmsg_seq = in->nlmsg_seq,
		.nlmsg_pid = r->s->portid,
	};
	uint8_t *buf = calloc(1, NLMSG_ALIGN(len));

	if (!buf)
		return;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &err, sizeof(err));
	memcpy(buf + NLMSG_HDRLEN + sizeof(int), in, copy);
	r->s->emit(r->s->arg, buf, NLMSG_ALIGN(len));
	free(buf);
}

/* rdma_nl_rcv_skb() */
void emu_nldev_rcv(const void *buf, size_t len, const struct emu_nl_sender *s)
{
	const uint8_t *p = buf;
	struct req *r = calloc(1, sizeof(*r));

	if (!r)
		return;
	r->s = s;
	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		size_t msglen;
		int err = 0;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || len < h.nlmsg_len)
			break;
		r->nlh = (const struct nlmsghdr *)p;
		/* only requests are handled; control messages are skipped */
		if ((h.nlmsg_flags & NLM_F_REQUEST) &&
		    h.nlmsg_type >= NLMSG_MIN_TYPE)
			err = rcv_msg(r);
		if (err != -EINTR && ((h.nlmsg_flags & NLM_F_ACK) || err))
			ack(r, err);
		msglen = NLMSG_ALIGN(h.nlmsg_len);
		if (msglen > len)
			msglen = len;
		p += msglen;
		len -= msglen;
	}
	free(r);
}
