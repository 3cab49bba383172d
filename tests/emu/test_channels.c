// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The per-thread channels of mlx5-emu's transport (wire/wire.h):
 *  - fork() with a live channel: parent and child call at once on the
 *    inherited fd and each gets its own answers (the child made its own
 *    channel instead of reading the parent's);
 *  - the fd passed by SCM_RIGHTS to a process that calls from 8 threads;
 *  - a thread's channel is closed when it exits, and when the device fd
 *    closes the daemon lets go of every channel of it;
 *  - replies a client leaves unread are kept by the daemon once the
 *    socket is full and delivered, in order, when it reads;
 *  - a caller killed in the middle of a call, request half written or
 *    reply unread, costs the daemon nothing it keeps;
 *  - malformed frames on a channel get the kernel's errno, or the channel
 *    closed when the framing itself is broken or a second request comes
 *    before the first reply is read, and the daemon serves on.
 * The daemon's descriptors are counted in /proc/<pid>/fd.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu_transport.h"
#include "devx_objs.h"
#include "emu_util.h"

#define NAME "emu_thread_channels"
#define ITERS 400
#define THREADS 8

static pid_t daemon_pid;

static int daemon_fds(void)
{
	return emu_proc_fds(daemon_pid);
}

/* The daemon gets to an EOF in its own time: wait for the count. */
static bool daemon_fds_reach(int want)
{
	int i, n = -1;

	for (i = 0; i < 1000; i++) {
		n = daemon_fds();
		if (n == want)
			return true;
		usleep(10000);
	}
	fprintf(stderr, "daemon holds %d fds, expected %d\n", n, want);
	return false;
}

static bool daemon_fds_atleast(int want)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (daemon_fds() >= want)
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * A meter whose CBS only its caller knows, queried over and over: the
 * caller's number gives it, distinct among callers that run at once.
 */
static void *call_loop(void *arg)
{
	struct emu_worker *c = arg;
	unsigned int exp = c->index % 32, man = 10 + c->index % 240;
	struct mlx5dv_devx_obj *meter;
	unsigned int i;
	uint32_t id;

	meter = meter_create_cbs(c->ctx, exp, man, &id);
	if (!meter) {
		c->failures++;
		return NULL;
	}
	for (i = 0; i < ITERS; i++) {
		unsigned int e = 99, m = 99;
		uint8_t status = 0xff;

		if (meter_query_cbs(meter, id, &e, &m, &status) || status ||
		    e != exp || m != man)
			c->failures++;
	}
	if (mlx5dv_devx_obj_destroy(meter))
		c->failures++;
	return NULL;
}

static void fork_with_live_channel(struct ibv_context *ctx)
{
	struct emu_worker me = { ctx, 3, 0 };
	int status;
	pid_t pid;

	/* this thread's channel exists now */
	call_loop(&me);
	REQUIRE(me.failures == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct emu_worker child = { ctx, 5, 0 };

		/* the forking thread's inherited channel, and 4 new threads */
		call_loop(&child);
		_exit(child.failures +
		      emu_run_workers(ctx, 4, 100, call_loop) ? 1 : 0);
	}
	me.failures = 0;
	call_loop(&me);
	CHECK_EQ(me.failures, 0);
	CHECK_EQ(emu_run_workers(ctx, 4, 200, call_loop), 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * A process forked before the device was opened (no channel, no fd)
 * receives the fd and calls on it from 8 threads while we call too.
 */
static void scm_rights_eight_threads(void)
{
	struct ibv_context *ctx;
	int sv[2], status;
	pid_t pid;

	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct ibv_context *imp;
		int fd;

		close(sv[0]);
		fd = emu_recv_fd(sv[1]);
		imp = fd >= 0 ? ibv_import_device(fd) : NULL;
		if (!imp)
			_exit(2);
		_exit(emu_run_workers(imp, THREADS, 300, call_loop) ? 1 : 0);
	}
	close(sv[1]);
	ctx = devx_open(NULL, 1);
	REQUIRE(ctx);
	CHECK_EQ(emu_run_workers(ctx, 1, 400, call_loop), 0);
	REQUIRE(emu_send_with_fd(sv[0], "f", 1, ctx->cmd_fd, 0) == 1);
	CHECK_EQ(emu_run_workers(ctx, 2, 500, call_loop), 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(sv[0]);
	CHECK_EQ(ibv_close_device(ctx), 0);
}

static pthread_barrier_t parked;

static void *call_then_park(void *arg)
{
	struct ibv_context *ctx = arg;
	uint32_t eqn;

	if (mlx5dv_devx_query_eqn(ctx, 0, &eqn))
		return (void *)1;
	pthread_barrier_wait(&parked);	/* channel made */
	pthread_barrier_wait(&parked);	/* device closed */
	return NULL;
}

static void *call_once(void *arg)
{
	struct ibv_context *ctx = arg;
	uint32_t eqn;

	return (void *)(long)mlx5dv_devx_query_eqn(ctx, 0, &eqn);
}

static void channels_released(struct ibv_context *ctx, int base)
{
	struct ibv_context *other;
	pthread_t t[THREADS];
	void *ret;
	int i;

	/* threads that called and exited leave no channel behind */
	for (i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, call_once, ctx) == 0);
	for (i = 0; i < THREADS; i++) {
		REQUIRE(pthread_join(t[i], &ret) == 0);
		CHECK(ret == NULL);
	}
	CHECK(daemon_fds_reach(base));

	/* closing the device lets the daemon close its live channels */
	other = devx_open(NULL, 0);
	REQUIRE(other);
	REQUIRE(pthread_barrier_init(&parked, NULL, 5) == 0);
	for (i = 0; i < 4; i++)
		REQUIRE(pthread_create(&t[i], NULL, call_then_park,
				       other) == 0);
	pthread_barrier_wait(&parked);
	/* the connection, this thread's channel, the 4 parked threads' */
	CHECK(daemon_fds_atleast(base + 5));
	CHECK_EQ(ibv_close_device(other), 0);
	CHECK(daemon_fds_reach(base));
	pthread_barrier_wait(&parked);
	for (i = 0; i < 4; i++) {
		REQUIRE(pthread_join(t[i], &ret) == 0);
		CHECK(ret == NULL);
	}
	pthread_barrier_destroy(&parked);
}

static int send_req(int chan, uint32_t magic, uint32_t kind, uint32_t seq,
		    uint32_t reserved, const void *payload, uint32_t len)
{
	struct emu_wire_req req = {
		.magic = magic, .kind = kind, .len = len, .seq = seq,
		.reserved = reserved,
	};

	if (write(chan, &req, sizeof(req)) != sizeof(req))
		return -1;
	/* no payload: a header that only announces one */
	if (payload && write(chan, payload, len) != (ssize_t)len)
		return -1;
	return 0;
}

/* The reply's ret (0 or -errno), after checking its sequence number. */
static int reply_ret(int chan, uint32_t seq)
{
	struct emu_wire_rep rep;
	uint8_t skip[256];

	if (recv(chan, &rep, sizeof(rep), MSG_WAITALL) != sizeof(rep))
		return 1;
	if (rep.magic != EMU_WIRE_MAGIC || rep.seq != seq ||
	    rep.len > sizeof(skip) ||
	    (rep.len && recv(chan, skip, rep.len, MSG_WAITALL) != rep.len))
		return 2;
	return rep.ret;
}

/* The daemon hung up on the channel. */
static bool hung_up(int chan)
{
	char b;
	ssize_t n;

	n = recv(chan, &b, 1, 0);
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

static void malformed_frames(struct ibv_context *ctx, int base)
{
	struct ib_uverbs_ioctl_hdr hdr = {};
	struct emu_wire_mmap mm = {};
	int chan, p[2];

	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	REQUIRE(chan >= 0);
	/* well-framed requests the kernel answers with its errno */
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_PING, 7, 0, NULL, 0),
		 0);
	CHECK_EQ(reply_ret(chan, 7), 0);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, 99, 8, 0, NULL, 0), 0);
	CHECK_EQ(reply_ret(chan, 8), -ENOTTY);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_IOCTL, 9, 0, "ab", 2),
		 0);
	CHECK_EQ(reply_ret(chan, 9), -EFAULT);	/* header not all there */
	hdr.length = sizeof(hdr) + 1;
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_IOCTL, 10, 0, &hdr,
			  sizeof(hdr)), 0);
	CHECK_EQ(reply_ret(chan, 10), -EINVAL);
	hdr.length = sizeof(hdr);
	hdr.reserved1 = 1;
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_IOCTL, 11, 0, &hdr,
			  sizeof(hdr)), 0);
	CHECK_EQ(reply_ret(chan, 11), -EPROTONOSUPPORT);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_MMAP, 12, 0, &mm, 3),
		 0);
	CHECK_EQ(reply_ret(chan, 12), -EINVAL);
	/* a second request before reading the first reply: closed */
	{
		struct emu_wire_req two[2] = {
			{ .magic = EMU_WIRE_MAGIC, .kind = EMU_WIRE_PING,
			  .seq = 20 },
			{ .magic = EMU_WIRE_MAGIC, .kind = EMU_WIRE_PING,
			  .seq = 21 },
		};

		CHECK(write(chan, two, sizeof(two)) == sizeof(two));
		CHECK(hung_up(chan));
		close(chan);
		chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
		REQUIRE(chan >= 0);
	}
	/* broken framing: the channel is closed, nothing else */
	CHECK_EQ(send_req(chan, 0xdeadbeef, EMU_WIRE_PING, 13, 0, NULL, 0), 0);
	CHECK(hung_up(chan));
	close(chan);
	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	REQUIRE(chan >= 0);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_PING, 1, 5, NULL, 0),
		 0);
	CHECK(hung_up(chan));
	close(chan);
	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	REQUIRE(chan >= 0);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_IOCTL, 1, 0, NULL,
			  EMU_WIRE_MAX_REQ + 1), 0);
	CHECK(hung_up(chan));
	close(chan);
	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	REQUIRE(chan >= 0);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_PING,
			  EMU_WIRE_SEQ_REFUSED, 0, NULL, 0), 0);
	CHECK(hung_up(chan));
	close(chan);
	/* a token of another protocol version: not served */
	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION + 1);
	REQUIRE(chan >= 0);
	CHECK(hung_up(chan));
	close(chan);
	/* a pipe is no channel: dropped, the connection serves on */
	REQUIRE(pipe(p) == 0);
	{
		struct emu_wire_token tok = { EMU_WIRE_MAGIC,
					      EMU_WIRE_VERSION };

		CHECK(emu_send_with_fd(ctx->cmd_fd, &tok, sizeof(tok), p[1],
				       0) == sizeof(tok));
	}
	close(p[1]);
	{
		char b;

		CHECK(read(p[0], &b, 1) == 0);	/* the daemon closed it */
	}
	close(p[0]);
	CHECK(daemon_fds_reach(base));
}

/*
 * Replies left unread pile up in the socket until the daemon cannot send
 * the next: it keeps that one and sends it once they are read, in order.
 */
static void replies_held(struct ibv_context *ctx)
{
	const int rep_len = (int)sizeof(struct emu_wire_rep);
	int chan, queued = 0, k, i, n;
	uint32_t seq;

	chan = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	REQUIRE(chan >= 0);
	for (seq = 1; seq < 100000; seq++) {
		REQUIRE(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_PING, seq, 0,
				 NULL, 0) == 0);
		/* its reply arrived, or the daemon is holding it */
		for (k = 0; k < 200; k++) {
			REQUIRE(ioctl(chan, FIONREAD, &n) == 0);
			if (n > queued)
				break;
			usleep(1000);
		}
		if (n == queued)
			break;
		queued = n;
	}
	CHECK(seq < 100000);
	CHECK_EQ(queued, (int)(seq - 1) * rep_len);
	for (i = 1; i <= (int)seq; i++)
		if (reply_ret(chan, (uint32_t)i) != 0)
			break;
	CHECK_EQ(i, (int)seq + 1);
	CHECK_EQ(send_req(chan, EMU_WIRE_MAGIC, EMU_WIRE_PING, seq + 1, 0,
			  NULL, 0), 0);
	CHECK_EQ(reply_ret(chan, seq + 1), 0);
	close(chan);
}

/*
 * The child of killed_mid_call(): a request half written and a reply
 * unread, then it says so and waits to be killed.
 */
static void mid_call_child(void *arg, int fd)
{
	struct ibv_context *ctx = arg;
	int half = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	int unread = emu_raw_channel(ctx->cmd_fd, EMU_WIRE_VERSION);
	struct emu_wire_req req = { .magic = EMU_WIRE_MAGIC,
				    .kind = EMU_WIRE_IOCTL,
				    .len = 4096, .seq = 1 };

	if (half < 0 || unread < 0 ||
	    write(half, &req, sizeof(req)) != sizeof(req))
		_exit(1);
	/* a reply it never reads */
	req = (struct emu_wire_req){ .magic = EMU_WIRE_MAGIC,
				     .kind = EMU_WIRE_PING, .seq = 1 };
	if (write(unread, &req, sizeof(req)) != sizeof(req))
		_exit(1);
	if (write(fd, "x", 1) != 1)
		_exit(1);
	pause();
}

/* A child killed with a request half written and a reply unread. */
static void killed_mid_call(struct ibv_context *ctx, int base)
{
	pid_t pid;
	char c;

	pid = emu_fork_reporter(mid_call_child, ctx, &c, 1);
	CHECK(daemon_fds_atleast(base + 2));
	emu_kill_wait(pid);
	CHECK(daemon_fds_reach(base));
}

int main(void)
{
	struct ibv_context *ctx;
	uint32_t eqn;
	int base;

	/* a reply lost to another caller would hang: fail instead */
	alarm(240);
	/* base: what the daemon holds with our one connection and channel */
	ctx = emu_start_counted(NAME, &daemon_pid, &base);

	fork_with_live_channel(ctx);
	scm_rights_eight_threads();
	CHECK(daemon_fds_reach(base));
	channels_released(ctx, base);
	malformed_frames(ctx, base);
	replies_held(ctx);
	killed_mid_call(ctx, base);

	/* and this thread's channel served through all of it */
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 0, &eqn), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
