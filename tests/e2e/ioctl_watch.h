/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Watching, and answering, the uverbs ioctls a program makes:
 * ioctl_watch.c, compiled into the program itself, defines ioctl(), so
 * the library's and libibverbs' calls bind to it first; it shows each
 * uverbs ioctl to the program's hooks and hands the call on to the next
 * definition (the emulator's, or libc's) unless a hook answers it.
 */
#ifndef IOCTL_WATCH_H
#define IOCTL_WATCH_H

#include <rdma/rdma_user_ioctl.h>

/*
 * The hooks, each defined by the program that needs it (weak: one left
 * undefined is not called).  Both get the argument of each
 * RDMA_VERBS_IOCTL: the header, or whatever the caller passed, NULL
 * included.
 *
 * ioctl_watch() sees the call before it goes on.
 */
void ioctl_watch(const struct ib_uverbs_ioctl_hdr *hdr);

/*
 * ioctl_answer() is asked next: 0 hands the call on, an errno fails it
 * with that errno (-1 returned) without handing it on.
 */
int ioctl_answer(const struct ib_uverbs_ioctl_hdr *hdr);

#endif
