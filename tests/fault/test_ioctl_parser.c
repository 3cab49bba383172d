// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The emulated kernel's ioctl parser against malformed RDMA_VERBS_IOCTL
 * calls, table-driven: each row breaks one rule of the kernel's
 * drivers/infiniband/core/uverbs_ioctl.c (and the INFO_HANDLES handler of
 * uverbs_std_types_device.c, and the uobject lookup of rdma_core.c) and
 * expects the errno the kernel gives for it.  After every row, and at the
 * end, a well-formed call still works: the daemon keeps serving.
 *
 * The kernel's rules, in its order:
 *   ioctl number other than RDMA_VERBS_IOCTL          ENOTTY (ENOIOCTLCMD)
 *   header not readable                               EFAULT
 *   length > PAGE_SIZE or != header + num_attrs attrs EINVAL
 *   reserved1 or reserved2 non-zero                   EPROTONOSUPPORT
 *   driver_id not the device's                        EINVAL
 *   unknown object or method                          EPROTONOSUPPORT
 *   attribute array not readable                      EFAULT
 *   unknown attribute flagged mandatory               EPROTONOSUPPORT
 *   (unknown attribute not flagged: ignored)
 *   attribute given twice                             EINVAL
 *   pointer attr: len out of bounds, reserved != 0    EINVAL
 *   copy-in data not readable                         EFAULT
 *   idr attr: len != 0 or reserved != 0              EINVAL
 *   idr attr: handle not in the ufile                 ENOENT
 *   idr attr: negative handle                         EINVAL
 *   mandatory attribute missing                       EINVAL
 * and INFO_HANDLES' own: no (or a ragged) list         EINVAL; a const
 * out of u16 range EINVAL; an unknown object type ENOENT; a list that
 * cannot be written EFAULT; and DEVX_OBJ_QUERY's (mlx5 devx.c, which
 * takes a handle of any type): a handle whose object is not the one the
 * command names (here a verbs PD) EINVAL.
 */
#include <endian.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>

#include "check.h"
#include "e2e.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define NAME "fault_ioctl_parser"

enum { MAX_ATTRS = 8, HDR = sizeof(struct ib_uverbs_ioctl_hdr) };

/* What each row does to a well-formed INFO_HANDLES call. */
enum breakage {
	OK_BASELINE,
	BAD_IOCTL_NUMBER,
	HDR_NULL,
	HDR_UNMAPPED,
	LENGTH_PLUS_ONE,
	LENGTH_MINUS_ATTR,
	LENGTH_OVER_PAGE,
	RESERVED1,
	RESERVED2,
	DRIVER_ID,
	UNKNOWN_OBJECT,
	UNKNOWN_METHOD,
	ATTRS_UNMAPPED,
	UNKNOWN_ATTR_MANDATORY,
	OK_UNKNOWN_ATTR_OPTIONAL,
	DUPLICATE_ATTR,
	PTR_RESERVED,
	TOTAL_TOO_LONG,
	TOTAL_TOO_SHORT,
	LIST_TOO_SHORT,
	LIST_RAGGED,
	LIST_MISSING,
	OBJECT_ID_MISSING,
	OBJECT_ID_OUT_OF_RANGE,
	OBJECT_ID_UNKNOWN,
	LIST_UNMAPPED,
	/* DEVX_OBJ_QUERY rows */
	OK_QUERY,
	QUERY_HANDLE_ABSENT,
	QUERY_HANDLE_OTHER_TYPE,
	QUERY_HANDLE_NEGATIVE,
	QUERY_IDR_LEN,
	QUERY_IDR_RESERVED,
	QUERY_CMD_IN_UNMAPPED,
	QUERY_CMD_IN_MISSING,
};

static const struct row {
	enum breakage what;
	const char *name;
	int want;	/* errno, 0 for success */
} rows[] = {
	{ OK_BASELINE, "well-formed INFO_HANDLES", 0 },
	{ BAD_IOCTL_NUMBER, "other ioctl number", ENOTTY },
	{ HDR_NULL, "header at NULL", EFAULT },
	{ HDR_UNMAPPED, "header in unmapped memory", EFAULT },
	{ LENGTH_PLUS_ONE, "length one byte long", EINVAL },
	{ LENGTH_MINUS_ATTR, "length one attribute short", EINVAL },
	{ LENGTH_OVER_PAGE, "num_attrs past a page", EINVAL },
	{ RESERVED1, "reserved1 set", EPROTONOSUPPORT },
	{ RESERVED2, "reserved2 set", EPROTONOSUPPORT },
	{ DRIVER_ID, "another driver_id", EINVAL },
	{ UNKNOWN_OBJECT, "unknown object id", EPROTONOSUPPORT },
	{ UNKNOWN_METHOD, "unknown method id", EPROTONOSUPPORT },
	{ ATTRS_UNMAPPED, "attributes in unmapped memory", EFAULT },
	{ UNKNOWN_ATTR_MANDATORY, "unknown mandatory attribute",
	  EPROTONOSUPPORT },
	{ OK_UNKNOWN_ATTR_OPTIONAL, "unknown optional attribute", 0 },
	{ DUPLICATE_ATTR, "attribute twice", EINVAL },
	{ PTR_RESERVED, "pointer attr reserved set", EINVAL },
	{ TOTAL_TOO_LONG, "u32 out attr of 8 bytes", EINVAL },
	{ TOTAL_TOO_SHORT, "u32 out attr of 2 bytes", EINVAL },
	{ LIST_TOO_SHORT, "list below its minimum", EINVAL },
	{ LIST_RAGGED, "list not a multiple of 4", EINVAL },
	{ LIST_MISSING, "no list", EINVAL },
	{ OBJECT_ID_MISSING, "mandatory const missing", EINVAL },
	{ OBJECT_ID_OUT_OF_RANGE, "u16 const of 0x10000", EINVAL },
	{ OBJECT_ID_UNKNOWN, "object type the device lacks", ENOENT },
	{ LIST_UNMAPPED, "list in unmapped memory", EFAULT },
	{ OK_QUERY, "well-formed DEVX_OBJ_QUERY", 0 },
	{ QUERY_HANDLE_ABSENT, "handle not in the ufile", ENOENT },
	{ QUERY_HANDLE_OTHER_TYPE, "handle of a verbs PD", EINVAL },
	{ QUERY_HANDLE_NEGATIVE, "negative handle", EINVAL },
	{ QUERY_IDR_LEN, "idr attr with a length", EINVAL },
	{ QUERY_IDR_RESERVED, "idr attr reserved set", EINVAL },
	{ QUERY_CMD_IN_UNMAPPED, "copy-in data unmapped", EFAULT },
	{ QUERY_CMD_IN_MISSING, "mandatory pointer missing", EINVAL },
};

/* A command: header then attributes, 8-byte aligned. */
union cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	uint8_t raw[HDR + MAX_ATTRS * sizeof(struct ib_uverbs_attr)];
	uint64_t align;
};

static struct ib_uverbs_attr *add_attr(union cmd *c, uint16_t id,
				       uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a = &c->hdr.attrs[c->hdr.num_attrs++];

	memset(a, 0, sizeof(*a));
	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	c->hdr.length = HDR + c->hdr.num_attrs * sizeof(*a);
	return a;
}

static void init_cmd(union cmd *c, uint16_t object, uint16_t method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_MLX5;
	c->hdr.length = HDR;
}

struct ctx_state {
	struct ibv_context *ctx;
	struct ibv_pd *pd;		/* a verbs object: another type */
	struct mlx5dv_devx_obj *fc;
	uint32_t fc_handle, fc_id;
	uint8_t *unmapped;		/* a page nothing is mapped at */
	uint8_t *edge;			/* the last bytes before it */
};

static uint32_t total;
static uint32_t list[64];
static uint8_t q_in[PRM_QUERY_FC_IN_LEN], q_out[PRM_QUERY_FC_IN_LEN];

/* The well-formed INFO_HANDLES call for DEVX objects. */
static void info_handles(union cmd *c)
{
	init_cmd(c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	add_attr(c, UVERBS_ATTR_INFO_OBJECT_ID, sizeof(uint64_t),
		 MLX5_IB_OBJECT_DEVX_OBJ);
	add_attr(c, UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(total),
		 (uintptr_t)&total);
	add_attr(c, UVERBS_ATTR_INFO_HANDLES_LIST, sizeof(list),
		 (uintptr_t)list);
}

/* The well-formed QUERY_FLOW_COUNTER through DEVX_OBJ_QUERY. */
static void devx_query(union cmd *c, const struct ctx_state *s)
{
	memset(q_in, 0, sizeof(q_in));
	prm_set(q_in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(q_in, PRM_QUERY_FC_ID, s->fc_id);
	init_cmd(c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_QUERY);
	add_attr(c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, 0, s->fc_handle);
	add_attr(c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, sizeof(q_in),
		 (uintptr_t)q_in);
	add_attr(c, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, sizeof(q_out),
		 (uintptr_t)q_out);
}

static int do_ioctl(int fd, unsigned long nr, void *arg)
{
	errno = 0;
	return ioctl(fd, nr, arg) ? errno : 0;
}

/* Builds the row's call, runs it, returns 0 or its errno. */
static int run_row(const struct ctx_state *s, enum breakage what)
{
	int fd = s->ctx->cmd_fd;
	struct ib_uverbs_ioctl_hdr *at_edge;
	union cmd c;

	if (what >= OK_QUERY)
		devx_query(&c, s);
	else
		info_handles(&c);

	switch (what) {
	case OK_BASELINE:
	case OK_QUERY:
		break;
	case BAD_IOCTL_NUMBER:
		return do_ioctl(fd, _IOWR(RDMA_IOCTL_MAGIC, 0x7f,
					  struct ib_uverbs_ioctl_hdr), &c);
	case HDR_NULL:
		return do_ioctl(fd, RDMA_VERBS_IOCTL, NULL);
	case HDR_UNMAPPED:
		return do_ioctl(fd, RDMA_VERBS_IOCTL, s->unmapped);
	case LENGTH_PLUS_ONE:
		c.hdr.length++;
		break;
	case LENGTH_MINUS_ATTR:
		c.hdr.length -= sizeof(struct ib_uverbs_attr);
		break;
	case LENGTH_OVER_PAGE:
		c.hdr.num_attrs = 300;
		c.hdr.length = HDR + 300 * sizeof(struct ib_uverbs_attr);
		break;
	case RESERVED1:
		c.hdr.reserved1 = 1;
		break;
	case RESERVED2:
		c.hdr.reserved2 = 1;
		break;
	case DRIVER_ID:
		c.hdr.driver_id = RDMA_DRIVER_MLX4;
		break;
	case UNKNOWN_OBJECT:
		c.hdr.object_id = 0x77;
		break;
	case UNKNOWN_METHOD:
		c.hdr.method_id = 0x77;
		break;
	case ATTRS_UNMAPPED:
		/* The header fits before the hole; its attributes do not. */
		at_edge = (void *)s->edge;
		memcpy(at_edge, &c.hdr, HDR);
		return do_ioctl(fd, RDMA_VERBS_IOCTL, at_edge);
	case UNKNOWN_ATTR_MANDATORY:
		add_attr(&c, 0x77, 0, 0);
		break;
	case OK_UNKNOWN_ATTR_OPTIONAL:
		add_attr(&c, 0x77, 0, 0)->flags = 0;
		break;
	case DUPLICATE_ATTR:
		add_attr(&c, UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(total),
			 (uintptr_t)&total);
		break;
	case PTR_RESERVED:
		c.hdr.attrs[1].attr_data.reserved = 1;
		break;
	case TOTAL_TOO_LONG:
		c.hdr.attrs[1].len = 8;
		break;
	case TOTAL_TOO_SHORT:
		c.hdr.attrs[1].len = 2;
		break;
	case LIST_TOO_SHORT:
		c.hdr.attrs[2].len = 2;
		break;
	case LIST_RAGGED:
		c.hdr.attrs[2].len = 6;
		break;
	case LIST_MISSING:
		c.hdr.num_attrs = 2;
		c.hdr.length -= sizeof(struct ib_uverbs_attr);
		break;
	case OBJECT_ID_MISSING:
		c.hdr.attrs[0] = c.hdr.attrs[2];
		c.hdr.num_attrs = 2;
		c.hdr.length -= sizeof(struct ib_uverbs_attr);
		break;
	case OBJECT_ID_OUT_OF_RANGE:
		c.hdr.attrs[0].data = 0x10000;
		break;
	case OBJECT_ID_UNKNOWN:
		c.hdr.attrs[0].data = (1U << UVERBS_ID_NS_SHIFT) | 0x77;
		break;
	case LIST_UNMAPPED:
		c.hdr.attrs[2].data = (uintptr_t)s->unmapped;
		break;
	case QUERY_HANDLE_ABSENT:
		c.hdr.attrs[0].data = 4000;
		break;
	case QUERY_HANDLE_OTHER_TYPE:
		c.hdr.attrs[0].data = s->pd->handle;
		break;
	case QUERY_HANDLE_NEGATIVE:
		c.hdr.attrs[0].data_s64 = -1;
		break;
	case QUERY_IDR_LEN:
		c.hdr.attrs[0].len = 4;
		break;
	case QUERY_IDR_RESERVED:
		c.hdr.attrs[0].attr_data.reserved = 1;
		break;
	case QUERY_CMD_IN_UNMAPPED:
		c.hdr.attrs[1].data = (uintptr_t)s->unmapped;
		break;
	case QUERY_CMD_IN_MISSING:
		c.hdr.attrs[1] = c.hdr.attrs[2];
		c.hdr.num_attrs = 2;
		c.hdr.length -= sizeof(struct ib_uverbs_attr);
		break;
	}
	return do_ioctl(fd, RDMA_VERBS_IOCTL, &c);
}

/* A normal call through libibverbs and libmlx5 still works. */
static void check_still_serving(const struct ctx_state *s)
{
	struct ibv_device_attr attr;
	uint8_t out[32];

	CHECK_EQ(ibv_query_device(s->ctx, &attr), 0);
	CHECK_EQ(fc_query(s->fc, s->fc_id, out), 0);
}

int main(int argc, char **argv)
{
	struct ctx_state s = { 0 };
	uint8_t *pages;
	union cmd c;
	size_t i;
	long page = sysconf(_SC_PAGESIZE);

	e2e_init(argc, argv, NAME);
	s.ctx = e2e_open(0);
	s.pd = ibv_alloc_pd(s.ctx);
	REQUIRE(s.pd);
	s.fc = fc_alloc(s.ctx, &s.fc_id);
	REQUIRE(s.fc);
	{
		uint8_t blob[E2E_BLOB_MAX];

		e2e_export(s.fc, blob);
		s.fc_handle = e2e_blob_handle(blob);
	}
	/* Two pages, the second unmapped again: a hole right after. */
	pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(pages != MAP_FAILED);
	REQUIRE(munmap(pages + page, page) == 0);
	s.unmapped = pages + page;
	s.edge = pages + page - HDR;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = run_row(&s, rows[i].what);

		if (got != rows[i].want)
			fprintf(stderr, "%s: row \"%s\": errno %d (%s), "
				"want %d (%s)\n", NAME, rows[i].name, got,
				strerror(got), rows[i].want,
				strerror(rows[i].want));
		CHECK_EQ(got, rows[i].want);
		check_still_serving(&s);
	}

	/* The well-formed call reports what it wrote. */
	info_handles(&c);
	total = 0;
	CHECK_EQ(do_ioctl(s.ctx->cmd_fd, RDMA_VERBS_IOCTL, &c), 0);
	CHECK(c.hdr.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	CHECK(c.hdr.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	CHECK_EQ(total, 1);
	CHECK_EQ(list[0], s.fc_handle);

	munmap(pages, page);
	CHECK_EQ(mlx5dv_devx_obj_destroy(s.fc), 0);
	CHECK_EQ(ibv_dealloc_pd(s.pd), 0);
	CHECK_EQ(ibv_close_device(s.ctx), 0);
	return check_done(NAME);
}
