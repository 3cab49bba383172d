// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * NETLINK_RDMA sockets under the emulator.  The process gets one end of
 * an AF_UNIX datagram socketpair; what it sends is answered by nldev.c
 * at once and the answers are queued on the other end, so reading,
 * blocking, poll() and MSG_PEEK/MSG_TRUNC behave as on a real socket.
 * What a netlink socket has and a unix one has not (its port id, the
 * kernel as sender, SOL_NETLINK options, ENOBUFS on overrun) is kept
 * here, after net/netlink/af_netlink.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/netlink.h>
#include <sys/syscall.h>

#include "nldev.h"
#include "preload.h"

/* the first port id netlink_autobind() tries after the tgid */
#define AUTOBIND_ROVER -4096

struct nlsock {
	int fd;			/* the process's end */
	int peer;		/* where the answers are queued from */
	ino_t ino;		/* fd still names this socket */
	int type;		/* SOCK_RAW or SOCK_DGRAM */
	uint32_t portid;
	uint32_t groups;	/* groups 1..32 joined */
	bool bound;
	bool cap_ack, ext_ack, no_enobufs, pktinfo, bcast_err, strict;
	bool overrun;		/* an answer was dropped: ENOBUFS next */
	bool admin_at_open;	/* CAP_NET_ADMIN of the socket's creator */
	unsigned int queued;	/* datagrams queued and not read */
	unsigned int dump_left;	/* reads until the dump's records are read */
	bool hold_next;		/* the next answer is a dump's NLMSG_DONE */
	void *held;		/* that NLMSG_DONE, till the records are read */
	size_t held_len;
};

/* as many as the process opens: the kernel has no limit of its own */
static struct nlsock *socks;
static int nsocks, nalloc;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int real_fstat(int fd, struct stat *st)
{
	static int (*fn)(int, struct stat *);

	if (!fn)
		fn = (int (*)(int, struct stat *))emu_real("fstat");
	return fn ? fn(fd, st) : -1;
}

static int real_close(int fd)
{
	static int (*fn)(int);

	if (!fn)
		fn = (int (*)(int))emu_real("close");
	return fn ? fn(fd) : -1;
}

static void drop(struct nlsock *s)
{
	real_close(s->peer);
	free(s->held);
	*s = socks[--nsocks];
}

/* The entry for fd, or NULL; a stale one (fd reused) is dropped. */
static struct nlsock *get(int fd)
{
	struct stat st;
	int i;

	for (i = 0; i < nsocks; i++) {
		if (socks[i].fd != fd)
			continue;
		if (!real_fstat(fd, &st) && st.st_ino == socks[i].ino)
			return &socks[i];
		drop(&socks[i]);
		return NULL;
	}
	return NULL;
}

bool emu_nl_owns(int fd)
{
	bool ret;

	if (!__atomic_load_n(&nsocks, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&lock);
	ret = get(fd) != NULL;
	pthread_mutex_unlock(&lock);
	return ret;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/*
 * ns_capable(CAP_NET_ADMIN) of the calling task: the capability in its
 * effective set, whatever its user id (root without it has not got it).
 */
static bool net_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	int err = errno;
	bool ret;

	memset(d, 0, sizeof(d));
	ret = !syscall(SYS_capget, &h, d) &&
	      (d[CAP_NET_ADMIN / 32].effective &
	       (1u << (CAP_NET_ADMIN % 32)));
	errno = err;
	return ret;
}

/* netlink_capable(): the socket's creator and the sender both have it */
static bool nl_capable(const struct nlsock *s)
{
	return s->admin_at_open && net_admin();
}

/* netlink_create() for NETLINK_RDMA */
int emu_nl_socket(int type)
{
	int kind = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int (*real_socketpair)(int, int, int, int *) =
		(int (*)(int, int, int, int *))emu_real("socketpair");
	struct stat st;
	int sv[2], err;

	if (kind != SOCK_RAW && kind != SOCK_DGRAM)
		return fail(ESOCKTNOSUPPORT);
	if (!real_socketpair)
		return fail(ENOSYS);
	pthread_mutex_lock(&lock);
	if (nsocks == nalloc) {
		int n = nalloc ? nalloc * 2 : 16;
		struct nlsock *more = realloc(socks, n * sizeof(*socks));

		if (!more) {
			pthread_mutex_unlock(&lock);
			return fail(ENOMEM);
		}
		socks = more;
		nalloc = n;
	}
	if (real_socketpair(AF_UNIX, SOCK_DGRAM | (type & (SOCK_NONBLOCK |
							    SOCK_CLOEXEC)),
			    0, sv)) {
		err = errno;
		pthread_mutex_unlock(&lock);
		return fail(err);
	}
	if (real_fstat(sv[0], &st) ||
	    fcntl(sv[1], F_SETFD, FD_CLOEXEC) ||
	    fcntl(sv[1], F_SETFL, O_NONBLOCK)) {
		err = errno;
		real_close(sv[0]);
		real_close(sv[1]);
		pthread_mutex_unlock(&lock);
		return fail(err);
	}
	/* a stale entry may still name the number the fd got: drop it */
	get(sv[0]);
	memset(&socks[nsocks], 0, sizeof(socks[nsocks]));
	socks[nsocks].fd = sv[0];
	socks[nsocks].peer = sv[1];
	socks[nsocks].ino = st.st_ino;
	socks[nsocks].type = kind;
	socks[nsocks].admin_at_open = net_admin();
	nsocks++;
	pthread_mutex_unlock(&lock);
	return sv[0];
}

static bool portid_used(uint32_t portid)
{
	int i;

	for (i = 0; i < nsocks; i++)
		if (socks[i].bound && socks[i].portid == portid)
			return true;
	return false;
}

/* netlink_autobind(): the tgid first, then negative ids */
static void autobind(struct nlsock *s)
{
	int32_t id = (int32_t)getpid();

	if (portid_used((uint32_t)id))
		for (id = AUTOBIND_ROVER; portid_used((uint32_t)id); id--)
			;
	s->portid = (uint32_t)id;
	s->bound = true;
}


/* netlink_bind() */
int emu_nl_bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_nl nl;
	struct nlsock *s;
	int err = 0;

	if (!addr || len < sizeof(nl))
		return fail(EINVAL);
	memcpy(&nl, addr, sizeof(nl));
	if (nl.nl_family != AF_NETLINK)
		return fail(EINVAL);
	/* only the superuser listens to multicasts */
	if (nl.nl_groups && !net_admin())
		return fail(EPERM);
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (!s) {
		err = EBADF;
	} else if (s->bound) {
		if (nl.nl_pid != s->portid)
			err = EINVAL;
	} else if (nl.nl_pid) {
		if (portid_used(nl.nl_pid))
			err = EADDRINUSE;
		else {
			s->portid = nl.nl_pid;
			s->bound = true;
		}
	} else {
		autobind(s);
	}
	if (!err && nl.nl_groups)
		s->groups = nl.nl_groups;
	pthread_mutex_unlock(&lock);
	return err ? fail(err) : 0;
}

static void put_name(void *addr, socklen_t *len, uint32_t pid,
		     uint32_t groups)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = pid,
				  .nl_groups = groups };

	/* move_addr_to_user(): truncated copy, full length reported */
	if (addr && len)
		memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	if (len)
		*len = sizeof(nl);
}

/* netlink_getname() */
int emu_nl_getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct nlsock *s;

	if (!len)
		return fail(EFAULT);
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (s)
		put_name(addr, len, s->portid, s->groups);
	pthread_mutex_unlock(&lock);
	return s ? 0 : fail(EBADF);
}

struct emit_ctx {
	struct nlsock *s;
};

/* queues a datagram for s's reader; a full queue is an overrun */
static int queue(struct nlsock *s, const void *buf, size_t len)
{
	ssize_t (*real_send)(int, const void *, size_t, int) =
		(ssize_t (*)(int, const void *, size_t, int))emu_real("send");

	if (!real_send ||
	    real_send(s->peer, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) !=
		    (ssize_t)len) {
		if (!s->no_enobufs)
			s->overrun = true;
		return -EAGAIN;
	}
	s->queued++;
	return 0;
}

/*
 * netlink_unicast() to the sender; a running dump's NLMSG_DONE is held
 * until its records are read (netlink_recvmsg() runs netlink_dump()).
 */
static int emit_reply(void *arg, const void *buf, size_t len)
{
	struct emit_ctx *c = arg;

	if (c->s->hold_next) {
		c->s->hold_next = false;
		c->s->held = malloc(len);
		if (!c->s->held) {
			c->s->dump_left = 0;
			return queue(c->s, buf, len);
		}
		memcpy(c->s->held, buf, len);
		c->s->held_len = len;
		return 0;
	}
	return queue(c->s, buf, len);
}

static bool dump_running(void *arg)
{
	struct emit_ctx *c = arg;

	return c->s->dump_left > 0 || c->s->held;
}

/*
 * A dump that queued record datagrams runs until the last of them is
 * read (everything queued now); its NLMSG_DONE, emitted next, waits
 * for that read.
 */
static void dump_started(void *arg, unsigned int parts)
{
	struct emit_ctx *c = arg;

	c->s->dump_left = parts ? c->s->queued : 0;
	c->s->hold_next = c->s->dump_left > 0;
}

static int sndbuf(int fd)
{
	int v = 0;
	socklen_t l = sizeof(v);
	int (*real_getsockopt)(int, int, int, void *, socklen_t *) =
		(int (*)(int, int, int, void *, socklen_t *))emu_real(
			"getsockopt");

	if (!real_getsockopt ||
	    real_getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l))
		return 212992;
	return v;
}

/* netlink_sendmsg() to the kernel, which runs rdma_nl_rcv() at once */
ssize_t emu_nl_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct emu_nl_sender snd = {
		.emit = emit_reply, .dump_running = dump_running,
		.dump_started = dump_started,
	};
	struct emit_ctx ctx;
	struct nlsock *s;
	size_t len = 0, off = 0;
	uint8_t *buf;
	size_t i;
	int err = 0;

	if (!msg)
		return fail(EFAULT);
	if (flags & MSG_OOB)
		return fail(EOPNOTSUPP);
	for (i = 0; i < (size_t)msg->msg_iovlen; i++) {
		if (!msg->msg_iov ||
		    msg->msg_iov[i].iov_len > (size_t)SSIZE_MAX - len)
			return fail(EINVAL);
		len += msg->msg_iov[i].iov_len;
	}
	if (msg->msg_namelen) {
		struct sockaddr_nl nl;

		if (!msg->msg_name || msg->msg_namelen < sizeof(nl))
			return fail(EINVAL);
		memcpy(&nl, msg->msg_name, sizeof(nl));
		if (nl.nl_family != AF_NETLINK)
			return fail(EINVAL);
		if ((nl.nl_pid || nl.nl_groups) && !net_admin())
			return fail(EPERM);
		/* no other user socket to deliver to in the model */
		if (nl.nl_pid)
			return fail(ECONNREFUSED);
	}
	if (len > (size_t)sndbuf(fd) - 32)
		return fail(EMSGSIZE);
	buf = malloc(len ? len : 1);
	if (!buf)
		return fail(ENOBUFS);
	for (i = 0; i < (size_t)msg->msg_iovlen; i++) {
		memcpy(buf + off, msg->msg_iov[i].iov_base,
		       msg->msg_iov[i].iov_len);
		off += msg->msg_iov[i].iov_len;
	}
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (!s) {
		err = EBADF;
	} else {
		if (!s->bound)
			autobind(s);
		ctx.s = s;
		snd.arg = &ctx;
		snd.portid = s->portid;
		snd.ndev = emu_num_devs();
		snd.cap_ack = s->cap_ack;
		snd.net_admin = nl_capable(s);
		emu_nldev_rcv(buf, len, &snd);
	}
	pthread_mutex_unlock(&lock);
	free(buf);
	return err ? fail(err) : (ssize_t)len;
}

/* netlink_recvmsg(): the kernel is the sender of everything queued */
ssize_t emu_nl_recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*real_recvmsg)(int, struct msghdr *, int) =
		(ssize_t (*)(int, struct msghdr *, int))emu_real("recvmsg");
	struct nlsock *s;
	void *name;
	socklen_t namelen;
	bool overrun = false;
	ssize_t ret;

	if (!msg)
		return fail(EFAULT);
	if (flags & MSG_OOB)
		return fail(EOPNOTSUPP);
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (s && s->overrun) {
		overrun = true;
		s->overrun = false;
	}
	pthread_mutex_unlock(&lock);
	if (!s)
		return fail(EBADF);
	/* sock_error() comes before the queue */
	if (overrun)
		return fail(ENOBUFS);
	if (!real_recvmsg)
		return fail(ENOSYS);
	name = msg->msg_name;
	namelen = msg->msg_namelen;
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	ret = real_recvmsg(fd, msg, flags);
	if (ret >= 0 && !(flags & MSG_PEEK)) {
		/* a datagram read: a running dump may go on to its end */
		pthread_mutex_lock(&lock);
		s = get(fd);
		if (s && s->queued)
			s->queued--;
		if (s && s->dump_left && !--s->dump_left && s->held) {
			/* the records are read: the dump ends */
			queue(s, s->held, s->held_len);
			free(s->held);
			s->held = NULL;
		}
		pthread_mutex_unlock(&lock);
	}
	msg->msg_name = name;
	msg->msg_namelen = namelen;
	if (ret >= 0 && name)
		put_name(name, &msg->msg_namelen, 0, 0);
	else if (ret >= 0)
		msg->msg_namelen = 0;
	return ret;
}

static int sol_netlink_flag(struct nlsock *s, int name, bool **flag)
{
	switch (name) {
	case NETLINK_CAP_ACK:
		*flag = &s->cap_ack;
		return 0;
	case NETLINK_EXT_ACK:
		*flag = &s->ext_ack;
		return 0;
	case NETLINK_NO_ENOBUFS:
		*flag = &s->no_enobufs;
		return 0;
	case NETLINK_PKTINFO:
		*flag = &s->pktinfo;
		return 0;
	case NETLINK_BROADCAST_ERROR:
		*flag = &s->bcast_err;
		return 0;
	case NETLINK_GET_STRICT_CHK:
		*flag = &s->strict;
		return 0;
	}
	return -ENOPROTOOPT;
}

/* netlink_setsockopt(); other levels go to the real socket */
int emu_nl_setsockopt(int fd, int level, int name, const void *val,
		      socklen_t len)
{
	int (*real_setsockopt)(int, int, int, const void *, socklen_t) =
		(int (*)(int, int, int, const void *, socklen_t))emu_real(
			"setsockopt");
	struct nlsock *s;
	unsigned int v = 0;
	bool *flag;
	int err = 0;

	if (level != SOL_NETLINK)
		return real_setsockopt ? real_setsockopt(fd, level, name, val,
							 len) :
					 fail(ENOSYS);
	if (len >= sizeof(int) && val)
		memcpy(&v, val, sizeof(v));
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (!s) {
		err = EBADF;
	} else if (name == NETLINK_ADD_MEMBERSHIP ||
		   name == NETLINK_DROP_MEMBERSHIP) {
		if (len < sizeof(int))
			err = EINVAL;
		else if (!net_admin())
			err = EPERM;
		else if (!v || v > 32)
			err = EINVAL;
		else if (name == NETLINK_ADD_MEMBERSHIP)
			s->groups |= 1u << (v - 1);
		else
			s->groups &= ~(1u << (v - 1));
	} else if (!sol_netlink_flag(s, name, &flag)) {
		if (len < sizeof(int))
			err = EINVAL;
		else
			*flag = v != 0;
	} else {
		err = ENOPROTOOPT;
	}
	pthread_mutex_unlock(&lock);
	return err ? fail(err) : 0;
}

/*
 * netlink_getsockopt(), and what SOL_SOCKET says of the socket's family,
 * type and protocol; the rest is the real socket's
 */
int emu_nl_getsockopt(int fd, int level, int name, void *val,
		      socklen_t *len)
{
	int (*real_getsockopt)(int, int, int, void *, socklen_t *) =
		(int (*)(int, int, int, void *, socklen_t *))emu_real(
			"getsockopt");
	struct nlsock *s;
	bool *flag;
	int v = 0, err = 0;

	if (level == SOL_SOCKET && name != SO_DOMAIN && name != SO_TYPE &&
	    name != SO_PROTOCOL)
		return real_getsockopt ? real_getsockopt(fd, level, name, val,
							 len) :
					 fail(ENOSYS);
	if (level != SOL_SOCKET && level != SOL_NETLINK)
		return real_getsockopt ? real_getsockopt(fd, level, name, val,
							 len) :
					 fail(ENOSYS);
	if (!len || !val)
		return fail(EFAULT);
	if (*len < sizeof(int))
		return fail(EINVAL);
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (!s)
		err = EBADF;
	else if (level == SOL_SOCKET)
		v = name == SO_DOMAIN ? AF_NETLINK :
		    name == SO_TYPE   ? s->type :
					NETLINK_RDMA;
	else if (name == NETLINK_LIST_MEMBERSHIPS)
		v = (int)s->groups;
	else if (!sol_netlink_flag(s, name, &flag))
		v = *flag;
	else
		err = ENOPROTOOPT;
	pthread_mutex_unlock(&lock);
	if (err)
		return fail(err);
	memcpy(val, &v, sizeof(v));
	*len = sizeof(v);
	return 0;
}

void emu_nl_close(int fd)
{
	struct nlsock *s;

	if (!__atomic_load_n(&nsocks, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&lock);
	s = get(fd);
	if (s)
		drop(s);
	pthread_mutex_unlock(&lock);
}
