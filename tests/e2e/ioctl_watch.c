// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The ioctl() of a program that watches its uverbs ioctls (ioctl_watch.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>

#include "ioctl_watch.h"

#pragma weak ioctl_watch
#pragma weak ioctl_answer

__attribute__((visibility("default")))
int ioctl(int fd, unsigned long req, ...)
{
	static int (*next)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
							      "ioctl");
	if (req == RDMA_VERBS_IOCTL) {
		if (ioctl_watch)
			ioctl_watch(arg);
		if (ioctl_answer) {
			err = ioctl_answer(arg);
			if (err) {
				errno = err;
				return -1;
			}
		}
	}
	return next(fd, req, arg);
}
