/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Passing a command fd and export blobs between the processes of a test
 * over a UNIX socket (SOCK_SEQPACKET, or SOCK_STREAM for single bytes):
 * one message carries the payload bytes and, as SCM_RIGHTS ancillary
 * data, at most one fd.  Every test that passes fds uses these.
 */
#ifndef MLX5_SHARE_TEST_FDPASS_H
#define MLX5_SHARE_TEST_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* Sends len bytes of data and fd (none when -1).  0, or -1 with errno. */
int fdpass_send(int sock, int fd, const void *data, size_t len);

/*
 * Receives one message of at most len bytes into data and, when fd is not
 * NULL, the fd it carries (-1 when none).  Returns the bytes received
 * (0 at end of stream), or -1 with errno.
 */
ssize_t fdpass_recv(int sock, int *fd, void *data, size_t len);

/* fdpass_recv() of a message of exactly len bytes: 0, or -1. */
int fdpass_recv_exact(int sock, int *fd, void *data, size_t len);

#endif
