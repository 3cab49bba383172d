// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The daemon's event loop: one thread, one epoll set, nothing blocks.
 *
 * Every socket is non-blocking and every request is read, executed and
 * answered as far as its bytes allow, the rest resumed when epoll says
 * so.  What one client may hold is bounded (see the EMU_CLIENT_* limits):
 * its descriptors (connections and channels), one request in flight per
 * channel, and the bytes of requests and replies buffered for it.  A
 * client over its share waits, alone; the others are not slowed down.
 * When the daemon itself runs out of descriptors it sheds new
 * connections (a reserve descriptor lets it accept them to close them)
 * instead of leaving them queued, which would wake the loop forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon.h"
#include "emu_device.h"
#include "trace.h"
#include "uverbs.h"
#include "wire.h"
#include "wire_io.h"

/*
 * A client (a process, by its pid) may hold at most 1/EMU_CLIENT_SHARE of
 * the descriptors the daemon may open, and never fewer than
 * EMU_CLIENT_MIN_FDS; the daemon keeps EMU_DAEMON_FD_SPARE of its limit
 * for itself (mmap replies, new fds a command returns, the reserve).
 */
#define EMU_CLIENT_SHARE 4
#define EMU_CLIENT_MIN_FDS 16
#define EMU_DAEMON_FD_SPARE 32
/* request and reply bytes the daemon buffers for one client at most */
#define EMU_CLIENT_MAX_BYTES (16u << 20)
/* request bytes read with its header; more grows the buffer as it comes */
#define EMU_INLINE_REQ 4096
/* messages taken from one socket per wake-up, so each gets its turn */
#define EMU_BATCH 16

enum item_kind { IT_LISTEN, IT_SIGNAL, IT_CONN, IT_CHAN };

struct item {
	enum item_kind kind;
	bool dead;		/* closed; freed after this round of events */
	struct item *grave;
};

struct client {
	pid_t pid;
	unsigned int nfds;
	size_t bytes;
	struct chan *waiting;	/* channels stopped for its byte budget */
	struct client *next;
};

struct listener {
	struct item it;
	int fd;
	unsigned int dev;
};

struct conn {
	struct item it;
	int fd;
	struct emu_ufile *uf;
	struct client *cl;
	struct chan *chans;
	bool first_seen;	/* a message came: no more access mode */
	bool can_read, can_write;	/* FMODE_READ, FMODE_WRITE */
};

struct chan {
	struct item it;
	int fd;
	struct conn *conn;
	struct client *cl;
	struct chan *next, **pprev;	/* in conn->chans */
	struct chan *wnext;		/* in cl->waiting */
	uint32_t events;		/* what epoll watches now */
	/* the request being read */
	struct emu_wire_req req;
	size_t req_got;
	uint8_t *payload;
	size_t payload_got, payload_cap;
	/* the reply being written: bytes, and fds to go with the first */
	uint8_t *out;
	size_t out_len, out_off;
	int out_fds[4];
	unsigned int out_nfds;
	size_t charged;			/* bytes counted in cl->bytes */
	struct emu_wire_shm *shm;	/* the shared page, or NULL */
	uint32_t shm_seq;		/* the page's request served last */
};

struct daemon {
	int ep;
	struct emu_device *devices;
	unsigned int ndev;
	struct listener *listeners;
	bool listeners_paused;
	int reserve;			/* /dev/null, given up to shed */
	unsigned int nfds;		/* connections + channels open */
	struct client *clients;
	struct item *grave;
	struct chan *hot;		/* the channel served last */
	struct chan *polled;		/* its page has daemon_polls set */
	unsigned long served;		/* requests answered */
};

static struct daemon d;

static void bury(struct item *it)
{
	it->dead = true;
	it->grave = d.grave;
	d.grave = it;
}

static rlim_t fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 1024;
	return rl.rlim_cur;
}

/* Whether one more descriptor may be given to cl (false: shed it). */
static bool fd_allowed(const struct client *cl)
{
	rlim_t limit = fd_limit(), usable, share;

	usable = limit > EMU_DAEMON_FD_SPARE * 2 ?
		 limit - EMU_DAEMON_FD_SPARE : limit / 2;
	share = usable / EMU_CLIENT_SHARE;
	if (share < EMU_CLIENT_MIN_FDS)
		share = EMU_CLIENT_MIN_FDS;
	return d.nfds < usable && cl->nfds < share;
}

static struct client *client_get(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct client *cl;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		cr.pid = 0;
	for (cl = d.clients; cl; cl = cl->next)
		if (cl->pid == cr.pid)
			return cl;
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return NULL;
	cl->pid = cr.pid;
	cl->next = d.clients;
	d.clients = cl;
	return cl;
}

static void client_put(struct client *cl)
{
	struct client **pp;

	if (cl->nfds || cl->bytes)
		return;
	for (pp = &d.clients; *pp; pp = &(*pp)->next)
		if (*pp == cl) {
			*pp = cl->next;
			free(cl);
			return;
		}
}

static void watch(struct chan *ch, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = ch };

	if (ch->events == events)
		return;
	ch->events = events;
	epoll_ctl(d.ep, EPOLL_CTL_MOD, ch->fd, &ev);
}

/* Listens again (EPOLLIN), or stops listening (0) for want of fds. */
static void listen_all(uint32_t events)
{
	unsigned int i;

	for (i = 0; i < d.ndev; i++) {
		struct epoll_event ev = { .events = events,
					  .data.ptr = &d.listeners[i] };

		epoll_ctl(d.ep, EPOLL_CTL_MOD, d.listeners[i].fd, &ev);
	}
	d.listeners_paused = !events;
}

/* A descriptor was closed: a shed listener may accept again. */
static void fd_released(void)
{
	d.nfds--;
	if (!d.listeners_paused)
		return;
	if (d.reserve < 0)
		d.reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (d.reserve < 0)
		return;
	listen_all(EPOLLIN);
}

static void charge(struct chan *ch, size_t bytes)
{
	ch->charged += bytes;
	ch->cl->bytes += bytes;
}

/* Gives back bytes; channels that waited for them read again. */
static void uncharge(struct chan *ch, size_t bytes)
{
	struct client *cl = ch->cl;
	struct chan *w;

	ch->charged -= bytes;
	cl->bytes -= bytes;
	while ((w = cl->waiting)) {
		cl->waiting = w->wnext;
		w->wnext = NULL;
		if (!w->it.dead && !w->out)
			watch(w, EPOLLIN);
	}
}

static void chan_close(struct chan *ch)
{
	struct client *cl = ch->cl;
	struct chan **pp;
	unsigned int i;

	if (ch->it.dead)
		return;
	if (d.hot == ch)
		d.hot = NULL;
	if (d.polled == ch)
		d.polled = NULL;
	if (ch->shm)
		munmap(ch->shm, EMU_WIRE_SHM_BYTES);
	for (pp = &cl->waiting; *pp; pp = &(*pp)->wnext)
		if (*pp == ch) {
			*pp = ch->wnext;
			break;
		}
	*ch->pprev = ch->next;
	if (ch->next)
		ch->next->pprev = ch->pprev;
	close(ch->fd);
	for (i = 0; i < ch->out_nfds; i++)
		close(ch->out_fds[i]);
	free(ch->payload);
	free(ch->out);
	cl->bytes -= ch->charged;
	cl->nfds--;
	client_put(cl);
	bury(&ch->it);
	fd_released();
}

/* Drop one reference; the last one is the kernel's release of the file. */
static void ufile_put(struct emu_ufile *uf)
{
	if (--uf->refs == 0) {
		emu_trace("ufile %u: last close, destroying its objects",
			  uf->serial);
		emu_ufile_release(uf);
	}
}

/* The last fd of the ufile closed: the file is released. */
static void conn_close(struct conn *c)
{
	if (c->it.dead)
		return;
	while (c->chans)
		chan_close(c->chans);
	close(c->fd);
	ufile_put(c->uf);
	c->cl->nfds--;
	client_put(c->cl);
	bury(&c->it);
	fd_released();
}

/* Sends what is pending; false when the channel broke. */
static bool flush_out(struct chan *ch)
{
	char cbuf[CMSG_SPACE(sizeof(ch->out_fds))];
	struct iovec iov = { .iov_base = ch->out + ch->out_off,
			     .iov_len = ch->out_len - ch->out_off };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	unsigned int i;
	ssize_t n;

	if (ch->out_nfds)
		emu_wire_attach_fds(&msg, cbuf, ch->out_fds, ch->out_nfds);
	n = emu_wire_sendmsg(ch->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK;
	/* the fds went with the first byte */
	for (i = 0; i < ch->out_nfds; i++)
		close(ch->out_fds[i]);
	ch->out_nfds = 0;
	ch->out_off += (size_t)n;
	if (ch->out_off < ch->out_len)
		return true;
	free(ch->out);
	ch->out = NULL;
	uncharge(ch, ch->out_len);
	return true;
}

/*
 * Answers on the channel: at once when the socket takes it all (the usual
 * case), else the rest is kept and sent as the client reads.
 */
static bool send_reply(struct chan *ch, uint32_t seq, int ret,
		       struct emu_reply *rep, const void *extra,
		       size_t extra_len)
{
	struct emu_wire_rep hdr = {
		.magic = EMU_WIRE_MAGIC, .ret = ret, .nfds = rep->nfds,
		.len = (uint32_t)(rep->len + extra_len), .seq = seq,
	};
	char cbuf[CMSG_SPACE(sizeof(rep->fds))];
	struct iovec iov[3] = {
		{ .iov_base = &hdr, .iov_len = sizeof(hdr) },
		{ .iov_base = rep->buf, .iov_len = rep->len },
		{ .iov_base = (void *)extra, .iov_len = extra_len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 3 };
	size_t total = sizeof(hdr) + rep->len + extra_len, done = 0, i;
	ssize_t n;

	if (rep->nfds)
		emu_wire_attach_fds(&msg, cbuf, rep->fds, rep->nfds);
	n = emu_wire_sendmsg(ch->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		return false;
	if (n > 0)
		done = (size_t)n;
	if (done == total)
		return true;
	/* keep the rest, and the fds if none went yet */
	ch->out = malloc(total - done);
	if (!ch->out)
		return false;
	ch->out_len = total - done;
	ch->out_off = 0;
	for (i = 0; i < 3; i++) {
		size_t l = iov[i].iov_len, skip = done < l ? done : l;

		if (l > skip)
			memcpy(ch->out + ch->out_off,
			       (uint8_t *)iov[i].iov_base + skip, l - skip);
		ch->out_off += l - skip;
		done -= skip;
	}
	ch->out_off = 0;
	if (n <= 0) {
		memcpy(ch->out_fds, rep->fds, rep->nfds * sizeof(int));
		ch->out_nfds = rep->nfds;
		rep->nfds = 0;	/* ours to send now */
	}
	charge(ch, ch->out_len);
	watch(ch, EPOLLOUT);
	return true;
}

/* mlx5_ib_mmap() for the caller: a memfd to map, or the errno */
static int run_mmap(const struct conn *c, const uint8_t *payload,
		    size_t len, uint32_t pid, struct emu_reply *rep,
		    struct emu_wire_mmap_rep *mrep)
{
	struct emu_ufile *uf = c->uf;
	struct emu_wire_mmap req;
	int ret, fd = -1, wfd;

	if (len != sizeof(req))
		return -EINVAL;
	memcpy(&req, payload, sizeof(req));
	/*
	 * do_mmap(): a shared writable mapping needs a file opened for
	 * writing, any mapping one opened for reading.
	 */
	if ((((req.flags & MAP_TYPE) == MAP_SHARED ||
	      (req.flags & MAP_TYPE) == MAP_SHARED_VALIDATE) &&
	     (req.prot & PROT_WRITE) && !c->can_write) || !c->can_read)
		return -EACCES;
	ret = emu_mlx5_mmap(uf, req.offset, req.length, req.prot, req.flags,
			    &fd);
	/*
	 * A mapping the kernel refuses to map writable is one it clears
	 * VM_MAYWRITE for: the client must refuse mprotect(PROT_WRITE) too.
	 */
	if (!ret && !(req.prot & PROT_WRITE) &&
	    emu_mlx5_mmap(uf, req.offset, req.length, req.prot | PROT_WRITE,
			  req.flags, &wfd) == -EPERM)
		mrep->flags |= EMU_MMAP_NO_MAYWRITE;
	if (!ret) {
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			ret = -errno;
	}
	emu_trace("ufile %u pid %u: mmap offset 0x%llx len %llu -> %d",
		  uf->serial, pid, (unsigned long long)req.offset,
		  (unsigned long long)req.length, ret);
	if (!ret) {
		rep->fds[0] = fd;
		rep->nfds = 1;
	}
	return ret;
}

/*
 * write() on the command fd.  The kernel lets only a task with the
 * credentials the file was opened with write to it: here, only the
 * process that opened the connection (a channel is made by the process
 * that uses it, a connection by the one that opened the device).
 */
static int run_write(struct chan *ch, const uint8_t *payload, size_t len,
		     uint32_t pid)
{
	struct emu_ufile *uf = ch->conn->uf;
	struct emu_wire_write w;
	int ret;

	if (len < sizeof(w) || len > sizeof(w) + EMU_WIRE_WRITE_HEAD)
		return -EINVAL;
	memcpy(&w, payload, sizeof(w));
	/* vfs_write(): a file not opened for writing */
	if (!ch->conn->can_write)
		return -EBADF;
	ret = emu_uverbs_write(uf, ch->cl->pid == ch->conn->cl->pid,
			       payload + sizeof(w), len - sizeof(w), w.count);
	emu_trace("ufile %u pid %u: write of %llu bytes -> %d", uf->serial,
		  pid, (unsigned long long)w.count, ret);
	return ret;
}

static bool header_ok(const struct emu_wire_req *req)
{
	return req->magic == EMU_WIRE_MAGIC && !req->reserved &&
	       req->len <= EMU_WIRE_MAX_REQ &&
	       req->seq != EMU_WIRE_SEQ_REFUSED;
}

/* The reply to seq is in the page: the client may take it. */
static void page_publish(struct emu_wire_shm *sh, uint32_t seq)
{
	/* sequentially consistent both: see wire.h */
	__atomic_store_n(&sh->rep_seq, seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sh->client_waits, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &sh->rep_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/*
 * Answers a request that came in the page: in the page, or on the socket
 * when the reply has fds or does not fit (the page says so).
 */
static bool page_reply(struct chan *ch, uint32_t seq, int ret,
		       struct emu_reply *rep)
{
	struct emu_wire_shm *sh = ch->shm;
	struct emu_wire_rep hdr = {
		.magic = EMU_WIRE_MAGIC, .ret = ret, .len = (uint32_t)rep->len,
		.seq = seq,
	};

	if (rep->nfds || rep->len > EMU_WIRE_SHM_DATA) {
		hdr.len = 0;
		hdr.reserved = EMU_WIRE_SHM_ON_SOCKET;
		sh->rep = hdr;
		page_publish(sh, seq);
		return send_reply(ch, seq, ret, rep, NULL, 0);
	}
	if (rep->len)
		memcpy(sh->rep_data, rep->buf, rep->len);
	sh->rep = hdr;
	page_publish(sh, seq);
	return true;
}

static bool page_serve(struct chan *ch);

/*
 * Executes a complete request and answers it where it came from: on the
 * socket, or in the page (in_page).
 */
static bool execute(struct chan *ch, const struct emu_wire_req *req,
		    const uint8_t *payload, bool in_page)
{
	struct emu_ufile *uf = ch->conn->uf;
	struct emu_wire_mmap_rep mrep = {};
	struct emu_reply rep = {};
	size_t extra = 0;
	bool ok;
	int ret;

	switch (req->kind) {
	case EMU_WIRE_IOCTL:
		ret = emu_uverbs_ioctl(uf, payload, req->len, &rep);
		emu_trace_ioctl(uf, req->pid, payload, req->len, ret);
		break;
	case EMU_WIRE_MMAP:
		ret = run_mmap(ch->conn, payload, req->len, req->pid, &rep,
			       &mrep);
		if (!ret)
			extra = sizeof(mrep);
		break;
	case EMU_WIRE_WRITE:
		ret = run_write(ch, payload, req->len, req->pid);
		break;
	case EMU_WIRE_READ:
		/* vfs_read(): not opened for reading, then no .read */
		ret = ch->conn->can_read ? -EINVAL : -EBADF;
		break;
	case EMU_WIRE_PING:
		ret = 0;
		break;
	case EMU_WIRE_DOORBELL:
		/* nothing to answer here: the page has the request */
		return !req->len && page_serve(ch);
	default:
		/* what an unknown ioctl command gets */
		ret = -ENOTTY;
		break;
	}
	ok = in_page ? page_reply(ch, req->seq, ret, &rep) :
		       send_reply(ch, req->seq, ret, &rep, &mrep, extra);
	emu_reply_free(&rep);
	d.hot = ch;
	d.served++;
	return ok;
}

/*
 * Serves the request in ch's page if there is a new one.  False when the
 * channel is to be closed: no page, or a request that breaks the protocol.
 * Only what was copied out of the page is looked at: the client may
 * write it at any time.
 */
static bool page_serve(struct chan *ch)
{
	static uint8_t payload[EMU_WIRE_SHM_DATA];	/* one thread */
	struct emu_wire_shm *sh = ch->shm;
	struct emu_wire_req req;
	uint32_t seq;

	if (!sh)
		return false;
	seq = __atomic_load_n(&sh->req_seq, __ATOMIC_SEQ_CST);
	/* nothing new, or the last reply is still going out */
	if (seq == ch->shm_seq || ch->out)
		return true;
	memcpy(&req, &sh->req, sizeof(req));
	if (!header_ok(&req) || req.kind != EMU_WIRE_IOCTL || req.seq != seq ||
	    req.len > EMU_WIRE_SHM_DATA)
		return false;
	ch->shm_seq = seq;
	memcpy(payload, sh->req_data, req.len);
	return execute(ch, &req, payload, true);
}

/* Stops reading ch until its client's buffered bytes go down. */
static void wait_budget(struct chan *ch)
{
	ch->wnext = ch->cl->waiting;
	ch->cl->waiting = ch;
	watch(ch, 0);
}

/*
 * Room for more of the payload: it grows with what arrives, not with
 * what the header announces, so half a request costs what was sent.
 * Returns 1 grown, 0 to wait for the client's budget, -1 no memory.
 */
static int payload_grow(struct chan *ch, size_t need)
{
	size_t cap = ch->payload_cap ? ch->payload_cap * 2 : EMU_INLINE_REQ;
	uint8_t *p;

	if (cap < need)
		cap = need;
	if (cap > ch->req.len)
		cap = ch->req.len ? ch->req.len : 1;
	if (ch->payload_cap && ch->cl->bytes + (cap - ch->payload_cap) >
	    EMU_CLIENT_MAX_BYTES)
		return 0;
	p = realloc(ch->payload, cap);
	if (!p)
		return -1;
	charge(ch, cap - ch->payload_cap);
	ch->payload = p;
	ch->payload_cap = cap;
	return 1;
}

/*
 * Reads and serves requests on ch while its bytes are there.  False when
 * the channel is to be closed: EOF, an error, a frame that breaks the
 * protocol (whose framing can then no longer be trusted), or a client
 * that sent its next request before reading the reply.
 */
static bool chan_read(struct chan *ch)
{
	uint8_t buf[sizeof(struct emu_wire_req) + EMU_INLINE_REQ];

	for (;;) {
		size_t want, extra;
		ssize_t n;
		int r;

		if (ch->out)
			return true;	/* one request in flight */
		if (ch->req_got < sizeof(ch->req)) {
			/* the header, and with it usually the whole payload */
			want = sizeof(ch->req) - ch->req_got;
			/*
			 * Where the page carries the requests, a doorbell may
			 * come before the last one was read: the header alone.
			 */
			n = recv(ch->fd, buf,
				 want + (ch->shm ? 0 : EMU_INLINE_REQ),
				 MSG_DONTWAIT);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return true;
			if (n <= 0)
				return false;
			if ((size_t)n < want)
				want = (size_t)n;
			memcpy((uint8_t *)&ch->req + ch->req_got, buf, want);
			ch->req_got += want;
			if (ch->req_got < sizeof(ch->req))
				continue;
			if (!header_ok(&ch->req))
				return false;
			extra = (size_t)n - want;
			if (extra > ch->req.len)
				return false;
			ch->payload_got = 0;
			if (payload_grow(ch, extra) < 0)
				return false;
			memcpy(ch->payload, buf + want, extra);
			ch->payload_got = extra;
		} else if (ch->payload_got < ch->req.len) {
			if (ch->payload_got == ch->payload_cap) {
				r = payload_grow(ch, 0);
				if (r < 0)
					return false;
				if (!r) {
					wait_budget(ch);
					return true;
				}
			}
			n = recv(ch->fd, ch->payload + ch->payload_got,
				 ch->payload_cap - ch->payload_got,
				 MSG_DONTWAIT);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return true;
			if (n <= 0)
				return false;
			ch->payload_got += (size_t)n;
		}
		if (ch->payload_got < ch->req.len)
			continue;
		if (!execute(ch, &ch->req, ch->payload, false))
			return false;
		free(ch->payload);
		ch->payload = NULL;
		ch->req_got = 0;
		uncharge(ch, ch->payload_cap);
		ch->payload_cap = 0;
	}
}

static void on_chan(struct chan *ch, uint32_t events)
{
	if ((events & EPOLLOUT) && ch->out) {
		if (!flush_out(ch)) {
			chan_close(ch);
			return;
		}
		if (!ch->out)
			watch(ch, EPOLLIN);
	}
	if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) &&
	    (ch->events & EPOLLIN)) {
		if (!chan_read(ch))
			chan_close(ch);
		return;
	}
	/* the client hung up while we were not reading */
	if (events & (EPOLLHUP | EPOLLERR))
		chan_close(ch);
}

/* A channel the daemon will not serve: say why, then hang up. */
static void refuse(int fd)
{
	struct emu_wire_rep hdr = {
		.magic = EMU_WIRE_MAGIC, .ret = -EMFILE,
		.seq = EMU_WIRE_SEQ_REFUSED,
	};

	send(fd, &hdr, sizeof(hdr), MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

/*
 * Maps the page a client passed for ch, if it is one the daemon can
 * trust not to fault under it (a memfd sealed against shrinking, as big
 * as wire.h says) and the client's byte budget holds it; a channel
 * without one is served by its socket alone.  The fd is closed either
 * way: the mapping is all the daemon keeps.
 */
static void page_attach(struct chan *ch, int page)
{
	struct stat st;
	void *p;
	int seals;

	seals = fcntl(page, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(page, &st) ||
	    !S_ISREG(st.st_mode) || st.st_size < EMU_WIRE_SHM_BYTES ||
	    ch->cl->bytes + EMU_WIRE_SHM_BYTES > EMU_CLIENT_MAX_BYTES) {
		close(page);
		return;
	}
	p = mmap(NULL, EMU_WIRE_SHM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		 page, 0);
	close(page);
	if (p == MAP_FAILED)
		return;
	/* shm_seq 0: a new page's, the client's first request is 1 */
	ch->shm = p;
	charge(ch, EMU_WIRE_SHM_BYTES);
}

/* Serves channel fd of connection c, with its page if page >= 0. */
static void add_chan(struct conn *c, int fd, int page)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct client *cl;
	struct chan *ch;
	int type = 0;
	socklen_t tlen = sizeof(type);

	/* only a stream socket can be a channel */
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) ||
	    type != SOCK_STREAM) {
		close(fd);
		goto no_page;
	}
	cl = client_get(fd);
	if (!cl) {
		close(fd);
		goto no_page;
	}
	if (!fd_allowed(cl)) {
		emu_trace("ufile %u pid %d: channel refused (%u fds held)",
			  c->uf->serial, (int)cl->pid, cl->nfds);
		refuse(fd);
		client_put(cl);
		goto no_page;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		close(fd);
		client_put(cl);
		goto no_page;
	}
	ch->it.kind = IT_CHAN;
	ch->fd = fd;
	ch->conn = c;
	ch->cl = cl;
	ch->events = EPOLLIN;
	ev.data.ptr = ch;
	if (epoll_ctl(d.ep, EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		free(ch);
		client_put(cl);
		goto no_page;
	}
	ch->next = c->chans;
	if (ch->next)
		ch->next->pprev = &ch->next;
	ch->pprev = &c->chans;
	c->chans = ch;
	cl->nfds++;
	d.nfds++;
	if (page >= 0)
		page_attach(ch, page);
	return;
no_page:
	if (page >= 0)
		close(page);
}

/*
 * The first message on a connection may say the file's access mode
 * (wire.h's emu_wire_open); anything else, or anything later, leaves
 * the mode as it is.
 */
static void conn_open_msg(struct conn *c, const struct emu_wire_open *op,
			  size_t n)
{
	bool first = !c->first_seen;

	c->first_seen = true;
	if (!first || n != sizeof(*op) || op->magic != EMU_WIRE_MAGIC ||
	    op->version != EMU_WIRE_VERSION || op->reserved)
		return;
	switch (op->accmode) {
	case O_RDONLY:
		c->can_write = false;
		break;
	case O_WRONLY:
		c->can_read = false;
		break;
	}
}

/*
 * Whether the other end of a connection hung up.  recvmsg() returns 0
 * both at the end and for an empty message, which any holder of the fd
 * may send (write(fd, "", 0) on a SOCK_SEQPACKET socket): that one must
 * not close the file for everyone.
 */
static bool peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	return poll(&p, 1, 0) != 0;
}

/*
 * Tokens from a ufile connection, each carrying a channel to serve.
 * Returns false on EOF: every fd of the ufile is closed.
 */
static bool conn_read(struct conn *c)
{
	unsigned int i;

	for (i = 0; i < EMU_BATCH; i++) {
		char cbuf[CMSG_SPACE(4 * sizeof(int))];
		union {
			struct emu_wire_token tok;
			struct emu_wire_open op;
		} u;
		struct emu_wire_token tok;
		struct emu_wire_open op;
		struct iovec iov = { .iov_base = &u, .iov_len = sizeof(u) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		int fds[2] = { -1, -1 };
		unsigned int nfds;
		ssize_t n;

		n = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (n < 0)
			return errno == EAGAIN || errno == EINTR;
		memcpy(&tok, &u, sizeof(tok));
		memcpy(&op, &u, sizeof(op));
		/* an empty message is not the end: see peer_gone() */
		if (n == 0 && peer_gone(c->fd))
			return false;
		/* a channel and its page per token: other fds are dropped */
		nfds = emu_wire_take_fds(&msg, fds, 2);
		if (!nfds) {
			conn_open_msg(c, &op, (size_t)n);
			continue;
		}
		c->first_seen = true;
		if (n != sizeof(tok) || tok.magic != EMU_WIRE_MAGIC ||
		    tok.version != EMU_WIRE_VERSION ||
		    (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
			close(fds[0]);
			if (nfds > 1)
				close(fds[1]);
			continue;
		}
		add_chan(c, fds[0], nfds > 1 ? fds[1] : -1);
	}
	return true;
}

/*
 * Out of descriptors with connections queued: accept one on the reserve
 * and close it, so the queue drains instead of waking the loop forever.
 * With no reserve left, stop listening until a descriptor is released.
 */
static void shed(int lfd)
{
	int fd;

	if (d.reserve >= 0) {
		close(d.reserve);
		d.reserve = -1;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			close(fd);
		d.reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && d.reserve >= 0)
			return;
	}
	listen_all(0);
}

static void on_listen(struct listener *l)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned int i;

	for (i = 0; i < EMU_BATCH && !d.listeners_paused; i++) {
		struct client *cl;
		struct conn *c;
		int fd;

		fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM)
				shed(l->fd);
			return;
		}
		cl = client_get(fd);
		if (!cl || !fd_allowed(cl)) {
			emu_trace("mlx5_%u: connection of pid %d shed", l->dev,
				  cl ? (int)cl->pid : 0);
			close(fd);
			if (cl)
				client_put(cl);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (c)
			c->uf = emu_ufile_new(&d.devices[l->dev]);
		ev.data.ptr = c;
		if (!c || !c->uf ||
		    epoll_ctl(d.ep, EPOLL_CTL_ADD, fd, &ev)) {
			if (c && c->uf)
				ufile_put(c->uf);
			free(c);
			close(fd);
			client_put(cl);
			continue;
		}
		c->it.kind = IT_CONN;
		c->fd = fd;
		c->cl = cl;
		c->can_read = c->can_write = true;
		cl->nfds++;
		d.nfds++;
		emu_trace("mlx5_%u: open, ufile %u", l->dev, c->uf->serial);
	}
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	remove(path);
	return 0;
}

void emu_remove_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int listen_on(const char *dir, unsigned int i)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/uverbs%u", dir,
		     i) >= (int)sizeof(sa.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(sa.sun_path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, SOMAXCONN)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Up to the hard limit: descriptors are what clients take from us. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int setup(const char *dir, unsigned int ndev, int *sfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	static struct item sig_item = { .kind = IT_SIGNAL };
	sigset_t term;
	unsigned int i;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &term, NULL))
		return -1;
	*sfd = signalfd(-1, &term, SFD_CLOEXEC | SFD_NONBLOCK);
	d.ep = epoll_create1(EPOLL_CLOEXEC);
	if (*sfd < 0 || d.ep < 0)
		return -1;
	ev.data.ptr = &sig_item;
	if (epoll_ctl(d.ep, EPOLL_CTL_ADD, *sfd, &ev))
		return -1;
	raise_fd_limit();
	d.reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
	emu_trace_init();
	d.ndev = ndev;
	d.devices = calloc(ndev, sizeof(*d.devices));
	d.listeners = calloc(ndev, sizeof(*d.listeners));
	if (!d.devices || !d.listeners)
		return -1;
	for (i = 0; i < ndev; i++) {
		struct listener *l = &d.listeners[i];

		if (emu_device_init(&d.devices[i], i)) {
			fprintf(stderr, "mlx5-emu: cannot set up device %u\n",
				i);
			return -1;
		}
		l->it.kind = IT_LISTEN;
		l->dev = i;
		l->fd = listen_on(dir, i);
		if (l->fd < 0) {
			fprintf(stderr, "mlx5-emu: cannot listen in %s: %s\n",
				dir, strerror(errno));
			return -1;
		}
		ev.data.ptr = l;
		if (epoll_ctl(d.ep, EPOLL_CTL_ADD, l->fd, &ev))
			return -1;
	}
	return 0;
}

/*
 * Says in ch's page whether the daemon polls it (the client rings only
 * when not), then serves what the page holds: a request written while the
 * flag was still up gets no doorbell.  Closes ch if the page breaks the
 * protocol.
 */
static void page_poll_flag(struct chan *ch, uint32_t polls)
{
	d.polled = polls ? ch : NULL;
	__atomic_store_n(&ch->shm->daemon_polls, polls, __ATOMIC_SEQ_CST);
	if (!page_serve(ch))
		chan_close(ch);
}

/* Stops polling the page polled last: its client rings again. */
static void page_unpoll(void)
{
	if (d.polled)
		page_poll_flag(d.polled, 0);
}

/* Polls the hot channel once: its page, else its socket. */
static void poll_hot(struct chan *ch)
{
	if (!ch->shm) {
		on_chan(ch, EPOLLIN);
		return;
	}
	if (d.polled == ch) {
		if (!page_serve(ch))
			chan_close(ch);
		return;
	}
	page_unpoll();
	if (!ch->it.dead)
		page_poll_flag(ch, 1);
}

/*
 * epoll_wait() that first polls for up to EMU_WIRE_SPIN_NS while the
 * waits before were that short: a client calling back to back finds the
 * daemon awake, and neither side pays a wake-up.  The polling looks at
 * the channel served last, as that is where the next request usually
 * comes (its page, where it has one: no system call at all), and asks
 * epoll for the others every EMU_SPIN_EPOLL tries, so they are not kept
 * waiting.  A client that calls less often, or none, turns the polling
 * off after one window.
 */
#define EMU_SPIN_EPOLL 8

static int wait_events(struct epoll_event *evs, int max)
{
	static struct emu_spin spin;
	uint64_t start = emu_wire_now_ns();
	unsigned int tries = 0;
	unsigned long served;
	int n;

	while (!spin.off) {
		if (d.hot && ++tries % EMU_SPIN_EPOLL) {
			served = d.served;
			poll_hot(d.hot);
			if (d.served != served) {
				start = emu_wire_now_ns();
				continue;
			}
			emu_wire_relax();
		} else {
			n = epoll_wait(d.ep, evs, max, 0);
			if (n)
				return n;
			sched_yield();	/* a client may need this CPU */
		}
		emu_spin_more(&spin, start);
	}
	page_unpoll();
	n = epoll_wait(d.ep, evs, max, -1);
	emu_spin_learn(&spin, start);
	return n;
}

int emu_daemon_run(const char *dir, unsigned int ndev, int ready_fd)
{
	struct epoll_event evs[64];
	int sfd, n, i;

	if (setup(dir, ndev, &sfd))
		return 1;
	if (ready_fd >= 0) {
		if (write(ready_fd, "r", 1) != 1)
			return 1;
		close(ready_fd);
	}
	for (;;) {
		n = wait_events(evs, 64);
		if (n < 0 && errno != EINTR)
			return 1;
		for (i = 0; i < n; i++) {
			struct item *it = evs[i].data.ptr;

			if (it->dead)
				continue;
			switch (it->kind) {
			case IT_SIGNAL:
				/* SIGTERM: the launcher is gone */
				emu_remove_tree(dir);
				return 0;
			case IT_LISTEN:
				on_listen((struct listener *)it);
				break;
			case IT_CONN:
				if (!conn_read((struct conn *)it))
					conn_close((struct conn *)it);
				break;
			case IT_CHAN:
				on_chan((struct chan *)it, evs[i].events);
				break;
			}
		}
		while (d.grave) {
			struct item *it = d.grave;

			d.grave = it->grave;
			free(it);
		}
	}
}
