// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The client half of the protocol in wire/wire.h: opening a device,
 * marshalling an ioctl the way the kernel reads it (the header, the
 * attribute array, and for each PTR_IN attribute longer than 8 bytes the
 * user buffer it points at), and writing back what the kernel would have
 * written: outputs, attribute flags, new handles and fds, the errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(p, l) ((void)(p), (void)(l))
#endif

#include "channel.h"
#include "preload.h"
#include "uapi_spec.h"
#include "wire.h"
#include "wire_io.h"

#define DEV_PREFIX "/dev/infiniband/uverbs"
#define EMU_BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

static const char *emu_dir(void)
{
	static const char *dir;
	static bool done;

	if (!done) {
		dir = getenv("MLX5_EMU_DIR");
		if (dir && !*dir)
			dir = NULL;
		done = true;
	}
	return dir;
}

static int parse_index(const char *s)
{
	long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

static bool dev_exists(int dev)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 16];
	struct stat st;
	int (*real_stat)(const char *, struct stat *) =
		(int (*)(const char *, struct stat *))emu_real("stat");

	snprintf(path, sizeof(path), "%s/uverbs%d", emu_dir(), dev);
	return real_stat && !real_stat(path, &st) && S_ISSOCK(st.st_mode);
}

const char *emu_sys_path(const char *path, char *buf, size_t len)
{
	static const char *const classes[] = {
		"/sys/class/infiniband_verbs", "/sys/class/infiniband",
	};
	size_t i, n;

	if (path && emu_dir() && !strcmp(path, EMU_BOOT_ID_PATH)) {
		/* the launcher drew this machine's boot id (sysfs.h) */
		if (snprintf(buf, len, "%s%s", emu_dir(), path) >= (int)len)
			return path;
		return buf;
	}
	if (!path || !emu_dir() || strncmp(path, "/sys/class/", 11))
		return path;
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		n = strlen(classes[i]);
		if (strncmp(path, classes[i], n) ||
		    (path[n] && path[n] != '/'))
			continue;
		/* the generated tree stands for the kernel's */
		if (snprintf(buf, len, "%s/sys%s", emu_dir(), path + 4) >=
		    (int)len)
			return path;
		return buf;
	}
	return path;
}

unsigned int emu_num_devs(void)
{
	unsigned int n = 0;

	/* the daemon listens on uverbs0 .. uverbs<N-1> */
	while (emu_dir() && n < EMU_MAX_DEVICES && dev_exists((int)n))
		n++;
	return n;
}

bool emu_active(void)
{
	return emu_dir() != NULL;
}

int emu_path_dev(const char *path)
{
	int dev;

	if (!emu_dir() || strncmp(path, DEV_PREFIX, strlen(DEV_PREFIX)))
		return -1;
	dev = parse_index(path + strlen(DEV_PREFIX));
	if (dev < 0 || !dev_exists(dev))
		return -1;
	return dev;
}

static int peer_dev(int fd)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	const char *dir = emu_dir();
	size_t dlen;

	memset(&sa, 0, sizeof(sa));
	if (getpeername(fd, (struct sockaddr *)&sa, &len) ||
	    sa.sun_family != AF_UNIX || len <= offsetof(struct sockaddr_un,
						       sun_path))
		return -1;
	sa.sun_path[sizeof(sa.sun_path) - 1] = 0;
	dlen = strlen(dir);
	if (strncmp(sa.sun_path, dir, dlen) ||
	    strncmp(sa.sun_path + dlen, "/uverbs", 7))
		return -1;
	return parse_index(sa.sun_path + dlen + 7);
}

int emu_fd_dev(int fd)
{
	int dev, err = errno;

	if (!emu_dir() || fd < 0)
		return -1;
	/* a connection this thread has a channel for needs no question */
	dev = emu_chan_fd_dev(fd);
	if (dev == -1) {
		dev = peer_dev(fd);
		if (dev >= 0)
			emu_chan_note_dev(fd, dev);
	}
	errno = err;
	return dev < 0 ? -1 : dev;
}

int emu_open_dev(int dev, int flags)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int (*real_socket)(int, int, int) =
		(int (*)(int, int, int))emu_real("socket");
	const struct timeval connect_wait = { .tv_sec = 10 }, no_wait = {};
	int fd, err;

	if ((flags & O_ACCMODE) != O_RDWR && (flags & O_ACCMODE) != O_WRONLY &&
	    (flags & O_ACCMODE) != O_RDONLY) {
		errno = EINVAL;
		return -1;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/uverbs%d", emu_dir(),
		 dev);
	fd = real_socket(AF_UNIX, SOCK_SEQPACKET |
			 ((flags & O_CLOEXEC) ? SOCK_CLOEXEC : 0), 0);
	if (fd < 0)
		return -1;
	/*
	 * A daemon that stopped accepting for want of descriptors makes the
	 * open fail (ENFILE) after a while instead of hang: connect() waits
	 * for room in its queue no longer than the send timeout.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &connect_wait,
		       sizeof(connect_wait)) ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &no_wait,
		       sizeof(no_wait))) {
		err = errno;
		close(fd);
		/* the daemon is gone: as if the device disappeared */
		if (err == ECONNREFUSED || err == ENOENT)
			err = ENXIO;
		else if (err == EAGAIN)
			err = ENFILE;
		errno = err;
		return -1;
	}
	/* the access mode, said first while the fd is ours alone */
	if ((flags & O_ACCMODE) != O_RDWR) {
		struct emu_wire_open op = {
			.magic = EMU_WIRE_MAGIC, .version = EMU_WIRE_VERSION,
			.accmode = (uint32_t)(flags & O_ACCMODE),
		};

		if (send(fd, &op, sizeof(op), MSG_NOSIGNAL) != sizeof(op)) {
			err = errno;
			close(fd);
			errno = err;
			return -1;
		}
	}
	return fd;
}

/*
 * The pid process_vm_readv() names: read once per ioctl, not per copy
 * (0 outside one).
 */
static __thread pid_t call_pid __attribute__((tls_model("initial-exec")));

static pid_t self_pid(void)
{
	return call_pid ? call_pid : emu_self_pid();
}

/*
 * Whether [addr, addr + len) lies in this thread's stack, between our own
 * frame and the stack's top: the callers' frames, mapped for certain, so
 * copied without asking the kernel.  (Not on a signal stack, nor any
 * stack of the application's own making: those are asked.)
 */
static bool on_stack(uint64_t addr, size_t len)
{
	static __thread uintptr_t bottom, top
		__attribute__((tls_model("initial-exec")));
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);

	if (!top) {
		pthread_attr_t a;
		size_t size;
		void *base;

		top = 1;	/* looked: nothing to use unless found */
		if (!pthread_getattr_np(pthread_self(), &a)) {
			if (!pthread_attr_getstack(&a, &base, &size)) {
				bottom = (uintptr_t)base;
				top = bottom + size;
			}
			pthread_attr_destroy(&a);
		}
	}
	return sp > bottom && sp < top && addr >= sp && addr < top &&
	       len <= top - addr;
}

/*
 * Copies from [src, src + len) of our own memory, stopping at the first
 * byte that is not mapped: the bytes copied, or -1 (errno).
 */
static ssize_t user_read_some(void *dst, uint64_t src, size_t len)
{
	struct iovec l = { .iov_base = dst, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)src, .iov_len = len };
	ssize_t n;

	if (on_stack(src, len)) {
		memcpy(dst, (const void *)(uintptr_t)src, len);
		return (ssize_t)len;
	}
	n = process_vm_readv(self_pid(), &l, 1, &r, 1, 0);
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy(dst, (const void *)(uintptr_t)src, len);
		n = (ssize_t)len;
	}
	return n;
}

int emu_user_read(void *dst, uint64_t src, size_t len)
{
	if (!len)
		return 0;
	return user_read_some(dst, src, len) == (ssize_t)len ? 0 : -EFAULT;
}

/* Writes n pieces of our own memory, in order: the bytes written. */
static size_t user_writev(const struct iovec *l, const struct iovec *r,
			  unsigned int n, size_t total)
{
	ssize_t done;
	unsigned int i;

	if (!total)
		return 0;
	for (i = 0; i < n && on_stack((uintptr_t)r[i].iov_base,
				      r[i].iov_len); i++)
		;
	if (i == n) {
		for (i = 0; i < n; i++)
			memcpy(r[i].iov_base, l[i].iov_base, l[i].iov_len);
		return total;
	}
	done = process_vm_writev(self_pid(), l, n, r, n, 0);
	if (done < 0 && (errno == ENOSYS || errno == EPERM)) {
		for (i = 0; i < n; i++)
			memcpy(r[i].iov_base, l[i].iov_base, l[i].iov_len);
		done = (ssize_t)total;
	}
	if (done < 0)
		return 0;
	for (i = 0; i < n; i++)
		VALGRIND_MAKE_MEM_DEFINED(r[i].iov_base, r[i].iov_len);
	return (size_t)done;
}

int emu_user_write(uint64_t dst, const void *src, size_t len)
{
	struct iovec l = { .iov_base = (void *)src, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)dst, .iov_len = len };

	return user_writev(&l, &r, 1, len) == len ? 0 : -EFAULT;
}

/* Reply bytes that come with the header in the same read, usually all. */
#define INLINE_REPLY 4096

struct call {
	struct emu_wire_rep rep;
	int fds[8];
	unsigned int nfds;
	uint8_t *payload;	/* inl, or allocated for a longer reply */
	uint8_t inl[INLINE_REPLY];
};

static void call_close(struct call *c)
{
	unsigned int i;

	for (i = 0; i < c->nfds; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	c->nfds = 0;
	if (c->payload != c->inl)
		free(c->payload);
	c->payload = NULL;
}

/* whether this thread polls for its replies (see EMU_WIRE_SPIN_NS) */
static __thread struct emu_spin spin
	__attribute__((tls_model("initial-exec")));

/*
 * Reads one reply from the channel into c.  0, or -EIO when the channel
 * broke (EOF: the daemon is gone or dropped it), -ENOMEM.
 */
static int read_reply(int chan, struct call *c)
{
	char cbuf[CMSG_SPACE(sizeof(c->fds))];
	struct iovec iov[2] = {
		{ .iov_base = &c->rep, .iov_len = sizeof(c->rep) },
		{ .iov_base = c->inl, .iov_len = sizeof(c->inl) },
	};
	struct msghdr msg = {
		.msg_iov = iov, .msg_iovlen = 2,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	size_t got, have;
	ssize_t n;

	n = emu_wire_recvmsg_spin(chan, &msg, MSG_CMSG_CLOEXEC, &spin);
	c->nfds = n > 0 ? emu_wire_take_fds(&msg, c->fds, 8) : 0;
	if (n <= 0)
		return -EIO;
	got = (size_t)n;
	if (got < sizeof(c->rep) &&
	    emu_wire_read_full(chan, (uint8_t *)&c->rep + got,
			       sizeof(c->rep) - got))
		return -EIO;
	have = got > sizeof(c->rep) ? got - sizeof(c->rep) : 0;
	if (c->rep.magic != EMU_WIRE_MAGIC || c->rep.len > EMU_WIRE_MAX_REP ||
	    c->rep.nfds != c->nfds || have > c->rep.len)
		return -EIO;
	/* no allocation for the usual reply: a signal handler may call */
	if (c->rep.len <= sizeof(c->inl)) {
		c->payload = c->inl;
	} else {
		c->payload = malloc(c->rep.len);
		if (!c->payload)
			return -ENOMEM;
		memcpy(c->payload, c->inl, have);
	}
	if (c->rep.len > have &&
	    emu_wire_read_full(chan, c->payload + have, c->rep.len - have))
		return -EIO;
	return 0;
}

/* A request: pieces of our memory and of the caller's, in wire order. */
struct req {
	struct iovec *iov;	/* iov[0] is left for the wire header */
	unsigned int n;
	size_t len;
};

/*
 * Copies the request's payload (the pieces after the header) into the
 * shared page: 0, -EFAULT when a piece of the caller's cannot be read (as
 * sendmsg() would say), -ENOSYS when this process may not read itself so
 * (the socket is used then).
 */
static int page_put(struct emu_wire_shm *sh, const struct req *rq)
{
	struct iovec l = { .iov_base = sh->req_data, .iov_len = rq->len };
	uint8_t *at = sh->req_data;
	unsigned int i;
	ssize_t n;

	if (rq->n < 2 || !rq->len)
		return 0;
	if (rq->n - 1 > IOV_MAX)
		return -ENOSYS;
	/* all of it in our callers' frames (the usual ioctl): no kernel */
	for (i = 1; i < rq->n && on_stack((uintptr_t)rq->iov[i].iov_base,
					  rq->iov[i].iov_len); i++)
		;
	if (i == rq->n) {
		for (i = 1; i < rq->n; i++) {
			memcpy(at, rq->iov[i].iov_base, rq->iov[i].iov_len);
			at += rq->iov[i].iov_len;
		}
		return 0;
	}
	n = process_vm_readv(self_pid(), &l, 1, rq->iov + 1, rq->n - 1, 0);
	if (n < 0 && (errno == ENOSYS || errno == EPERM))
		return -ENOSYS;
	return n == (ssize_t)rq->len ? 0 : -EFAULT;
}

/* A doorbell on the channel (a request header with no payload). */
static int ring(int chan, uint32_t seq)
{
	struct emu_wire_req bell = {
		.magic = EMU_WIRE_MAGIC, .kind = EMU_WIRE_DOORBELL,
		.pid = (uint32_t)self_pid(), .seq = seq,
	};

	return emu_wire_write_full(chan, &bell, sizeof(bell)) ? -EIO : 0;
}

/* The channel hung up: the daemon is gone (or dropped it). */
static bool chan_gone(int chan)
{
	char b;

	return recv(chan, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/*
 * Waits for the reply to seq in the page: polled while replies came
 * that fast (the thread's spin), then asleep on the page's futex until
 * the daemon wakes it, looking at the channel now and then for a daemon
 * that died.  0, or -EIO.
 */
static int page_wait(int chan, struct emu_wire_shm *sh, uint32_t seq)
{
	const struct timespec nap = { .tv_nsec = EMU_WIRE_NAP_NS };
	uint64_t start = emu_wire_now_ns();
	unsigned int turns = 0;
	uint32_t v;

	while (!spin.off) {
		if (__atomic_load_n(&sh->rep_seq, __ATOMIC_ACQUIRE) == seq)
			return 0;
		emu_wire_relax();
		/* now and then: the time, and the CPU to a daemon sharing it */
		if (++turns % 64)
			continue;
		if (emu_spin_more(&spin, start))
			sched_yield();
	}
	/* sequentially consistent both: see wire.h */
	__atomic_store_n(&sh->client_waits, 1, __ATOMIC_SEQ_CST);
	while ((v = __atomic_load_n(&sh->rep_seq, __ATOMIC_SEQ_CST)) != seq) {
		if (syscall(SYS_futex, &sh->rep_seq, FUTEX_WAIT, v, &nap,
			    NULL, 0) && errno == ETIMEDOUT && chan_gone(chan)) {
			__atomic_store_n(&sh->client_waits, 0,
					 __ATOMIC_RELAXED);
			return -EIO;
		}
	}
	__atomic_store_n(&sh->client_waits, 0, __ATOMIC_RELAXED);
	emu_spin_learn(&spin, start);
	return 0;
}

/*
 * One round trip through the channel's page.  -ENOSYS: not taken (the
 * caller goes by the socket); otherwise as do_call().
 */
static int page_call(struct emu_chan *ch, const struct emu_wire_req *hdr,
		     struct req *rq, struct call *c)
{
	struct emu_wire_shm *sh = ch->shm;
	size_t len;
	int ret;

	ret = page_put(sh, rq);
	if (ret)
		return ret;
	sh->req = *hdr;
	__atomic_store_n(&sh->req_seq, hdr->seq, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&sh->daemon_polls, __ATOMIC_SEQ_CST) &&
	    ring(ch->fd, hdr->seq))
		return -EIO;
	ret = page_wait(ch->fd, sh, hdr->seq);
	if (ret)
		return ret;
	c->rep = sh->rep;
	if (c->rep.reserved == EMU_WIRE_SHM_ON_SOCKET) {
		ret = read_reply(ch->fd, c);
		return ret || c->rep.seq == hdr->seq ? ret : -EIO;
	}
	len = c->rep.len;
	if (c->rep.magic != EMU_WIRE_MAGIC || c->rep.seq != hdr->seq ||
	    c->rep.nfds || len > EMU_WIRE_SHM_DATA)
		return -EIO;
	c->payload = len <= sizeof(c->inl) ? c->inl : malloc(len);
	if (!c->payload)
		return -ENOMEM;
	memcpy(c->payload, sh->rep_data, len);
	return 0;
}

/*
 * One round trip on the thread's channel for fd: the request goes in, the
 * reply (and any fds) comes back.  The caller's buffers are sent as they
 * are: the kernel's copy from them says EFAULT when they cannot be read,
 * as copy_from_user() would.  Any failure of the daemon side reads as
 * EIO, as calls on a disassociated device do.
 */
static int do_call(int fd, uint32_t kind, struct req *rq, struct call *c)
{
	struct emu_wire_req hdr = {
		.magic = EMU_WIRE_MAGIC, .kind = kind, .len = (uint32_t)rq->len,
		.pid = (uint32_t)self_pid(),
	};
	struct emu_chan ch;
	int ret, cancel, stale;
	size_t sent = 0;

	memset(&c->rep, 0, sizeof(c->rep));
	c->nfds = 0;
	c->payload = NULL;
	/* an ioctl is no cancellation point: a reply is never left half read */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	ret = emu_chan_get(fd, &ch);
	if (ret)
		goto out;
	hdr.seq = ch.seq;
	if (ch.shm && kind == EMU_WIRE_IOCTL && rq->len <= EMU_WIRE_SHM_DATA) {
		ret = page_call(&ch, &hdr, rq, c);
		if (ret != -ENOSYS) {
			/* an unreadable request went nowhere: all is well */
			emu_chan_put(&ch, ret && ret != -EFAULT);
			goto out;
		}
	}
	rq->iov[0] = (struct iovec){ &hdr, sizeof(hdr) };
	ret = emu_wire_sendv_full(ch.fd, rq->iov, rq->n, &sent);
	if (ret) {
		/* nothing sent of an unreadable request: the channel is fine */
		if (ret == -EFAULT && !sent) {
			emu_chan_put(&ch, false);
			goto out;
		}
		ret = ret == -EFAULT ? -EFAULT : -EIO;
		goto put;
	}
	/* a reply to an earlier, abandoned call is skipped */
	for (stale = 0; stale < 4; stale++) {
		ret = read_reply(ch.fd, c);
		if (ret || c->rep.seq == ch.seq)
			break;
		if (c->rep.seq == EMU_WIRE_SEQ_REFUSED) {
			ret = c->rep.ret < 0 ? c->rep.ret : -EIO;
			break;
		}
		call_close(c);
		ret = -EIO;
	}
put:
	emu_chan_put(&ch, ret != 0);
out:
	pthread_setcancelstate(cancel, NULL);
	return ret;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/* Whether [addr, addr + len) is mapped, as pin_user_pages() needs. */
static bool range_mapped(uint64_t addr, uint64_t len)
{
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = addr & ~(psz - 1), end, npages;
	unsigned char *vec;
	bool ok;

	if (!len || addr + len < addr)
		return true;	/* the kernel's own checks answer these */
	end = (addr + len + psz - 1) & ~(psz - 1);
	npages = (end - start) / psz;
	if (npages > (1u << 22))
		return true;	/* too big to look at: let it through */
	vec = malloc(npages);
	if (!vec)
		return true;
	ok = !mincore((void *)(uintptr_t)start, end - start, vec);
	free(vec);
	return ok;
}

/* What only this address space knows: wire.h's EMU_FACT_* */
static uint32_t client_facts(const struct ib_uverbs_ioctl_hdr *hdr,
			     const struct ib_uverbs_attr *attrs)
{
	uint64_t addr = 0, len = 0;
	bool have_addr = false, have_len = false;
	unsigned int i;

	if (hdr->object_id != MLX5_IB_OBJECT_DEVX_UMEM ||
	    hdr->method_id != MLX5_IB_METHOD_DEVX_UMEM_REG)
		return 0;
	for (i = 0; i < hdr->num_attrs; i++) {
		if (attrs[i].len != sizeof(uint64_t))
			continue;
		if (attrs[i].attr_id == MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR) {
			addr = attrs[i].data;
			have_addr = true;
		} else if (attrs[i].attr_id == MLX5_IB_ATTR_DEVX_UMEM_REG_LEN) {
			len = attrs[i].data;
			have_len = true;
		}
	}
	if (have_addr && have_len && !range_mapped(addr, len))
		return EMU_FACT_UMEM_UNMAPPED;
	return 0;
}

/*
 * Room on the caller's stack for the request of an ioctl with up to
 * ROOM_ATTRS attrs, so that the usual call allocates nothing (a signal
 * handler may call in the middle of it, and malloc() is not reentrant).
 */
#define ROOM_ATTRS 32

struct marshal_room {
	uint8_t meta[sizeof(struct ib_uverbs_ioctl_hdr) +
		     ROOM_ATTRS * sizeof(struct ib_uverbs_attr) +
		     (ROOM_ATTRS + 1) * sizeof(uint32_t)]
		__attribute__((aligned(8)));
	struct iovec iov[3 + 2 * ROOM_ATTRS];
	struct ib_uverbs_attr attrs[ROOM_ATTRS];
};

/*
 * Builds the request: what the kernel would copy_from_user().  meta gets
 * the header, the attrs, each attr's u32 length and the facts; the copy-in
 * buffers are not copied but sent from where the caller has them.
 */
static int marshal(const struct ib_uverbs_ioctl_hdr *hdr,
		   const struct ib_uverbs_attr *attrs, struct req *rq,
		   uint8_t **meta, struct marshal_room *room)
{
	const struct emu_method_spec *m =
		emu_find_method(hdr->object_id, hdr->method_id);
	size_t head = sizeof(*hdr) + hdr->num_attrs * sizeof(*attrs);
	uint32_t *lens, facts = client_facts(hdr, attrs);
	unsigned int i;

	if (hdr->num_attrs <= ROOM_ATTRS) {
		*meta = room->meta;
		rq->iov = room->iov;
	} else {
		*meta = malloc(head + (hdr->num_attrs + 1) * sizeof(uint32_t));
		/* the wire header, head, each length and buffer, the facts */
		rq->iov = malloc((3 + 2 * hdr->num_attrs) * sizeof(*rq->iov));
		if (!*meta || !rq->iov) {
			free(*meta);
			free(rq->iov);
			return -ENOMEM;
		}
	}
	memcpy(*meta, hdr, sizeof(*hdr));
	memcpy(*meta + sizeof(*hdr), attrs, hdr->num_attrs * sizeof(*attrs));
	lens = (uint32_t *)(*meta + head);
	rq->iov[1] = (struct iovec){ *meta, head };
	rq->n = 2;
	rq->len = head;
	for (i = 0; i < hdr->num_attrs; i++) {
		const struct emu_attr_spec *s =
			m ? emu_find_attr(m, attrs[i].attr_id) : NULL;
		uint32_t n = 0;

		if (s && (s->type == EMU_ATTR_PTR_IN ||
			  s->type == EMU_ATTR_IDRS_ARRAY) &&
		    attrs[i].len > sizeof(attrs[i].data))
			n = attrs[i].len;
		lens[i] = n;
		rq->iov[rq->n++] = (struct iovec){ &lens[i], sizeof(n) };
		if (n)
			rq->iov[rq->n++] = (struct iovec){
				(void *)(uintptr_t)attrs[i].data, n };
		rq->len += sizeof(n) + n;
	}
	lens[i] = facts;
	rq->iov[rq->n++] = (struct iovec){ &lens[i], sizeof(facts) };
	rq->len += sizeof(facts);
	return 0;
}

/* writebacks applied with one copy; a longer list takes several */
#define WB_BATCH 16

struct wb_batch {
	struct iovec l[WB_BATCH], r[WB_BATCH];
	int fd_slot[WB_BATCH];	/* c->fds index an EMU_WB_FD installs */
	int64_t fdv[WB_BATCH];
	unsigned int n;
	size_t total;
};

/*
 * Writes the batch; an fd counts as installed (the caller owns it) once
 * its value is written.  0, or -EFAULT at the first write that failed,
 * the earlier ones done, as the kernel leaves them.
 */
static int wb_flush(struct call *c, struct wb_batch *b)
{
	size_t done = user_writev(b->l, b->r, b->n, b->total), at = 0;
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		at += b->l[i].iov_len;
		if (at > done)
			return -EFAULT;
		if (b->fd_slot[i] >= 0)
			c->fds[b->fd_slot[i]] = -1;
	}
	b->n = 0;
	b->total = 0;
	return 0;
}

static int wb_add(struct call *c, struct wb_batch *b, uint64_t dst,
		  const void *src, size_t len, int fd_slot)
{
	int ret = 0;

	if (b->n == WB_BATCH)
		ret = wb_flush(c, b);
	if (ret)
		return ret;
	b->fd_slot[b->n] = fd_slot;
	if (fd_slot >= 0) {
		b->fdv[b->n] = c->fds[fd_slot];
		src = &b->fdv[b->n];
	}
	b->l[b->n] = (struct iovec){ (void *)src, len };
	b->r[b->n] = (struct iovec){ (void *)(uintptr_t)dst, len };
	b->total += len;
	b->n++;
	return 0;
}

/* Applies the writebacks in the order the kernel made them. */
static int apply(struct call *c, struct ib_uverbs_ioctl_hdr *uhdr,
		 const struct ib_uverbs_attr *attrs, unsigned int num_attrs)
{
	const uint8_t *p = c->payload, *end = c->payload + c->rep.len;
	unsigned int next_fd = 0;
	struct wb_batch b;
	int ret = 0;

	b.n = 0;
	b.total = 0;
	while (p < end && !ret) {
		uint64_t uattr, uflags, udata;
		struct emu_wire_wb wb;

		if ((size_t)(end - p) < sizeof(wb))
			return -EIO;
		memcpy(&wb, p, sizeof(wb));
		p += sizeof(wb);
		if ((size_t)(end - p) < wb.len || wb.idx >= num_attrs)
			return -EIO;
		uattr = (uint64_t)(uintptr_t)&uhdr->attrs[wb.idx];
		uflags = uattr + offsetof(struct ib_uverbs_attr, flags);
		udata = uattr + offsetof(struct ib_uverbs_attr, data);
		switch (wb.kind) {
		case EMU_WB_FLAGS:
			if (wb.len != sizeof(uint16_t))
				return -EIO;
			ret = wb_add(c, &b, uflags, p, wb.len, -1);
			break;
		case EMU_WB_DATA:
			if (wb.len != sizeof(uint64_t))
				return -EIO;
			ret = wb_add(c, &b, udata, p, wb.len, -1);
			break;
		case EMU_WB_BUF:
			if (wb.len > attrs[wb.idx].len)
				return -EFAULT;
			ret = wb_add(c, &b, attrs[wb.idx].data, p, wb.len, -1);
			break;
		case EMU_WB_FD:
			if (next_fd >= c->nfds)
				return -EIO;
			ret = wb_add(c, &b, udata, NULL, sizeof(int64_t),
				     (int)next_fd++);
			break;
		default:
			return -EIO;
		}
		p += wb.len;
	}
	return ret ? ret : wb_flush(c, &b);
}

int emu_ioctl(int fd, void *arg)
{
	uint8_t head[sizeof(struct ib_uverbs_ioctl_hdr) +
		     32 * sizeof(struct ib_uverbs_attr)];
	struct ib_uverbs_ioctl_hdr hdr, *uhdr = arg;
	struct ib_uverbs_attr *attrs = NULL;
	struct marshal_room room;
	uint8_t *meta = NULL;
	struct req rq;
	struct call c;
	int err = 0, ret;

	pid_t outer = call_pid;
	ssize_t got;

	call_pid = emu_self_pid();
	/*
	 * The header and, usually, every attr in one copy; in our own stack
	 * exactly the header (nothing of the frames around it is read).
	 */
	got = user_read_some(head, (uintptr_t)uhdr,
			     on_stack((uintptr_t)uhdr, sizeof(hdr)) ?
			     sizeof(hdr) : sizeof(head));
	if (got < (ssize_t)sizeof(hdr)) {
		call_pid = outer;
		return fail(EFAULT);
	}
	memcpy(&hdr, head, sizeof(hdr));
	/* a header the kernel rejects before reading the attrs */
	if (hdr.length != sizeof(hdr) + hdr.num_attrs * sizeof(*attrs) ||
	    hdr.length > 4096)
		hdr.num_attrs = 0;
	if (hdr.num_attrs) {
		size_t alen = hdr.num_attrs * sizeof(*attrs);

		attrs = hdr.num_attrs <= ROOM_ATTRS ? room.attrs :
						      malloc(alen);
		err = attrs ? 0 : ENOMEM;
		if (attrs && (size_t)got >= sizeof(hdr) + alen)
			memcpy(attrs, head + sizeof(hdr), alen);
		else if (attrs && emu_user_read(attrs, (uintptr_t)uhdr->attrs,
						alen))
			err = EFAULT;
	}
	if (!err)
		err = -marshal(&hdr, attrs, &rq, &meta, &room);
	if (err) {
		if (attrs != room.attrs)
			free(attrs);
		call_pid = outer;
		return fail(err);
	}
	/* keep the caller's real header length for the daemon's checks */
	if (!hdr.num_attrs)
		memcpy(meta, head, sizeof(hdr));
	ret = do_call(fd, EMU_WIRE_IOCTL, &rq, &c);
	if (meta != room.meta) {
		free(rq.iov);
		free(meta);
	}
	if (!ret) {
		ret = apply(&c, uhdr, attrs, hdr.num_attrs);
		if (!ret)
			ret = c.rep.ret;
	}
	call_close(&c);
	if (attrs != room.attrs)
		free(attrs);
	call_pid = outer;
	return ret ? fail(-ret) : 0;
}

void *emu_mmap(void *addr, size_t len, int prot, int flags, int fd,
	       off_t off)
{
	typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
	mmap_fn real_mmap = (mmap_fn)emu_real("mmap");
	struct emu_wire_mmap req = {
		.offset = (uint64_t)off, .length = len, .prot = (uint32_t)prot,
		.flags = (uint32_t)flags,
	};
	struct emu_wire_mmap_rep mrep;
	struct call c;
	void *p = MAP_FAILED;
	int ret;

	if (!real_mmap || off < 0 || (off & (sysconf(_SC_PAGESIZE) - 1)) ||
	    !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	struct iovec iov[2] = { {}, { &req, sizeof(req) } };
	struct req rq = { .iov = iov, .n = 2, .len = sizeof(req) };

	ret = do_call(fd, EMU_WIRE_MMAP, &rq, &c);
	if (!ret)
		ret = c.rep.ret;
	if (!ret && (c.nfds != 1 || c.rep.len != sizeof(mrep)))
		ret = -EIO;
	if (!ret) {
		memcpy(&mrep, c.payload, sizeof(mrep));
		p = real_mmap(addr, len, prot, flags, c.fds[0],
			      (off_t)mrep.fd_offset);
		if (p == MAP_FAILED)
			ret = -errno;
		else if (flags & MAP_FIXED)
			emu_ro_map_forget(p, len);
		if (p != MAP_FAILED && (mrep.flags & EMU_MMAP_NO_MAYWRITE))
			emu_ro_map_add(p, len);
	}
	call_close(&c);
	if (ret)
		errno = -ret;
	return p;
}

/*
 * access_ok() on x86-64, which vfs_write() asks before the file's write:
 * the range lies below TASK_SIZE_MAX.
 */
static bool user_range_ok(const void *buf, size_t count)
{
	const uint64_t task_size_max = (1ull << 47) - 4096;

	return count <= task_size_max &&
	       (uint64_t)(uintptr_t)buf <= task_size_max - count;
}

ssize_t emu_write(int fd, const void *buf, size_t count)
{
	struct emu_wire_write w = { .count = count };
	uint8_t head[EMU_WIRE_WRITE_HEAD];
	size_t want = count < sizeof(head) ? count : sizeof(head);
	ssize_t got = 0;
	struct iovec iov[3] = { {}, { &w, sizeof(w) }, { head, 0 } };
	struct req rq = { .iov = iov, .n = 3, .len = sizeof(w) };
	struct call c;
	pid_t outer = call_pid;
	int ret;

	if (!user_range_ok(buf, count))
		return fail(EFAULT);
	call_pid = emu_self_pid();
	/* what copy_from_user() of the headers finds: the daemon judges */
	if (want)
		got = user_read_some(head, (uintptr_t)buf, want);
	if (got > 0) {
		iov[2].iov_len = (size_t)got;
		rq.len += (size_t)got;
	}
	ret = do_call(fd, EMU_WIRE_WRITE, &rq, &c);
	if (!ret)
		ret = c.rep.ret;
	call_close(&c);
	call_pid = outer;
	return ret ? fail(-ret) : (ssize_t)count;
}

int emu_read(int fd)
{
	struct iovec iov[1] = { {} };
	struct req rq = { .iov = iov, .n = 1, .len = 0 };
	pid_t outer = call_pid;
	struct call c;
	int ret;

	call_pid = emu_self_pid();
	ret = do_call(fd, EMU_WIRE_READ, &rq, &c);
	if (!ret)
		ret = c.rep.ret;
	call_close(&c);
	call_pid = outer;
	return fail(ret ? -ret : EIO);
}
