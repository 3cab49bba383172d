/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the preload's interposers share: the real libc functions, and how
 * an fd or a path is recognised as an emulated /dev/infiniband/uverbsN.
 */
#ifndef MLX5_EMU_PRELOAD_H
#define MLX5_EMU_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "emu_ibdev.h"

/* mlx5-emu run --devices takes at most this many */
#define EMU_MAX_DEVICES 64

/* Whether this process runs under mlx5-emu (MLX5_EMU_DIR is set). */
bool emu_active(void);
/*
 * /sys/class/infiniband[_verbs]/... in the generated sysfs tree (buf), as
 * the kernel's sysfs shows the devices, and /proc/sys/kernel/random/
 * boot_id as this emulated machine's own; any other path unchanged.
 */
const char *emu_sys_path(const char *path, char *buf, size_t len);
/* How many devices the daemon serves. */
unsigned int emu_num_devs(void);
/* The device index of "/dev/infiniband/uverbsN", or -1. */
int emu_path_dev(const char *path);
/* The device index an fd (a connection to the daemon) belongs to, or -1. */
int emu_fd_dev(int fd);
/* Opens an emulated device: a new connection, that is, a new ufile. */
int emu_open_dev(int dev, int flags);
/* RDMA_VERBS_IOCTL on an emulated fd: 0, or -1 with errno */
int emu_ioctl(int fd, void *hdr);
/* write() on an emulated fd: count, or -1 with errno (ib_uverbs_write) */
ssize_t emu_write(int fd, const void *buf, size_t count);
/* read() or readv() on an emulated fd: -1 with errno (vfs_read()) */
int emu_read(int fd);
/* mmap() of an emulated fd */
void *emu_mmap(void *addr, size_t len, int prot, int flags, int fd,
	       off_t off);

/*
 * Device mappings mprotect() may not make writable (VM_MAYWRITE cleared
 * by the kernel): remembered at mmap, forgotten at munmap or when mapped
 * over.
 */
void emu_ro_map_add(void *addr, size_t len);
void emu_ro_map_forget(void *addr, size_t len);
bool emu_ro_map_overlaps(const void *addr, size_t len);

/* copy_from_user() / copy_to_user() on our own memory: 0 or -EFAULT */
int emu_user_read(void *dst, uint64_t src, size_t len);
int emu_user_write(uint64_t dst, const void *src, size_t len);

void *emu_real(const char *name);

/*
 * NETLINK_RDMA sockets (nlsock.c).  emu_nl_owns() is cheap when the
 * process has none; every other function is called only for an fd it
 * owns, and returns what the libc call returns, with errno.
 */
int emu_nl_socket(int type);
bool emu_nl_owns(int fd);
int emu_nl_bind(int fd, const struct sockaddr *addr, socklen_t len);
int emu_nl_getsockname(int fd, struct sockaddr *addr, socklen_t *len);
ssize_t emu_nl_sendmsg(int fd, const struct msghdr *msg, int flags);
ssize_t emu_nl_recvmsg(int fd, struct msghdr *msg, int flags);
int emu_nl_setsockopt(int fd, int level, int name, const void *val,
		      socklen_t len);
int emu_nl_getsockopt(int fd, int level, int name, void *val,
		      socklen_t *len);
void emu_nl_close(int fd);

/* _FORTIFY_SOURCE's open entry points (declared only when fortifying) */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

/* _FORTIFY_SOURCE's read and poll entry points */
struct pollfd;
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
int __poll_chk(struct pollfd *fds, unsigned long n, int timeout,
	       size_t fdslen);

/* _FORTIFY_SOURCE's recv entry points (declared only when fortifying) */
ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen,
		       int flags, struct sockaddr *addr, socklen_t *alen);

/* glibc's pre-2.33 stat entry points, no longer declared by its headers */
struct stat;
struct stat64;
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st,
	       int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st,
		 int flags);

#endif
