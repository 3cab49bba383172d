// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The import of a device as the kernel answers it.  QUERY_CONTEXT
 * (uverbs_std_types_device.c with mlx5_ib_query_ucontext()) takes a
 * response attribute anywhere from the end of dump_fill_mkey to the
 * whole struct mlx5_ib_alloc_ucontext_resp (UVERBS_ATTR_STRUCT: the same
 * length in today's uapi), copies what fits and sets response_length to
 * it; shorter: EINVAL; longer: the whole struct and zeros after it
 * (uverbs_copy_to_struct_or_zero()), response_length the struct's.
 * Every ASYNC_EVENT_ALLOC makes a new event file and the ones made
 * before stay valid: after ibv_import_device() (which allocates the
 * importer's own) the exporter's async event fd does not read EOF.
 */
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>

#include "emu_util.h"

#define NAME "emu_query_context"

#define RESP_MIN                                                          \
	(offsetof(struct mlx5_ib_alloc_ucontext_resp, dump_fill_mkey) +   \
	 sizeof(uint32_t))

/* QUERY_CONTEXT with a response attribute of len bytes into resp */
static int query_context(int fd, void *resp, uint16_t len)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	raw_attr(&r, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, len,
		 (uintptr_t)resp);
	return raw_exec(fd, &r);
}

static void query_sizes(int fd)
{
	struct mlx5_ib_alloc_ucontext_resp full;
	uint8_t part[sizeof(full) + 8];

	memset(&full, 0xff, sizeof(full));
	CHECK_EQ(query_context(fd, &full, sizeof(full)), 0);
	CHECK_EQ(full.response_length, sizeof(full));

	/*
	 * The shortest answer: what fits, response_length saying so, the
	 * rest left as it was.  In today's uapi dump_fill_mkey is the last
	 * field, so the shortest is the whole struct.
	 */
	memset(part, 0xff, sizeof(part));
	CHECK_EQ(query_context(fd, part, RESP_MIN), 0);
	memcpy(&full.response_length,
	       part + offsetof(struct mlx5_ib_alloc_ucontext_resp,
			       response_length), sizeof(uint32_t));
	CHECK_EQ(full.response_length, RESP_MIN);
	CHECK_EQ(part[RESP_MIN], 0xff);

	CHECK_EQ(query_context(fd, part, RESP_MIN - 4), EINVAL);
	memset(part, 0xff, sizeof(part));
	CHECK_EQ(query_context(fd, part, sizeof(part)), 0);
	memcpy(&full.response_length,
	       part + offsetof(struct mlx5_ib_alloc_ucontext_resp,
			       response_length), sizeof(uint32_t));
	CHECK_EQ(full.response_length, sizeof(full));
	CHECK_EQ(part[sizeof(full)], 0);
	CHECK_EQ(part[sizeof(part) - 1], 0);
}

/* readable now: an event or EOF (the model never queues an event) */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) != 0;
}

static void async_fds(struct ibv_context *ctx)
{
	struct ibv_context *imp;
	int flags;

	REQUIRE(ctx->async_fd >= 0);
	CHECK(!readable(ctx->async_fd));
	/* the imported context owns the fd it is given: a dup of ours */
	imp = ibv_import_device(dup(ctx->cmd_fd));
	REQUIRE(imp);
	REQUIRE(imp->async_fd >= 0);
	CHECK(!readable(ctx->async_fd));
	CHECK(!readable(imp->async_fd));
	/* each its own open file: one reader's flags are not the other's */
	flags = fcntl(ctx->async_fd, F_GETFL);
	CHECK(flags >= 0 && !(flags & O_NONBLOCK));
	CHECK_EQ(fcntl(imp->async_fd, F_SETFL, O_NONBLOCK), 0);
	CHECK_EQ(fcntl(ctx->async_fd, F_GETFL), flags);
	CHECK_EQ(ibv_close_device(imp), 0);
	CHECK(!readable(ctx->async_fd));
}

int main(void)
{
	struct ibv_context *ctx = emu_start(NAME);

	query_sizes(ctx->cmd_fd);
	async_fds(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
