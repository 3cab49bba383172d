// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The socket between exporter and importer: a SOCK_SEQPACKET socketpair,
 * so every message arrives whole or not at all, and the command fd rides
 * on the first one as SCM_RIGHTS, which makes the receiver's fd the same
 * open file (the same uverbs ufile) as the sender's.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mlx5-share-demo.h"

static size_t wire_len(uint32_t count)
{
	return offsetof(struct wire_msg, entry) +
	       (size_t)count * sizeof(struct wire_entry);
}

int wire_send(int sock, const struct wire_msg *m, int fd)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = {
		.iov_base = (void *)m,
		.iov_len = wire_len(m->type == WIRE_BLOBS ? m->count : 0),
	};
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		ctl.hdr.cmsg_level = SOL_SOCKET;
		ctl.hdr.cmsg_type = SCM_RIGHTS;
		ctl.hdr.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&ctl.hdr), &fd, sizeof(int));
	}
	do {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	return (size_t)n == iov.iov_len ? 0 : EPIPE;
}

int wire_send_ctl(int sock, enum wire_type type, uint32_t passed,
		  uint32_t failed)
{
	struct wire_msg m = {
		.type = type,
		.passed = passed,
		.failed = failed,
	};

	return wire_send(sock, &m, -1);
}

/* Keeps the fd only for a caller that asked for one. */
static void take_fd(struct msghdr *msg, int *fd)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c;
	     c = CMSG_NXTHDR(msg, c)) {
		int got;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&got, CMSG_DATA(c), sizeof(int));
		if (fd && *fd < 0)
			*fd = got;
		else
			close(got);
	}
}

int wire_recv(int sock, struct wire_msg *m, int *fd)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.buf,
		.msg_controllen = sizeof(ctl.buf),
	};
	ssize_t n;

	if (fd)
		*fd = -1;
	do {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	take_fd(&msg, fd);
	if (n == 0)
		return EPIPE;	/* the peer is gone */
	if ((size_t)n < wire_len(0) || (msg.msg_flags & MSG_TRUNC) ||
	    (m->type == WIRE_BLOBS &&
	     (m->count > WIRE_BATCH || (size_t)n != wire_len(m->count))))
		return EBADMSG;
	m->device[sizeof(m->device) - 1] = 0;
	return 0;
}
