// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * xa_handles_bench.c as a program: the kernel's own lib/xarray.c, built
 * in userspace by its test harness (tools/testing/radix-tree, with
 * liburcu for RCU), runs the same patterns at native speed.  What the
 * harness does not provide is defined here; xa_handles_native.sh builds
 * it.  Nodes come from malloc() and are freed through liburcu's
 * call_rcu(), not from the slab: the node counts are the kernel's, the
 * times are of this stand-in.
 */
#include <stdlib.h>
#include <time.h>
#include "shared.h"
#include <linux/radix-tree.h>

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)((u64)random() * ceil / ((u64)RAND_MAX + 1));
}

#define module_param(name, type, perm)
#define MODULE_PARM_DESC(name, text)
#undef MODULE_DESCRIPTION
#define MODULE_DESCRIPTION(text)
#undef module_init
#define module_init(fn)
#undef module_exit
#define module_exit(fn)
#define __init
#define __exit
#ifndef U64_MAX
#define U64_MAX UINT64_MAX
#endif
#define cond_resched() do { } while (0)
#define kvcalloc(n, size, gfp) calloc(n, size)
#define kvfree(p) free(p)

#include "xa_handles_bench.c"

int main(void)
{
	int err;

	rcu_register_thread();
	radix_tree_init();
	err = xa_handles_bench_init();
	rcu_barrier();
	rcu_unregister_thread();
	return err ? 1 : 0;
}
