/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The socket plumbing of the protocol in wire.h, shared by both of its
 * ends: the daemon (mlx5-emu) and the preload, which builds this file
 * into its own shared object.
 */
#ifndef MLX5_EMU_WIRE_IO_H
#define MLX5_EMU_WIRE_IO_H

#include <stddef.h>
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
