// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "wire_io.h"

/* All len bytes through recv() or send(), across interruptions. */
static int io_full(int fd, uint8_t *p, size_t len, bool out)
{
	while (len) {
		ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL) :
				  recv(fd, p, len, MSG_WAITALL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int emu_wire_read_full(int fd, void *buf, size_t len)
{
	return io_full(fd, buf, len, false);
}

int emu_wire_write_full(int fd, const void *buf, size_t len)
{
	/* send() only reads the buffer */
	return io_full(fd, (uint8_t *)buf, len, true);
}

int emu_wire_sendv_full(int fd, struct iovec *iov, unsigned int n,
			size_t *sent)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = n };

	*sent = 0;
	while (msg.msg_iovlen) {
		ssize_t k = emu_wire_sendmsg(fd, &msg, MSG_NOSIGNAL);
		size_t done;

		if (k < 0)
			return -errno;
		if (k == 0)
			return -EIO;
		*sent += (size_t)k;
		done = (size_t)k;
		/* skip what went, finished pieces first */
		while (msg.msg_iovlen && done >= msg.msg_iov->iov_len) {
			done -= msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			struct iovec *v = msg.msg_iov;

			v->iov_base = (uint8_t *)v->iov_base + done;
			v->iov_len -= done;
		}
	}
	return 0;
}

ssize_t emu_wire_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t n;

	do {
		n = sendmsg(fd, msg, flags);
	} while (n < 0 && errno == EINTR);
	return n;
}

ssize_t emu_wire_recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t n;

	do {
		n = recvmsg(fd, msg, flags);
	} while (n < 0 && errno == EINTR);
	return n;
}

uint64_t emu_wire_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool emu_spin_more(struct emu_spin *sp, uint64_t start)
{
	if (emu_wire_now_ns() - start < EMU_WIRE_SPIN_NS)
		return true;
	sp->off = true;
	return false;
}

void emu_spin_learn(struct emu_spin *sp, uint64_t start)
{
	sp->off = emu_wire_now_ns() - start >= EMU_WIRE_SPIN_NS;
}

ssize_t emu_wire_recvmsg_spin(int fd, struct msghdr *msg, int flags,
			      struct emu_spin *sp)
{
	uint64_t start = emu_wire_now_ns();
	struct msghdr m;
	ssize_t n;

	while (!sp->off) {
		m = *msg;	/* a failed try may have written to it */
		n = recvmsg(fd, &m, flags | MSG_DONTWAIT);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
			*msg = m;
			return n;
		}
		if (emu_spin_more(sp, start))
			sched_yield();	/* the peer may need this CPU */
	}
	n = emu_wire_recvmsg(fd, msg, flags);
	emu_spin_learn(sp, start);
	return n;
}

void emu_wire_attach_fds(struct msghdr *msg, void *cbuf, const int *fds,
			 unsigned int nfds)
{
	struct cmsghdr *cm;

	memset(cbuf, 0, CMSG_SPACE(nfds * sizeof(int)));
	msg->msg_control = cbuf;
	msg->msg_controllen = CMSG_SPACE(nfds * sizeof(int));
	cm = CMSG_FIRSTHDR(msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
}

unsigned int emu_wire_take_fds(struct msghdr *msg, int *fds,
			       unsigned int max)
{
	unsigned int got = 0;
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
		size_t i, k;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			       sizeof(fd));
			if (got < max)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	return got;
}
