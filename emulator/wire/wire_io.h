/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The socket plumbing of the protocol in wire.h, shared by both of its
 * ends: the daemon (mlx5-emu) and the preload, which builds this file
 * into its own shared object.
 */
#ifndef MLX5_EMU_WIRE_IO_H
#define MLX5_EMU_WIRE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/* Whole buffers on a stream channel: 0, or -1 on error or EOF. */
int emu_wire_read_full(int fd, void *buf, size_t len);
int emu_wire_write_full(int fd, const void *buf, size_t len);

/*
 * Writes every byte of the n pieces (which it may rewrite) on a stream
 * channel: 0, or -errno; *sent says how many bytes went before that.
 */
int emu_wire_sendv_full(int fd, struct iovec *iov, unsigned int n,
			size_t *sent);

/* sendmsg() / recvmsg() that retry on EINTR. */
ssize_t emu_wire_sendmsg(int fd, const struct msghdr *msg, int flags);
ssize_t emu_wire_recvmsg(int fd, struct msghdr *msg, int flags);

/*
 * How long either end polls for the other's next message before it
 * sleeps.  A round trip that sleeps on both sides pays two wake-ups,
 * which on a virtual machine cost more than all the rest of the call;
 * polling this briefly, and only while the other side answers within it
 * (see emu_spin), avoids them without burning a CPU on an idle peer.
 */
#define EMU_WIRE_SPIN_NS 50000u

/*
 * Whether an end still polls: on while its recent waits were short.
 * One per waiting context (the daemon's loop, a client thread).
 */
struct emu_spin {
	bool off;
};

uint64_t emu_wire_now_ns(void);

/*
 * Whether polling that began at start goes on: false once the window is
 * over, which turns sp off.
 */
bool emu_spin_more(struct emu_spin *sp, uint64_t start);
/* After a sleep that began at start: polling pays again if it was short. */
void emu_spin_learn(struct emu_spin *sp, uint64_t start);

/* One turn of a polling loop: the CPU's hint that this is one. */
static inline void emu_wire_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * recvmsg() on a blocking socket, polled without sleeping for up to
 * EMU_WIRE_SPIN_NS first while sp says it pays; sp learns from the wait.
 */
ssize_t emu_wire_recvmsg_spin(int fd, struct msghdr *msg, int flags,
			      struct emu_spin *sp);

/*
 * Puts nfds fds into msg as one SCM_RIGHTS message; cbuf must hold
 * CMSG_SPACE(nfds * sizeof(int)) bytes.
 */
void emu_wire_attach_fds(struct msghdr *msg, void *cbuf, const int *fds,
			 unsigned int nfds);

/*
 * Takes the fds a received msg carries: the first max go to fds, the
 * rest are closed.  Returns how many were stored.
 */
unsigned int emu_wire_take_fds(struct msghdr *msg, int *fds,
			       unsigned int max);

#endif
