// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How fast one process can use up the handle numbers of one verbs file:
 * times ibv_alloc_pd()+ibv_dealloc_pd() pairs (a PD is the cheapest
 * object to create: no queue, no memory pinned) on the first device, or
 * the one named, and extrapolates to 2^31 pairs, the numbers a file has
 * under the never-reuse rule ([0, INT_MAX]).  Every PD must be created
 * and destroyed: a failure is reported and exits 1.  It also times the
 * cheapest system call (getppid) in the same place, to say how slow that
 * place is: TCG and sandboxed hosts make every system call dear.  Timing
 * only; nothing is asserted.
 *
 * Usage: pd_pair_rate [DEVICE [PAIRS]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <infiniband/verbs.h>

#define WARMUP_PAIRS 1000
#define HANDLE_NUMBERS (1ULL << 31)
#define YARDSTICK_CALLS 1000000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ns per getppid() system call, made directly (no libc caching). */
static double syscall_ns(void)
{
	double t = now_s();
	int i;

	for (i = 0; i < YARDSTICK_CALLS; i++)
		syscall(SYS_getppid);
	return (now_s() - t) * 1e9 / YARDSTICK_CALLS;
}

static struct ibv_device *pick_device(struct ibv_device **list,
				      const char *name)
{
	int i;

	for (i = 0; list[i]; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name))
			return list[i];
	return NULL;
}

static int run_pairs(struct ibv_context *ctx, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct ibv_pd *pd = ibv_alloc_pd(ctx);

		if (!pd) {
			fprintf(stderr, "ibv_alloc_pd (pair %lu): %s\n", i,
				strerror(errno));
			return -1;
		}
		errno = ibv_dealloc_pd(pd);
		if (errno) {
			fprintf(stderr, "ibv_dealloc_pd (pair %lu): %s\n", i,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 && strcmp(argv[1], "-") ? argv[1] : NULL;
	unsigned long pairs = argc > 2 ? strtoul(argv[2], NULL, 0) : 200000;
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_context *ctx;
	double t, pair_s, total_s;
	int rc = 1;

	printf("pd_pair_rate: yardstick: %.0f ns per getppid system call\n",
	       syscall_ns());
	list = ibv_get_device_list(NULL);
	if (!list && errno == ENOSYS) {
		printf("SKIPPED: no verbs support here (ibv_get_device_list: %s)\n",
		       strerror(errno));
		return 77;
	}
	if (!list) {
		perror("ibv_get_device_list");
		return 1;
	}
	dev = pick_device(list, name);
	if (!dev) {
		printf("SKIPPED: no verbs device %s\n", name ? name : "");
		ibv_free_device_list(list);
		return 77;
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		perror("ibv_open_device");
		goto out_list;
	}
	if (run_pairs(ctx, WARMUP_PAIRS))
		goto out_ctx;
	t = now_s();
	if (run_pairs(ctx, pairs))
		goto out_ctx;
	t = now_s() - t;
	pair_s = t / pairs;
	total_s = pair_s * HANDLE_NUMBERS;
	printf("pd_pair_rate: %s: %lu ibv_alloc_pd+ibv_dealloc_pd pairs",
	       ibv_get_device_name(dev), pairs);
	printf(" in %.3f s: %.0f ns/pair\n", t, pair_s * 1e9);
	printf("pd_pair_rate: %s: 2^31 x %.0f ns = %.0f s = %.1f h = %.1f days",
	       ibv_get_device_name(dev), pair_s * 1e9, total_s,
	       total_s / 3600, total_s / 86400);
	printf(" to give every handle number of one file\n");
	rc = 0;
out_ctx:
	ibv_close_device(ctx);
out_list:
	ibv_free_device_list(list);
	return rc;
}
