/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Counting the uverbs ioctls a program makes: ioctl_watch.c, compiled
 * into the program itself, defines ioctl(), so the library's and
 * libibverbs' calls bind to it first; it shows each uverbs ioctl to the
 * program's ioctl_watch() and hands every call on to the next definition
 * (the emulator's, or libc's).
 */
#ifndef IOCTL_WATCH_H
#define IOCTL_WATCH_H

#include <rdma/rdma_user_ioctl.h>

/*
 * Defined by the program: called with the argument of each
 * RDMA_VERBS_IOCTL (the header, or whatever the caller passed, NULL
 * included) before the call goes on.
 */
void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr);

#endif
