/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Passing a command fd and export blobs between processes over a UNIX
 * socket: one message carries the payload bytes and, as SCM_RIGHTS
 * ancillary data, at most one fd.
 */
#ifndef E2E_FDPASS_H
#define E2E_FDPASS_H

#include <stddef.h>

/* Sends len bytes of data and fd (none when -1).  0, or -1 with errno. */
int fdpass_send(int sock, int fd, const void *data, size_t len);

/*
 * Receives one message of at most len bytes into data and, when fd is not
 * NULL, the fd it carries (-1 when none).  Returns the bytes received
 * (0 at end of stream), or -1 with errno.
 */
ssize_t fdpass_recv(int sock, int *fd, void *data, size_t len);

#endif
