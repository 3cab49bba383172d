// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A hostile client against the daemon's memory (mlx5-emu run
 * --handles=unique): with numbers never given twice, a file that creates
 * and destroys objects without end walks its handles up; the daemon's
 * table must follow the live objects, not the numbers given, or one
 * client takes the memory every other client needs.  PAIRS (default
 * 1,000,000) PD create/destroy pairs through one file, with a few PDs
 * kept alive throughout; the daemon's resident set before and after is
 * printed, and may grow by at most 4 MiB (a table indexed by handle
 * grows by 8 bytes a number: 8 MiB for the million).  Another client is
 * served afterwards.
 *
 * Usage: test_handle_churn [PAIRS]
 */
#include <stdio.h>

#include "emu_util.h"

#define NAME "emu_handle_churn"
#define KEEP 16
#define GROWTH_MAX_KB 4096

/* VmRSS of pid in KiB, or 0 */
static unsigned long rss_kb(pid_t pid)
{
	char path[64], line[256];
	unsigned long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void churn(struct ibv_context *ctx, unsigned long pairs,
		  uint32_t *last)
{
	struct ibv_pd *pd;
	unsigned long i;

	for (i = 0; i < pairs; i++) {
		pd = ibv_alloc_pd(ctx);
		REQUIRE(pd);
		*last = pd->handle;
		REQUIRE(ibv_dealloc_pd(pd) == 0);
	}
}

int main(int argc, char **argv)
{
	unsigned long pairs = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	struct ibv_context *ctx, *other;
	struct ibv_pd *keep[KEEP], *pd;
	unsigned long before, after;
	uint32_t last = 0;
	pid_t daemon;
	int i;

	ctx = emu_start_verbs(NAME);
	daemon = emu_daemon_pid(NAME);
	for (i = 0; i < KEEP; i++) {
		keep[i] = ibv_alloc_pd(ctx);
		REQUIRE(keep[i]);
	}
	/* the daemon's own buffers and the first table sizes settle */
	churn(ctx, 10000, &last);
	before = rss_kb(daemon);
	REQUIRE(before > 0);
	churn(ctx, pairs, &last);
	after = rss_kb(daemon);
	printf("%lu PD create/destroy pairs, %d PDs kept: daemon RSS "
	       "%lu KiB before, %lu KiB after (%+ld KiB); last handle %u\n",
	       pairs, KEEP, before, after, (long)(after - before), last);
	CHECK(last >= pairs);
	CHECK(after <= before + GROWTH_MAX_KB);
	for (i = 0; i < KEEP; i++)
		CHECK_EQ(ibv_dealloc_pd(keep[i]), 0);
	/* another client is served */
	other = emu_start_verbs(NAME);
	pd = ibv_alloc_pd(other);
	CHECK(pd);
	if (pd)
		CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
