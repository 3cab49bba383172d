// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "fdpass.h"

union fd_cmsg {
	struct cmsghdr hdr;
	char buf[CMSG_SPACE(sizeof(int))];
};

int fdpass_send(int sock, int fd, const void *data, size_t len)
{
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	union fd_cmsg cm;
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = sizeof(cm.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}

	do {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

ssize_t fdpass_recv(int sock, int *fd, void *data, size_t len)
{
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	union fd_cmsg cm;
	struct cmsghdr *c;
	ssize_t n;

	memset(&cm, 0, sizeof(cm));
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	if (fd)
		*fd = -1;

	do {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;

	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int got;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(&got, CMSG_DATA(c), sizeof(int));
		if (fd && *fd < 0)
			*fd = got;
		else
			close(got);
	}
	if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		if (fd && *fd >= 0) {
			close(*fd);
			*fd = -1;
		}
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

int fdpass_recv_exact(int sock, int *fd, void *data, size_t len)
{
	return fdpass_recv(sock, fd, data, len) == (ssize_t)len ? 0 : -1;
}
