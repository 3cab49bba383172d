// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon.h"
#include "emu_device.h"
#include "trace.h"
#include "uverbs.h"
#include "wire.h"
#include "wire_io.h"

/* A stuck client must not hold a worker forever. */
#define EMU_CHANNEL_TIMEOUT_S 30

static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static struct emu_device *devices;

struct conn {
	int fd;
	struct emu_ufile *uf;
};

struct work {
	int chan;
	struct emu_ufile *uf;
};

/* Drop one reference; the last one is the kernel's release of the file. */
static void ufile_put(struct emu_ufile *uf)
{
	if (--uf->refs == 0) {
		emu_trace("ufile %u: last close, destroying its objects",
			  uf->serial);
		emu_ufile_release(uf);
	}
}

/*
 * Sends the reply: the header with any fds first (a fresh channel always
 * has room for it), then the payload.  In the poll loop (nonblock) a
 * payload that does not fit at once is finished by a thread, so a slow
 * reader never holds up the daemon.  Returns true when the channel was
 * handed to such a thread.
 */
static bool send_reply(int chan, int ret, const struct emu_reply *rep,
		       const void *extra, size_t extra_len, bool nonblock);

struct tail {
	int chan;
	uint8_t *buf;
	size_t len;
};

static void *tail_writer(void *arg)
{
	struct tail *t = arg;
	struct timeval tv = { .tv_sec = EMU_CHANNEL_TIMEOUT_S };

	setsockopt(t->chan, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	emu_wire_write_full(t->chan, t->buf, t->len);
	close(t->chan);
	free(t->buf);
	free(t);
	return NULL;
}

static bool spawn(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	ret = pthread_create(&tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret == 0;
}

static bool send_reply(int chan, int ret, const struct emu_reply *rep,
		       const void *extra, size_t extra_len, bool nonblock)
{
	struct emu_wire_rep hdr = {
		.magic = EMU_WIRE_MAGIC, .ret = ret, .nfds = rep->nfds,
		.len = (uint32_t)(rep->len + extra_len),
	};
	char cbuf[CMSG_SPACE(sizeof(rep->fds))] = {};
	struct iovec iov[3] = {
		{ .iov_base = &hdr, .iov_len = sizeof(hdr) },
		{ .iov_base = rep->buf, .iov_len = rep->len },
		{ .iov_base = (void *)extra, .iov_len = extra_len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 3 };
	size_t total = sizeof(hdr) + rep->len + extra_len, done;
	struct tail *t;
	ssize_t n;

	if (rep->nfds)
		emu_wire_attach_fds(&msg, cbuf, rep->fds, rep->nfds);
	n = emu_wire_sendmsg(chan, &msg, MSG_NOSIGNAL |
			     (nonblock ? MSG_DONTWAIT : 0));
	if (n < (ssize_t)sizeof(hdr))
		return false;	/* the caller is gone: nothing to finish */
	done = (size_t)n;
	if (done == total)
		return false;
	/* what is left, contiguous */
	t = calloc(1, sizeof(*t));
	if (t)
		t->buf = malloc(total - done);
	if (!t || !t->buf) {
		free(t);
		return false;
	}
	t->chan = chan;
	t->len = total - done;
	{
		size_t off = 0, i, skip = done;

		for (i = 0; i < 3; i++) {
			size_t l = iov[i].iov_len;

			if (skip >= l) {
				skip -= l;
				continue;
			}
			memcpy(t->buf + off, (uint8_t *)iov[i].iov_base + skip,
			       l - skip);
			off += l - skip;
			skip = 0;
		}
	}
	if (!nonblock) {
		emu_wire_write_full(chan, t->buf, t->len);
		free(t->buf);
		free(t);
		return false;
	}
	if (!spawn(tail_writer, t)) {
		free(t->buf);
		free(t);
		return false;
	}
	return true;
}

/* mlx5_ib_mmap() for the caller: a memfd to map, or the errno */
static int run_mmap(struct emu_ufile *uf, const uint8_t *payload,
		    size_t len, uint32_t pid, struct emu_reply *rep)
{
	struct emu_wire_mmap req;
	int ret, fd = -1;

	if (len != sizeof(req))
		return -EINVAL;
	memcpy(&req, payload, sizeof(req));
	pthread_mutex_lock(&model_lock);
	ret = emu_mlx5_mmap(uf, req.offset, req.length, req.prot, &fd);
	if (!ret) {
		fd = dup(fd);
		if (fd < 0)
			ret = -errno;
	}
	emu_trace("ufile %u pid %u: mmap offset 0x%llx len %llu -> %d",
		  uf->serial, pid, (unsigned long long)req.offset,
		  (unsigned long long)req.length, ret);
	pthread_mutex_unlock(&model_lock);
	if (!ret) {
		rep->fds[0] = fd;
		rep->nfds = 1;
	}
	return ret;
}

/* Executes one request and answers it; true if a thread took chan. */
static bool execute(int chan, struct emu_ufile *uf,
		    const struct emu_wire_req *req, const uint8_t *payload,
		    bool nonblock)
{
	struct emu_wire_mmap_rep mrep = {};
	struct emu_reply rep = {};
	size_t extra = 0;
	bool handed;
	int ret;

	switch (req->kind) {
	case EMU_WIRE_IOCTL:
		pthread_mutex_lock(&model_lock);
		ret = emu_uverbs_ioctl(uf, payload, req->len, &rep);
		emu_trace_ioctl(uf, req->pid, payload, req->len, ret);
		pthread_mutex_unlock(&model_lock);
		break;
	case EMU_WIRE_MMAP:
		ret = run_mmap(uf, payload, req->len, req->pid, &rep);
		if (!ret)
			extra = sizeof(mrep);
		break;
	case EMU_WIRE_PING:
		ret = 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	handed = send_reply(chan, ret, &rep, &mrep, extra, nonblock);
	emu_reply_free(&rep);
	return handed;
}

/* a worker: the request did not arrive in one piece, wait for it */
static void serve(struct work *w)
{
	struct timeval tv = { .tv_sec = EMU_CHANNEL_TIMEOUT_S };
	struct emu_wire_req req;
	uint8_t *payload = NULL;

	setsockopt(w->chan, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(w->chan, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (emu_wire_read_full(w->chan, &req, sizeof(req)) ||
	    req.magic != EMU_WIRE_MAGIC || req.len > EMU_WIRE_MAX_REQ)
		return;
	payload = malloc(req.len ? req.len : 1);
	if (payload && !emu_wire_read_full(w->chan, payload, req.len))
		execute(w->chan, w->uf, &req, payload, false);
	free(payload);
}

static void *worker(void *arg)
{
	struct work *w = arg;

	serve(w);
	close(w->chan);
	pthread_mutex_lock(&model_lock);
	ufile_put(w->uf);
	pthread_mutex_unlock(&model_lock);
	free(w);
	return NULL;
}

/*
 * The common case, in the poll loop itself: the caller wrote its whole
 * request before passing the channel, so it can be read without waiting.
 * Returns 1 when served (chan consumed), 0 when a worker must wait for
 * the rest, -1 for a request to drop.
 */
static int serve_now(int chan, struct emu_ufile *uf)
{
	struct emu_wire_req req;
	uint8_t *payload;
	int avail = 0;
	ssize_t n;

	if (ioctl(chan, FIONREAD, &avail) || avail < (int)sizeof(req))
		return 0;
	n = recv(chan, &req, sizeof(req), MSG_PEEK | MSG_DONTWAIT);
	if (n != sizeof(req))
		return 0;
	if (req.magic != EMU_WIRE_MAGIC || req.len > EMU_WIRE_MAX_REQ)
		return -1;
	if ((size_t)avail < sizeof(req) + req.len)
		return 0;
	payload = malloc(sizeof(req) + req.len);
	if (!payload)
		return -1;
	n = recv(chan, payload, sizeof(req) + req.len, MSG_DONTWAIT);
	if (n != (ssize_t)(sizeof(req) + req.len)) {
		free(payload);
		return -1;
	}
	if (!execute(chan, uf, &req, payload + sizeof(req), true))
		close(chan);
	free(payload);
	return 1;
}

/*
 * One token from a ufile connection: 1 on a request started, 0 on a
 * message to ignore, -1 on EOF (every fd of the ufile is closed).
 */
static int take_token(struct conn *c)
{
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct emu_wire_token tok;
	struct iovec iov = { .iov_base = &tok, .iov_len = sizeof(tok) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	int chan = -1;
	struct work *w;
	ssize_t n;

	n = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0)
		return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
	if (n == 0)
		return -1;
	/* one channel per token: any other fd is dropped */
	if (!emu_wire_take_fds(&msg, &chan, 1))
		return 0;
	if (n != sizeof(tok) || tok.magic != EMU_WIRE_MAGIC ||
	    (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		close(chan);
		return 0;
	}
	switch (serve_now(chan, c->uf)) {
	case 1:
		return 1;
	case -1:
		close(chan);
		return 1;
	}
	w = malloc(sizeof(*w));
	if (!w) {
		close(chan);
		return 0;
	}
	w->chan = chan;
	w->uf = c->uf;
	pthread_mutex_lock(&model_lock);
	c->uf->refs++;
	pthread_mutex_unlock(&model_lock);
	if (!spawn(worker, w)) {
		/* no thread: the caller sees EOF on its channel */
		close(chan);
		pthread_mutex_lock(&model_lock);
		ufile_put(c->uf);
		pthread_mutex_unlock(&model_lock);
		free(w);
	}
	return 1;
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
	    listen(fd, 128)) {
		close(fd);
		return -1;
	}
	return fd;
}

int emu_daemon_run(const char *dir, unsigned int ndev, int ready_fd)
{
	struct pollfd *pfd = NULL;
	struct conn *conns = NULL;
	size_t nconn = 0, cap = 0;
	int *lfd, sfd;
	unsigned int i;
	sigset_t term;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &term, NULL))
		return 1;
	sfd = signalfd(-1, &term, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return 1;
	emu_trace_init();
	devices = calloc(ndev, sizeof(*devices));
	lfd = calloc(ndev, sizeof(*lfd));
	if (!devices || !lfd)
		return 1;
	for (i = 0; i < ndev; i++) {
		if (emu_device_init(&devices[i], i)) {
			fprintf(stderr, "mlx5-emu: cannot set up device %u\n",
				i);
			return 1;
		}
		lfd[i] = listen_on(dir, i);
		if (lfd[i] < 0) {
			fprintf(stderr, "mlx5-emu: cannot listen in %s: %s\n",
				dir, strerror(errno));
			return 1;
		}
	}
	if (ready_fd >= 0) {
		if (write(ready_fd, "r", 1) != 1)
			return 1;
		close(ready_fd);
	}

	for (;;) {
		size_t n = ndev + nconn, k;

		pfd = realloc(pfd, (n + 1) * sizeof(*pfd));
		if (!pfd)
			return 1;
		/* the last slot: SIGTERM, the launcher is gone */
		pfd[n] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (i = 0; i < ndev; i++)
			pfd[i] = (struct pollfd){ .fd = lfd[i],
						  .events = POLLIN };
		for (k = 0; k < nconn; k++)
			pfd[ndev + k] = (struct pollfd){ .fd = conns[k].fd,
							 .events = POLLIN };
		if (poll(pfd, n + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (pfd[n].revents & POLLIN) {
			emu_remove_tree(dir);
			return 0;
		}
		for (i = 0; i < ndev; i++) {
			int cfd;

			if (!(pfd[i].revents & POLLIN))
				continue;
			cfd = accept4(lfd[i], NULL, NULL,
				      SOCK_CLOEXEC | SOCK_NONBLOCK);
			if (cfd < 0)
				continue;
			if (nconn == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct conn *nc = realloc(conns,
							  ncap * sizeof(*nc));

				if (!nc) {
					close(cfd);
					continue;
				}
				conns = nc;
				cap = ncap;
			}
			pthread_mutex_lock(&model_lock);
			conns[nconn].uf = emu_ufile_new(&devices[i]);
			pthread_mutex_unlock(&model_lock);
			if (!conns[nconn].uf) {
				close(cfd);
				continue;
			}
			conns[nconn].fd = cfd;
			emu_trace("mlx5_%u: open, ufile %u", i,
				  conns[nconn].uf->serial);
			nconn++;
		}
		/* walk backwards: closed connections are swapped out */
		for (k = n - ndev; k-- > 0;) {
			int r;

			if (!(pfd[ndev + k].revents &
			      (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* drain a few tokens per wakeup */
			do {
				r = take_token(&conns[k]);
			} while (r == 1);
			if (r < 0) {
				close(conns[k].fd);
				pthread_mutex_lock(&model_lock);
				ufile_put(conns[k].uf);
				pthread_mutex_unlock(&model_lock);
				conns[k] = conns[--nconn];
			}
		}
	}
}
