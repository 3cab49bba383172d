// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A client that dies mid-request does not hurt the daemon: a child busy
 * with ioctls on a shared fd and on its own context is SIGKILLed, and a
 * raw client that sends half a request and vanishes, or sends garbage,
 * is dropped; the parent's calls keep working and new contexts open.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_util.h"
#include "wire.h"

static void *hammer(void *arg)
{
	struct ibv_context *ctx = arg;
	uint32_t eqn;

	for (;;)
		mlx5dv_devx_query_eqn(ctx, 0, &eqn);
	return NULL;
}

/* calls on the shared fd and on its own, from three threads, forever */
static void busy_child(void *shared, int fd)
{
	struct ibv_context *own = devx_open(NULL, 0);
	pthread_t t1, t2;

	if (!own)
		_exit(1);
	pthread_create(&t1, NULL, hammer, shared);
	pthread_create(&t2, NULL, hammer, own);
	fc_alloc_bulk(own, 0, NULL);
	if (write(fd, "x", 1) != 1)
		_exit(1);
	hammer(own);
}

static void killed_busy_child(struct ibv_context *shared)
{
	char c;

	/* killed with calls in flight on both fds, or just done */
	CHECK(WIFSIGNALED(emu_report_and_kill(busy_child, shared, &c, 1)));
}

/* half a request on a channel, then gone */
static void half_request(void)
{
	struct emu_wire_token tok = { EMU_WIRE_MAGIC, EMU_WIRE_VERSION };
	struct emu_wire_req req = { .magic = EMU_WIRE_MAGIC,
				    .kind = EMU_WIRE_IOCTL, .len = 4096,
				    .seq = 1 };
	char cbuf[CMSG_SPACE(sizeof(int))] = {};
	struct iovec iov = { .iov_base = &tok, .iov_len = sizeof(tok) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int fd, sp[2];

	fd = open("/dev/infiniband/uverbs0", O_RDWR);
	REQUIRE(fd >= 0);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &sp[1], sizeof(int));
	CHECK(sendmsg(fd, &msg, 0) == sizeof(tok));
	close(sp[1]);
	CHECK(write(sp[0], &req, sizeof(req)) == sizeof(req));
	close(sp[0]);
	/* garbage on the shared connection: no channel, wrong size */
	CHECK(send(fd, "garbage!garbage!", 16, 0) == 16);
	/* a token whose request claims more than the daemon takes */
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	memcpy(CMSG_DATA(cm), &sp[1], sizeof(int));
	CHECK(sendmsg(fd, &msg, 0) == sizeof(tok));
	close(sp[1]);
	req.len = EMU_WIRE_MAX_REQ + 1;
	CHECK(write(sp[0], &req, sizeof(req)) == sizeof(req));
	{
		char b;

		/* the daemon hangs up instead of reading 4 MiB */
		ssize_t got = read(sp[0], &b, 1);

		/* EOF, or a reset when it left our bytes unread */
		CHECK(got == 0 || (got < 0 && errno == ECONNRESET));
	}
	close(sp[0]);
	close(fd);
}

int main(void)
{
	struct ibv_context *ctx, *ctx2;
	struct mlx5dv_devx_obj *obj;
	uint32_t eqn, id, list[8], total;
	uint8_t status;
	int i;

	ctx = emu_start("emu_client_killed");
	obj = fc_alloc_bulk(ctx, 0, &id);
	REQUIRE(obj);
	for (i = 0; i < 3; i++)
		killed_busy_child(ctx);
	half_request();

	/* the shared ufile is intact and answers */
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 0, &eqn), 0);
	CHECK_EQ(fc_query_status(obj, id, &status), 0);
	CHECK_EQ(status, 0);
	CHECK_EQ(emu_info_handles(ctx->cmd_fd, MLX5_IB_OBJECT_DEVX_OBJ, list,
				  8, &total), 0);
	/* ours, plus at most the dead child's on the shared fd: none made */
	CHECK_EQ(total, 1);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
	/* and new contexts open */
	ctx2 = devx_open(NULL, 0);
	REQUIRE(ctx2);
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx2, 1, &eqn), 0);
	CHECK_EQ(ibv_close_device(ctx2), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("emu_client_killed");
}
