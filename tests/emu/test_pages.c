// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The channels' shared pages (wire/wire.h), played by hand as a client:
 *  - a request in the page with a doorbell is answered in the page, and
 *    nothing comes on the socket;
 *  - while the daemon says it polls the page, a request written without a
 *    doorbell is answered all the same;
 *  - a client that says it sleeps is woken on the page's futex;
 *  - pages the daemon cannot trust (not sealed against shrinking, too
 *    small) are not used, and a page that breaks the protocol (magic,
 *    length, kind, sequence) or a doorbell with a payload closes the
 *    channel, nothing else;
 * and, through the preload, an ioctl whose reply carries an fd (which
 * goes on the socket) works.  The daemon's descriptors are counted in
 * /proc/<pid>/fd: pages hold none.
 */
#include <fcntl.h>
#include <signal.h>
#include <linux/futex.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu_transport.h"
#include "devx_objs.h"
#include "emu_util.h"

#define NAME "emu_channel_pages"
#define SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

static pid_t daemon_pid;

struct page {
	int chan;
	struct emu_wire_shm *sh;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A memfd of size bytes with these seals, mapped at *sh: its fd. */
static int page_fd(off_t size, int seals, struct emu_wire_shm **sh)
{
	int fd = memfd_create("test-page", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	REQUIRE(fd >= 0);
	REQUIRE(ftruncate(fd, size) == 0);
	REQUIRE(!seals || fcntl(fd, F_ADD_SEALS, seals) == 0);
	*sh = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	REQUIRE(*sh != MAP_FAILED);
	return fd;
}

/* A channel registered on conn with a page of size bytes and seals. */
static struct page page_channel(int conn, off_t size, int seals)
{
	struct emu_wire_token tok = { EMU_WIRE_MAGIC, EMU_WIRE_VERSION };
	struct iovec iov = { .iov_base = &tok, .iov_len = sizeof(tok) };
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {};
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	struct page pg;
	int sp[2], fds[2];

	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == 0);
	fds[0] = sp[1];
	fds[1] = page_fd(size, seals, &pg.sh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	REQUIRE(sendmsg(conn, &msg, MSG_NOSIGNAL) == sizeof(tok));
	close(fds[0]);
	close(fds[1]);
	pg.chan = sp[0];
	return pg;
}

static void page_close(struct page *pg, off_t size)
{
	close(pg->chan);
	munmap(pg->sh, (size_t)size);
}

static void ring(int chan, uint32_t len)
{
	struct emu_wire_req bell = { .magic = EMU_WIRE_MAGIC,
				     .kind = EMU_WIRE_DOORBELL, .len = len,
				     .seq = 1 };
	uint8_t payload[8] = {};

	REQUIRE(write(chan, &bell, sizeof(bell)) == sizeof(bell));
	/* the daemon may hang up at once after a bare doorbell */
	REQUIRE(len <= sizeof(payload));
	REQUIRE(!len || write(chan, payload, len) == (ssize_t)len);
}

/* An ioctl header the kernel refuses with EINVAL (length off by one). */
static void page_request(struct emu_wire_shm *sh, uint32_t seq, bool bell,
			 int chan)
{
	struct ib_uverbs_ioctl_hdr hdr = { .length = sizeof(hdr) + 1 };

	memcpy(sh->req_data, &hdr, sizeof(hdr));
	sh->req = (struct emu_wire_req){ .magic = EMU_WIRE_MAGIC,
					 .kind = EMU_WIRE_IOCTL,
					 .len = sizeof(hdr), .seq = seq };
	__atomic_store_n(&sh->req_seq, seq, __ATOMIC_SEQ_CST);
	if (bell)
		ring(chan, 0);
}

/* Polls the page for the reply to seq for up to ms milliseconds. */
static bool reply_within(const struct emu_wire_shm *sh, uint32_t seq,
			 unsigned int ms)
{
	uint64_t end = now_ms() + ms;

	while (__atomic_load_n(&sh->rep_seq, __ATOMIC_ACQUIRE) != seq)
		if (now_ms() > end)
			return false;
	return true;
}

static bool hung_up(int chan)
{
	char b;
	ssize_t n;

	n = recv(chan, &b, 1, 0);
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

static void answered_in_page(int conn)
{
	struct page pg = page_channel(conn, EMU_WIRE_SHM_BYTES, SEALS);
	char b;

	page_request(pg.sh, 1, true, pg.chan);
	CHECK(reply_within(pg.sh, 1, 10000));
	CHECK_EQ(pg.sh->rep.magic, EMU_WIRE_MAGIC);
	CHECK_EQ(pg.sh->rep.seq, 1);
	CHECK_EQ(pg.sh->rep.ret, -EINVAL);
	CHECK_EQ(pg.sh->rep.reserved, 0);
	CHECK(recv(pg.chan, &b, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN);

	/* back to back, until the daemon polls; then no doorbell at all */
	{
		uint32_t seq;
		bool polled = false;

		for (seq = 2; seq < 20000 && !polled; seq++) {
			polled = __atomic_load_n(&pg.sh->daemon_polls,
						 __ATOMIC_ACQUIRE);
			page_request(pg.sh, seq, !polled, pg.chan);
			if (!reply_within(pg.sh, seq, 10000))
				break;
		}
		CHECK(polled);
		CHECK_EQ(pg.sh->rep.seq, seq - 1);
		CHECK_EQ(pg.sh->rep.ret, -EINVAL);
	}
	page_close(&pg, EMU_WIRE_SHM_BYTES);
}

static void sleeper_woken(int conn)
{
	struct page pg = page_channel(conn, EMU_WIRE_SHM_BYTES, SEALS);
	const struct timespec limit = { .tv_sec = 20 };
	uint32_t v;
	long r = 0;

	__atomic_store_n(&pg.sh->client_waits, 1, __ATOMIC_SEQ_CST);
	page_request(pg.sh, 7, true, pg.chan);
	while ((v = __atomic_load_n(&pg.sh->rep_seq, __ATOMIC_ACQUIRE)) != 7) {
		r = syscall(SYS_futex, &pg.sh->rep_seq, FUTEX_WAIT, v, &limit,
			    NULL, 0);
		if (r && errno == ETIMEDOUT)
			break;
	}
	CHECK(!(r && errno == ETIMEDOUT));
	CHECK_EQ(pg.sh->rep_seq, 7);
	CHECK_EQ(pg.sh->rep.ret, -EINVAL);
	page_close(&pg, EMU_WIRE_SHM_BYTES);
}

/* What a page may hold that breaks the protocol. */
enum breach { BAD_MAGIC, TOO_LONG, KIND_MMAP, SEQ_DIFFERS, BELL_PAYLOAD };

static void breach_closes(int conn, enum breach how)
{
	struct page pg = page_channel(conn, EMU_WIRE_SHM_BYTES, SEALS);

	page_request(pg.sh, 1, false, pg.chan);
	switch (how) {
	case BAD_MAGIC:
		pg.sh->req.magic ^= 1;
		break;
	case TOO_LONG:
		pg.sh->req.len = EMU_WIRE_SHM_DATA + 1;
		break;
	case KIND_MMAP:
		pg.sh->req.kind = EMU_WIRE_MMAP;
		break;
	case SEQ_DIFFERS:
		pg.sh->req.seq = 2;
		break;
	case BELL_PAYLOAD:
		break;
	}
	ring(pg.chan, how == BELL_PAYLOAD ? 4 : 0);
	if (!hung_up(pg.chan))
		fprintf(stderr, "breach %d: channel not closed\n", (int)how);
	CHECK(pg.sh->rep_seq == 0);
	page_close(&pg, EMU_WIRE_SHM_BYTES);
}

/* A page the daemon must not map: the doorbell finds no page. */
static void page_refused(int conn, off_t size, int seals)
{
	struct page pg = page_channel(conn, size, seals);

	page_request(pg.sh, 1, true, pg.chan);
	CHECK(hung_up(pg.chan));
	CHECK(pg.sh->rep_seq == 0);
	page_close(&pg, size);
}

int main(void)
{
	struct ibv_context *ctx;
	uint32_t eqn;
	int base, i;

	/* a write to a channel the daemon closed fails, and says where */
	signal(SIGPIPE, SIG_IGN);
	alarm(240);
	ctx = emu_start_counted(NAME, &daemon_pid, &base);

	answered_in_page(ctx->cmd_fd);
	sleeper_woken(ctx->cmd_fd);
	for (i = BAD_MAGIC; i <= BELL_PAYLOAD; i++)
		breach_closes(ctx->cmd_fd, (enum breach)i);
	page_refused(ctx->cmd_fd, EMU_WIRE_SHM_BYTES, 0);
	page_refused(ctx->cmd_fd, EMU_WIRE_SHM_BYTES / 2, SEALS);

	/*
	 * An fd in the reply (the async event fd libibverbs asks for when
	 * it opens a context): it comes on the socket.
	 */
	{
		struct ibv_context *other = devx_open(NULL, 0);
		struct stat st;

		CHECK(other != NULL);
		if (other) {
			CHECK(fstat(other->async_fd, &st) == 0 &&
			      S_ISFIFO(st.st_mode));
			CHECK_EQ(ibv_close_device(other), 0);
		}
	}

	for (i = 0; i < 1000 && emu_proc_fds(daemon_pid) != base; i++)
		usleep(10000);
	CHECK_EQ(emu_proc_fds(daemon_pid), base);
	CHECK_EQ(mlx5dv_devx_query_eqn(ctx, 0, &eqn), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
