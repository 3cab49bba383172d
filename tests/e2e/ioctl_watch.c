// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The ioctl() of a program that counts its uverbs ioctls (ioctl_watch.h). */
#include <dlfcn.h>
#include <stdarg.h>
#include <sys/ioctl.h>

#include "ioctl_watch.h"

__attribute__((visibility("default")))
int ioctl(int fd, unsigned long req, ...)
{
	static int (*next)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
							      "ioctl");
	if (req == RDMA_VERBS_IOCTL)
		ioctl_watch(arg);
	return next(fd, req, arg);
}
