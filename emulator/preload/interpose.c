// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The libc entry points the preload takes over.  Each one decides first
 * whether the call concerns an emulated device; anything else goes to the
 * next definition (libc, or a sanitizer's interceptor) untouched.
 */
#include <dlfcn.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_user_ioctl_cmds.h>

#include "preload.h"

#define EXPORT __attribute__((visibility("default")))

void *emu_real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

#define REAL(ret, name, ...)                                                 \
	static ret (*real_fn)(__VA_ARGS__);                                  \
	if (!real_fn)                                                        \
		real_fn = (ret(*)(__VA_ARGS__))emu_real(name);               \
	if (!real_fn) {                                                      \
		errno = ENOSYS;                                              \
		return (ret)-1;                                              \
	}

/* What the kernel's devtmpfs node would report. */
static void fill_stat(struct stat *st, int dev)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(0, 5);
	st->st_ino = 1000 + dev;
	st->st_mode = S_IFCHR | 0666;
	st->st_nlink = 1;
	st->st_rdev = makedev(EMU_UVERBS_MAJOR, EMU_UVERBS_MINOR_BASE + dev);
	st->st_blksize = 4096;
}

static void fill_statx(struct statx *stx, int dev)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_blksize = 4096;
	stx->stx_nlink = 1;
	stx->stx_mode = S_IFCHR | 0666;
	stx->stx_ino = 1000 + dev;
	stx->stx_rdev_major = EMU_UVERBS_MAJOR;
	stx->stx_rdev_minor = EMU_UVERBS_MINOR_BASE + dev;
	stx->stx_dev_minor = 5;
}

/*
 * The kernel's sysfs for the devices is the generated tree: a path under
 * /sys/class/infiniband[_verbs] is looked up there.  The buffer is the
 * thread's, used up by the one call it is passed to.
 */
static const char *sys_path(const char *path)
{
	static __thread char buf[PATH_MAX];

	return emu_sys_path(path, buf, sizeof(buf));
}

static __attribute__((noinline)) int open_path(const char *path, int flags,
					       int *handled)
{
	int dev = path ? emu_path_dev(path) : -1;

	*handled = dev >= 0;
	if (dev < 0)
		return -1;
	return emu_open_dev(dev, flags);
}

static mode_t va_mode(int flags, va_list ap)
{
	if (flags & (O_CREAT | __O_TMPFILE))
		return va_arg(ap, mode_t);
	return 0;
}

/*
 * open() and its variants: an emulated device's path is opened here;
 * any other goes to the next definition with the same arguments (mode
 * only where the flags say one was passed).
 */
#define OPEN_WITH_MODE(fn, params, args, ...)                                \
	EXPORT int fn params                                                 \
	{                                                                    \
		va_list ap;                                                  \
		mode_t mode;                                                 \
		int h, fd = open_path(path, flags, &h);                      \
									     \
		if (h)                                                       \
			return fd;                                           \
		va_start(ap, flags);                                         \
		mode = va_mode(flags, ap);                                   \
		va_end(ap);                                                  \
		{                                                            \
			REAL(int, #fn, __VA_ARGS__);                         \
			return real_fn args;                                 \
		}                                                            \
	}

#define OPEN_CHECKED(fn, params, args, ...)                                  \
	EXPORT int fn params                                                 \
	{                                                                    \
		int h, fd = open_path(path, flags, &h);                      \
									     \
		if (h)                                                       \
			return fd;                                           \
		{                                                            \
			REAL(int, #fn, __VA_ARGS__);                         \
			return real_fn args;                                 \
		}                                                            \
	}

OPEN_WITH_MODE(open, (const char *path, int flags, ...),
	       (sys_path(path), flags, mode), const char *, int, ...)
OPEN_WITH_MODE(open64, (const char *path, int flags, ...),
	       (sys_path(path), flags, mode), const char *, int, ...)
OPEN_WITH_MODE(openat, (int dirfd, const char *path, int flags, ...),
	       (dirfd, sys_path(path), flags, mode),
	       int, const char *, int, ...)
OPEN_WITH_MODE(openat64, (int dirfd, const char *path, int flags, ...),
	       (dirfd, sys_path(path), flags, mode),
	       int, const char *, int, ...)
/* the _FORTIFY_SOURCE entry points, which take no mode */
OPEN_CHECKED(__open_2, (const char *path, int flags),
	     (sys_path(path), flags),
	     const char *, int)
OPEN_CHECKED(__open64_2, (const char *path, int flags),
	     (sys_path(path), flags),
	     const char *, int)
OPEN_CHECKED(__openat_2, (int dirfd, const char *path, int flags),
	     (dirfd, sys_path(path), flags), int, const char *, int)
OPEN_CHECKED(__openat64_2, (int dirfd, const char *path, int flags),
	     (dirfd, sys_path(path), flags), int, const char *, int)

static __attribute__((noinline)) int stat_path(const char *path,
					       struct stat *st, int *handled)
{
	int dev = path ? emu_path_dev(path) : -1;

	*handled = dev >= 0;
	if (dev >= 0)
		fill_stat(st, dev);
	return 0;
}

/* stat() and lstat(): an emulated device node answers for itself. */
#define STAT_PATH(name)                                                      \
	EXPORT int name(const char *path, struct stat *st)                   \
	{                                                                    \
		int h;                                                       \
									     \
		stat_path(path, st, &h);                                     \
		if (h)                                                       \
			return 0;                                            \
		{                                                            \
			REAL(int, #name, const char *, struct stat *);       \
			return real_fn(sys_path(path), st);                  \
		}                                                            \
	}

STAT_PATH(stat)
STAT_PATH(lstat)

EXPORT int stat64(const char *path, struct stat64 *st)
{
	return stat(path, (struct stat *)st);
}

EXPORT int lstat64(const char *path, struct stat64 *st)
{
	return lstat(path, (struct stat *)st);
}

/* an fd is ours only if it is a socket connected to the daemon */
static int fstat_fd(int fd, struct stat *st)
{
	int dev;

	if (!S_ISSOCK(st->st_mode))
		return 0;
	dev = emu_fd_dev(fd);
	if (dev >= 0)
		fill_stat(st, dev);
	return 0;
}

EXPORT int fstat(int fd, struct stat *st)
{
	REAL(int, "fstat", int, struct stat *);
	if (real_fn(fd, st))
		return -1;
	return fstat_fd(fd, st);
}

EXPORT int fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

static __attribute__((noinline)) int empty_path(const char *path, int flags)
{
	return path && !*path && (flags & AT_EMPTY_PATH);
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	int h;

	if (empty_path(path, flags))
		return fstat(dirfd, st);
	stat_path(path, st, &h);
	if (h)
		return 0;
	{
		REAL(int, "fstatat", int, const char *, struct stat *, int);
		return real_fn(dirfd, sys_path(path), st, flags);
	}
}

EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st,
		     int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

/* the pre-2.33 glibc entry points old binaries still call */
EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	return stat(path, st);
}

EXPORT int __xstat64(int ver, const char *path, struct stat64 *st)
{
	return stat(path, (struct stat *)st);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	return lstat(path, st);
}

EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	return lstat(path, (struct stat *)st);
}

EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	return fstat(fd, st);
}

EXPORT int __fxstat64(int ver, int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st,
		      int flags)
{
	return fstatat(dirfd, path, st, flags);
}

EXPORT int __fxstatat64(int ver, int dirfd, const char *path,
			struct stat64 *st, int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

static __attribute__((noinline)) int statx_dev(int dirfd, const char *path,
						      int flags)
{
	if (path && !*path && (flags & AT_EMPTY_PATH))
		return emu_fd_dev(dirfd);
	return path ? emu_path_dev(path) : -1;
}

EXPORT int statx(int dirfd, const char *path, int flags, unsigned int mask,
		 struct statx *stx)
{
	int dev = statx_dev(dirfd, path, flags);

	if (dev >= 0) {
		fill_statx(stx, dev);
		return 0;
	}
	{
		REAL(int, "statx", int, const char *, int, unsigned int,
		     struct statx *);
		return real_fn(dirfd, sys_path(path), flags, mask, stx);
	}
}

EXPORT int access(const char *path, int mode)
{
	REAL(int, "access", const char *, int);
	return real_fn(sys_path(path), mode);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	REAL(int, "faccessat", int, const char *, int, int);
	return real_fn(dirfd, sys_path(path), mode, flags);
}

/* glibc's opendir() opens the directory internally, past open() */
EXPORT DIR *opendir(const char *path)
{
	static DIR *(*real_opendir)(const char *);

	if (!real_opendir)
		real_opendir = (DIR * (*)(const char *)) emu_real("opendir");
	if (!real_opendir) {
		errno = ENOSYS;
		return NULL;
	}
	return real_opendir(sys_path(path));
}

EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == RDMA_VERBS_IOCTL && emu_fd_dev(fd) >= 0)
		return emu_ioctl(fd, arg);
	{
		REAL(int, "ioctl", int, unsigned long, ...);
		return real_fn(fd, request, arg);
	}
}

/*
 * The command fd's file operations (uverbs_main.c's uverbs_mmap_fops):
 * write is ib_uverbs_write(), asked of the daemon; there is no read, so
 * vfs_read() and vfs_readv() answer EINVAL at once (EBADF for a file
 * not opened for reading: the daemon knows the mode); there is no poll, so
 * the file is always ready for reading and writing (DEFAULT_POLLMASK).
 * pread(), pwrite() and lseek() get ESPIPE from the socket itself, as
 * from a file opened with nonseekable_open().
 */
static bool emu_fd(int fd)
{
	return fd >= 0 && emu_active() && emu_fd_dev(fd) >= 0;
}

EXPORT ssize_t write(int fd, const void *buf, size_t count)
{
	if (emu_fd(fd))
		return emu_write(fd, buf, count);
	{
		REAL(ssize_t, "write", int, const void *, size_t);
		return real_fn(fd, buf, count);
	}
}

/*
 * vfs_writev() on a file with .write only: nothing for an empty total,
 * then one write per piece (do_loop_readv_writev()), stopping at the
 * first error or short write; the first piece is written even when
 * empty (EINVAL then), later empty ones are stepped over.
 */
static ssize_t emu_writev(int fd, const struct iovec *iov, int n)
{
	size_t total = 0, done = 0;
	ssize_t k;
	int i;

	if (n < 0 || n > IOV_MAX) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (iov[i].iov_len > (size_t)SSIZE_MAX - total) {
			errno = EINVAL;
			return -1;
		}
		total += iov[i].iov_len;
	}
	if (!total)
		return 0;
	for (i = 0; i < n && done < total; i++) {
		if (i && !iov[i].iov_len)
			continue;
		k = emu_write(fd, iov[i].iov_base, iov[i].iov_len);
		if (k < 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
	if (emu_fd(fd))
		return emu_writev(fd, iov, n);
	{
		REAL(ssize_t, "writev", int, const struct iovec *, int);
		return real_fn(fd, iov, n);
	}
}

EXPORT ssize_t read(int fd, void *buf, size_t count)
{
	/* netlink_recvmsg(), which counts what a running dump sent */
	if (emu_nl_owns(fd))
		return recv(fd, buf, count, 0);
	if (emu_fd(fd))
		return emu_read(fd);
	{
		REAL(ssize_t, "read", int, void *, size_t);
		return real_fn(fd, buf, count);
	}
}

EXPORT ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	if (count > buflen)
		abort();
	return read(fd, buf, count);
}

EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
	if (emu_fd(fd))
		return emu_read(fd);
	{
		REAL(ssize_t, "readv", int, const struct iovec *, int);
		return real_fn(fd, iov, n);
	}
}

/* vfs_poll() of a file without .poll, filtered by what was asked */
#define EMU_POLL_READY (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/*
 * poll() and ppoll(): the command fds answer for themselves; the others
 * are polled for real, without waiting if a command fd is ready.  The
 * caller's array is lent to the real call with the command fds set to
 * -1 (which poll skips) and given back as it was.
 */
static int emu_poll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		    const sigset_t *mask)
{
	static int (*real_ppoll)(struct pollfd *, nfds_t,
				 const struct timespec *, const sigset_t *);
	const struct timespec now = { 0, 0 };
	nfds_t i, mine = 0;
	int ready = 0, ret, err;
	int *saved;

	if (!real_ppoll)
		real_ppoll = (int (*)(struct pollfd *, nfds_t,
				      const struct timespec *,
				      const sigset_t *))emu_real("ppoll");
	if (!real_ppoll) {
		errno = ENOSYS;
		return -1;
	}
	if (!emu_active() || !fds || !n || n > 4096)
		return real_ppoll(fds, n, ts, mask);
	saved = malloc(n * sizeof(*saved));
	if (!saved)
		return real_ppoll(fds, n, ts, mask);
	for (i = 0; i < n; i++) {
		saved[i] = fds[i].fd;
		if (!emu_fd(fds[i].fd)) {
			saved[i] = -1;
			continue;
		}
		mine++;
		if (fds[i].events & EMU_POLL_READY)
			ready++;
		fds[i].fd = -1;
	}
	if (!mine) {
		free(saved);
		return real_ppoll(fds, n, ts, mask);
	}
	ret = real_ppoll(fds, n, ready ? &now : ts, mask);
	err = errno;
	for (i = 0; i < n; i++) {
		if (saved[i] < 0)
			continue;
		fds[i].fd = saved[i];
		fds[i].revents = fds[i].events & EMU_POLL_READY;
	}
	free(saved);
	if (ret < 0) {
		errno = err;
		return -1;
	}
	return ret + ready;
}

EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };

	return emu_poll(fds, n, timeout < 0 ? NULL : &ts, NULL);
}

EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask)
{
	return emu_poll(fds, n, ts, mask);
}

EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int timeout,
		      size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		abort();
	return poll(fds, n, timeout);
}

/*
 * do_epoll_ctl(): a file without poll cannot be watched, whatever the
 * operation: EPERM.
 */
EXPORT int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	if (emu_fd(fd)) {
		errno = EPERM;
		return -1;
	}
	{
		REAL(int, "epoll_ctl", int, int, int, struct epoll_event *);
		return real_fn(epfd, op, fd, ev);
	}
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	static void *(*real_mmap)(void *, size_t, int, int, int, off_t);

	if (fd >= 0 && !(flags & MAP_ANONYMOUS) && emu_fd_dev(fd) >= 0)
		return emu_mmap(addr, len, prot, flags, fd, off);
	if (!real_mmap)
		real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))
			emu_real("mmap");
	if (!real_mmap) {
		errno = ENOSYS;
		return MAP_FAILED;
	}
	addr = real_mmap(addr, len, prot, flags, fd, off);
	if (addr != MAP_FAILED && (flags & MAP_FIXED))
		emu_ro_map_forget(addr, len);
	return addr;
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

/*
 * A device page the kernel mapped without VM_MAYWRITE (the core clock)
 * cannot be made writable: mprotect() fails with EACCES, as there.
 */
EXPORT int mprotect(void *addr, size_t len, int prot)
{
	if ((prot & PROT_WRITE) && emu_ro_map_overlaps(addr, len)) {
		errno = EACCES;
		return -1;
	}
	{
		REAL(int, "mprotect", void *, size_t, int);
		return real_fn(addr, len, prot);
	}
}

EXPORT int munmap(void *addr, size_t len)
{
	REAL(int, "munmap", void *, size_t);
	if (real_fn(addr, len))
		return -1;
	emu_ro_map_forget(addr, len);
	return 0;
}

EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags,
		    ...)
{
	static void *(*real_mremap)(void *, size_t, size_t, int, ...);
	void *new_addr = NULL, *p;
	bool ro = emu_ro_map_overlaps(old, old_len);
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	if (!real_mremap)
		real_mremap = (void *(*)(void *, size_t, size_t, int, ...))
			emu_real("mremap");
	if (!real_mremap) {
		errno = ENOSYS;
		return MAP_FAILED;
	}
	p = real_mremap(old, old_len, new_len, flags, new_addr);
	if (p != MAP_FAILED && (ro || (flags & MREMAP_FIXED))) {
		emu_ro_map_forget(old, old_len);
		emu_ro_map_forget(p, new_len);
		if (ro)
			emu_ro_map_add(p, new_len);
	}
	return p;
}

/*
 * RDMA netlink under the emulator is answered by nldev.c for the emulated
 * devices; MLX5_EMU_NETLINK=0 (mlx5-emu run --no-netlink) refuses it as a
 * kernel without it would, and libibverbs then reads $SYSFS_PATH.
 */
static bool netlink_refused(void)
{
	const char *v = getenv("MLX5_EMU_NETLINK");

	return v && !strcmp(v, "0");
}

EXPORT int socket(int domain, int type, int protocol)
{
	if (domain == AF_NETLINK && protocol == NETLINK_RDMA &&
	    emu_active()) {
		if (netlink_refused()) {
			errno = EPROTONOSUPPORT;
			return -1;
		}
		return emu_nl_socket(type);
	}
	{
		REAL(int, "socket", int, int, int);
		return real_fn(domain, type, protocol);
	}
}

/*
 * A socket call on one of the emulated RDMA netlink sockets is nldev's;
 * on any other descriptor, libc's.
 */
#define NL_OR_REAL(ret, name, params, args, ...)                           \
	EXPORT ret name params                                              \
	{                                                                   \
		if (emu_nl_owns(fd))                                        \
			return emu_nl_##name args;                          \
		{                                                           \
			REAL(ret, #name, __VA_ARGS__);                      \
			return real_fn args;                                \
		}                                                           \
	}

NL_OR_REAL(int, bind, (int fd, const struct sockaddr *addr, socklen_t len),
	   (fd, addr, len), int, const struct sockaddr *, socklen_t)

NL_OR_REAL(int, getsockname,
	   (int fd, struct sockaddr *addr, socklen_t *len), (fd, addr, len),
	   int, struct sockaddr *, socklen_t *)

NL_OR_REAL(ssize_t, sendmsg, (int fd, const struct msghdr *msg, int flags),
	   (fd, msg, flags), int, const struct msghdr *, int)

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *addr, socklen_t alen)
{
	if (emu_nl_owns(fd)) {
		struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
		struct msghdr msg = { .msg_name = (void *)addr,
				      .msg_namelen = addr ? alen : 0,
				      .msg_iov = &iov, .msg_iovlen = 1 };

		return emu_nl_sendmsg(fd, &msg, flags);
	}
	{
		REAL(ssize_t, "sendto", int, const void *, size_t, int,
		     const struct sockaddr *, socklen_t);
		return real_fn(fd, buf, len, flags, addr, alen);
	}
}

EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	if (emu_nl_owns(fd))
		return sendto(fd, buf, len, flags, NULL, 0);
	{
		REAL(ssize_t, "send", int, const void *, size_t, int);
		return real_fn(fd, buf, len, flags);
	}
}

NL_OR_REAL(ssize_t, recvmsg, (int fd, struct msghdr *msg, int flags),
	   (fd, msg, flags), int, struct msghdr *, int)

EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
			struct sockaddr *addr, socklen_t *alen)
{
	if (emu_nl_owns(fd)) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		struct msghdr msg = { .msg_name = addr,
				      .msg_namelen = alen ? *alen : 0,
				      .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t ret = emu_nl_recvmsg(fd, &msg, flags);

		if (ret >= 0 && addr && alen)
			*alen = msg.msg_namelen;
		return ret;
	}
	{
		REAL(ssize_t, "recvfrom", int, void *, size_t, int,
		     struct sockaddr *, socklen_t *);
		return real_fn(fd, buf, len, flags, addr, alen);
	}
}

EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	if (emu_nl_owns(fd))
		return recvfrom(fd, buf, len, flags, NULL, NULL);
	{
		REAL(ssize_t, "recv", int, void *, size_t, int);
		return real_fn(fd, buf, len, flags);
	}
}

/* _FORTIFY_SOURCE's checked recv entry points */
EXPORT ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen,
			  int flags)
{
	if (len > buflen)
		abort();
	return recv(fd, buf, len, flags);
}

EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen,
			      int flags, struct sockaddr *addr,
			      socklen_t *alen)
{
	if (len > buflen)
		abort();
	return recvfrom(fd, buf, len, flags, addr, alen);
}

NL_OR_REAL(int, setsockopt,
	   (int fd, int level, int name, const void *val, socklen_t len),
	   (fd, level, name, val, len), int, int, int, const void *, socklen_t)

NL_OR_REAL(int, getsockopt,
	   (int fd, int level, int name, void *val, socklen_t *len),
	   (fd, level, name, val, len), int, int, int, void *, socklen_t *)

EXPORT int close(int fd)
{
	emu_nl_close(fd);
	{
		REAL(int, "close", int);
		return real_fn(fd);
	}
}
