/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Running out of descriptors: fd_fill() lowers RLIMIT_NOFILE to at most
 * FD_FILL_LIMIT and opens /dev/null until open() fails; fd_unfill()
 * closes them and puts the old limit back.  Whether every descriptor was
 * used up (n < FD_FILL_LIMIT) is for the test to assert.
 */
#ifndef MLX5_SHARE_TEST_FD_FILL_H
#define MLX5_SHARE_TEST_FD_FILL_H

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"

enum { FD_FILL_LIMIT = 256 };

struct fd_fill {
	struct rlimit old;
	int n;				/* descriptors opened */
	int fds[FD_FILL_LIMIT];
};

static inline void fd_fill(struct fd_fill *f)
{
	struct rlimit rl;

	REQUIRE(getrlimit(RLIMIT_NOFILE, &f->old) == 0);
	rl = f->old;
	if (rl.rlim_cur > FD_FILL_LIMIT)
		rl.rlim_cur = FD_FILL_LIMIT;
	REQUIRE(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	f->n = 0;
	while (f->n < FD_FILL_LIMIT) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			break;
		f->fds[f->n++] = fd;
	}
}

static inline void fd_unfill(struct fd_fill *f)
{
	while (f->n)
		close(f->fds[--f->n]);
	REQUIRE(setrlimit(RLIMIT_NOFILE, &f->old) == 0);
}

#endif
