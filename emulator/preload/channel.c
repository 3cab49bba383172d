// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Per-thread channels to the daemon (see channel.h and wire/wire.h).
 *
 * Each thread keeps a few slots in thread-local storage.  The slots are
 * used by their own thread only; the one lock here guards what another
 * thread may look at: the list of every thread's slots, which fork()'s
 * child walks to close what it inherited, and the slot contents while
 * a channel is made or dropped.
 */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "channel.h"
#include "preload.h"
#include "wire.h"
#include "wire_io.h"

/* devices one thread talks to at once without re-making channels */
#define CHAN_SLOTS 8

struct chan_slot {
	int fd;			/* the device fd; -1: slot free */
	dev_t conn_dev;		/* the connection fd was at registration */
	ino_t conn_ino;
	int chan;		/* our end of the channel */
	ino_t chan_ino;
	struct emu_wire_shm *shm;	/* its shared page, or NULL */
	int dev;		/* device index */
	uint32_t seq;
	bool busy;		/* lent to a call */
	unsigned int used;	/* for choosing a slot to reuse */
};

struct chan_cache {
	struct chan_slot slot[CHAN_SLOTS];
	struct chan_cache *next;
	bool linked;		/* on the list, destructor armed */
	unsigned int tick;
	/* what emu_chan_fd_dev() last read, for the call that follows */
	int last_fd;
	dev_t last_dev;
	ino_t last_ino;
	int last_devidx;
};

static __thread struct chan_cache tls
	__attribute__((tls_model("initial-exec")));

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct chan_cache *caches;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static bool have_key;

static int (*real_fstat)(int, struct stat *);
static pid_t self;	/* 0: not known yet (or a new child) */

static int do_fstat(int fd, struct stat *st)
{
	if (!real_fstat)
		real_fstat = (int (*)(int, struct stat *))emu_real("fstat");
	if (!real_fstat) {
		errno = ENOSYS;
		return -1;
	}
	return real_fstat(fd, st);
}

static void slot_clear(struct chan_slot *s)
{
	if (s->chan >= 0)
		close(s->chan);
	if (s->shm)
		munmap(s->shm, EMU_WIRE_SHM_BYTES);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->chan = -1;
}

static void cache_init(struct chan_cache *c)
{
	unsigned int i;

	for (i = 0; i < CHAN_SLOTS; i++) {
		c->slot[i].fd = -1;
		c->slot[i].chan = -1;
	}
	c->last_fd = -1;
}

/* A thread ends: its channels close, the daemon forgets them. */
static void thread_exit(void *arg)
{
	struct chan_cache *c = arg, **pp;
	unsigned int i;

	pthread_mutex_lock(&lock);
	for (pp = &caches; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	for (i = 0; i < CHAN_SLOTS; i++)
		if (c->slot[i].fd >= 0 || c->slot[i].chan >= 0)
			slot_clear(&c->slot[i]);
	c->linked = false;
	pthread_mutex_unlock(&lock);
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

/*
 * The child shares every channel with the parent's threads: using one
 * would read their replies.  Close them all; the child makes its own.
 */
static void fork_child(void)
{
	struct chan_cache *c, *next;
	unsigned int i;

	for (c = caches; c; c = next) {
		next = c->next;
		for (i = 0; i < CHAN_SLOTS; i++)
			if (c->slot[i].fd >= 0 || c->slot[i].chan >= 0)
				slot_clear(&c->slot[i]);
		c->linked = false;
		c->next = NULL;
	}
	caches = NULL;
	tls.last_fd = -1;
	__atomic_store_n(&self, 0, __ATOMIC_RELAXED);
	/* taken by this very thread in fork_prepare() */
	pthread_mutex_unlock(&lock);
}

static void init_once(void)
{
	have_key = !pthread_key_create(&exit_key, thread_exit);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

pid_t emu_self_pid(void)
{
	pid_t p = __atomic_load_n(&self, __ATOMIC_RELAXED);

	if (!p) {
		/* the fork handler that forgets it must be in place first */
		pthread_once(&once, init_once);
		p = getpid();
		__atomic_store_n(&self, p, __ATOMIC_RELAXED);
	}
	return p;
}

/* Puts this thread's slots on the list; false if that cannot be done. */
static bool cache_link(void)
{
	pthread_once(&once, init_once);
	if (!have_key)
		return false;
	if (tls.linked)
		return true;
	if (pthread_setspecific(exit_key, &tls))
		return false;
	if (!tls.tick)
		cache_init(&tls);
	tls.next = caches;
	caches = &tls;
	tls.linked = true;
	return true;
}

/* 0, or -2: fd is no socket (or no fd), so no device */
static int identify(int fd, dev_t *dev, ino_t *ino)
{
	struct stat st;

	if (do_fstat(fd, &st) || !S_ISSOCK(st.st_mode))
		return -2;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

static struct chan_slot *find(int fd, dev_t dev, ino_t ino)
{
	unsigned int i;

	if (!tls.linked)
		return NULL;
	for (i = 0; i < CHAN_SLOTS; i++) {
		struct chan_slot *s = &tls.slot[i];

		if (s->fd == fd && s->conn_dev == dev && s->conn_ino == ino)
			return s;
	}
	return NULL;
}

int emu_chan_fd_dev(int fd)
{
	struct chan_slot *s;
	dev_t dev;
	ino_t ino;
	int r;

	tls.last_fd = -1;
	r = identify(fd, &dev, &ino);
	if (r)
		return r;
	tls.last_fd = fd;
	tls.last_dev = dev;
	tls.last_ino = ino;
	tls.last_devidx = -1;
	s = find(fd, dev, ino);
	if (!s)
		return -1;
	tls.last_devidx = s->dev;
	return s->dev;
}

void emu_chan_note_dev(int fd, int dev)
{
	if (tls.last_fd == fd)
		tls.last_devidx = dev;
}

/*
 * Sends the token that has the daemon serve chan on connection fd, with
 * the channel's page if page >= 0.
 */
static int send_token(int fd, int chan, int page)
{
	struct emu_wire_token tok = { EMU_WIRE_MAGIC, EMU_WIRE_VERSION };
	struct iovec iov = { .iov_base = &tok, .iov_len = sizeof(tok) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	int fds[2] = { chan, page };
	ssize_t n;

	emu_wire_attach_fds(&msg, cbuf, fds, page >= 0 ? 2 : 1);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };

		n = emu_wire_sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n == sizeof(tok))
			return 0;
		/* a device fd the application made non-blocking */
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
		    (poll(&p, 1, -1) >= 0 || errno == EINTR))
			continue;
		if (n < 0 && (errno == EMFILE || errno == ENFILE ||
			      errno == ENOBUFS || errno == ENOMEM))
			return -errno;
		/* the daemon is gone, or hung up on this connection */
		return -EIO;
	}
}

/*
 * A shared page for a channel (wire.h), sealed so that nobody can shrink
 * it under the daemon's mapping: its fd, mapped at *shm; -1 when this
 * process cannot make one, and the channel then does without.
 */
static int page_make(struct emu_wire_shm **shm)
{
	void *p;
	int fd;

	fd = memfd_create("mlx5-emu-channel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, EMU_WIRE_SHM_BYTES) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		goto fail;
	p = mmap(NULL, EMU_WIRE_SHM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	*shm = p;
	return fd;
fail:
	close(fd);
	return -1;
}

/*
 * A new channel registered on connection fd, with a shared page if shm
 * is not NULL (and one can be made): 0 or -errno.
 */
static int chan_make(int fd, int *chan, ino_t *chan_ino,
		     struct emu_wire_shm **shm)
{
	struct emu_wire_shm *page = NULL;
	struct stat st;
	int sp[2], ret, pfd = -1;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp))
		return -errno;
	if (shm)
		pfd = page_make(&page);
	ret = send_token(fd, sp[1], pfd);
	close(sp[1]);
	if (pfd >= 0)
		close(pfd);
	if (!ret && do_fstat(sp[0], &st))
		ret = -errno;
	if (ret) {
		close(sp[0]);
		if (page)
			munmap(page, EMU_WIRE_SHM_BYTES);
		return ret;
	}
	*chan = sp[0];
	*chan_ino = st.st_ino;
	if (shm)
		*shm = page;
	return 0;
}

/* Slots whose device fd is gone or is another connection now. */
static void drop_stale(void)
{
	unsigned int i;

	for (i = 0; i < CHAN_SLOTS; i++) {
		struct chan_slot *s = &tls.slot[i];
		dev_t dev;
		ino_t ino;

		if (s->fd < 0 || s->busy)
			continue;
		if (identify(s->fd, &dev, &ino) || dev != s->conn_dev ||
		    ino != s->conn_ino)
			slot_clear(s);
	}
}

static struct chan_slot *pick_slot(void)
{
	struct chan_slot *best = NULL;
	unsigned int i;

	drop_stale();
	for (i = 0; i < CHAN_SLOTS; i++) {
		struct chan_slot *s = &tls.slot[i];

		if (s->busy)
			continue;
		if (s->fd < 0)
			return s;
		if (!best || s->used < best->used)
			best = s;
	}
	return best;
}

/* Our channel end still is the socket we made (nobody closed it). */
static bool chan_intact(const struct chan_slot *s)
{
	struct stat st;

	return !do_fstat(s->chan, &st) && S_ISSOCK(st.st_mode) &&
	       st.st_ino == s->chan_ino;
}

static uint32_t next_seq(uint32_t *seq)
{
	if (++*seq == EMU_WIRE_SEQ_REFUSED)
		++*seq;
	return *seq;
}

int emu_chan_get(int fd, struct emu_chan *ch)
{
	struct chan_slot *s;
	ino_t chan_ino;
	dev_t dev;
	ino_t ino;
	int ret, devidx = -1;

	ch->slot = NULL;
	ch->fd = -1;
	ch->shm = NULL;
	if (tls.last_fd == fd) {
		dev = tls.last_dev;
		ino = tls.last_ino;
		devidx = tls.last_devidx;
	} else if (identify(fd, &dev, &ino)) {
		return -EBADF;
	}
	tls.last_fd = -1;
	s = find(fd, dev, ino);
	if (s && !s->busy && !chan_intact(s)) {
		pthread_mutex_lock(&lock);
		s->chan = -1;	/* not ours any more: do not close it */
		slot_clear(s);
		pthread_mutex_unlock(&lock);
		s = NULL;
	}
	if (s && !s->busy) {
		if (devidx >= 0)
			s->dev = devidx;
		s->busy = true;
		s->used = ++tls.tick;
		ch->slot = s;
		ch->fd = s->chan;
		ch->shm = s->shm;
		ch->seq = next_seq(&s->seq);
		return 0;
	}
	if (!s) {
		/* keep it for the calls that follow */
		pthread_mutex_lock(&lock);
		s = cache_link() ? pick_slot() : NULL;
		if (s) {
			if (s->fd >= 0)
				slot_clear(s);
			s->busy = true;
		}
		pthread_mutex_unlock(&lock);
		if (s) {
			ret = chan_make(fd, &ch->fd, &chan_ino, &ch->shm);
			pthread_mutex_lock(&lock);
			if (ret) {
				slot_clear(s);
			} else {
				s->fd = fd;
				s->conn_dev = dev;
				s->conn_ino = ino;
				s->chan = ch->fd;
				s->chan_ino = chan_ino;
				s->shm = ch->shm;
				s->dev = devidx;
				s->used = ++tls.tick;
				ch->slot = s;
				ch->seq = next_seq(&s->seq);
			}
			pthread_mutex_unlock(&lock);
			return ret;
		}
	}
	/*
	 * The thread's channel for fd is lent already (a signal handler
	 * calling in the middle of a call) or no slot is free: a channel
	 * for this call alone.
	 */
	ret = chan_make(fd, &ch->fd, &chan_ino, NULL);
	ch->seq = 1;
	return ret;
}

void emu_chan_put(struct emu_chan *ch, bool broken)
{
	struct chan_slot *s = ch->slot;

	if (!s) {
		if (ch->fd >= 0)
			close(ch->fd);
		ch->fd = -1;
		return;
	}
	if (broken) {
		pthread_mutex_lock(&lock);
		slot_clear(s);
		pthread_mutex_unlock(&lock);
	} else {
		s->busy = false;
	}
	ch->slot = NULL;
	ch->fd = -1;
	ch->shm = NULL;
}
