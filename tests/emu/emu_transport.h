/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * For the tests of mlx5-emu's transport (wire/wire.h): the daemon's
 * descriptors, a channel registered by hand the way the preload does it,
 * and descriptors passed with SCM_RIGHTS.
 */
#ifndef MLX5_EMU_TEST_TRANSPORT_H
#define MLX5_EMU_TEST_TRANSPORT_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "emu_util.h"
#include "wire.h"

/* How many descriptors process pid holds, or -1. */
static inline int emu_proc_fds(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/*
 * A transport test's start: under mlx5-emu (else skipped), device 0
 * opened with DEVX and one DEVX call made, so that its connection and
 * this thread's channel exist; *daemon gets the daemon's pid, *base the
 * descriptors it holds then.
 */
static inline struct ibv_context *emu_start_counted(const char *name,
						    pid_t *daemon, int *base)
{
	struct ibv_context *ctx;
	uint32_t eqn;

	emu_require(name);
	*daemon = emu_daemon_pid(name);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	REQUIRE(mlx5dv_devx_query_eqn(ctx, 0, &eqn) == 0);
	*base = emu_proc_fds(*daemon);
	REQUIRE(*base > 0);
	return ctx;
}

/* sendmsg() of len bytes of data with fd attached: what sendmsg returns */
static inline ssize_t emu_send_with_fd(int sock, const void *data,
				       size_t len, int fd, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	memset(cbuf, 0, sizeof(cbuf));
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, flags);
}

/* One byte and an fd; the fd received, or -1. */
static inline int emu_recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A channel registered on connection fd with a token of this protocol
 * version, as the preload makes one: our end, or -1.
 */
static inline int emu_raw_channel(int fd, uint32_t version)
{
	struct emu_wire_token tok = { EMU_WIRE_MAGIC, version };
	int sp[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp))
		return -1;
	if (emu_send_with_fd(fd, &tok, sizeof(tok), sp[1],
			     MSG_NOSIGNAL | MSG_DONTWAIT) != sizeof(tok)) {
		close(sp[0]);
		sp[0] = -1;
	}
	close(sp[1]);
	return sp[0];
}

#endif
