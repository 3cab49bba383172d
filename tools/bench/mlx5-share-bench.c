// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-share-bench: what sharing costs, per object, at N = 1,000, 10,000
 * and 100,000 live objects, next to a model of upstream rdma-core's
 * implementation (export copies five fields; import callocs and copies
 * them back, asking the kernel nothing; unimport frees).
 *
 * For each N it creates N DEVX objects in one context, then measures
 * export, single validated import, the batch import
 * (mlx5share_devx_obj_import_batch) and unimport, and one plain
 * mlx5dv_devx_obj_query per object: the round trip to the (emulated)
 * kernel and firmware that a validated import of a typed object pays,
 * printed so that the library's own share can be told apart.
 *
 * Object kinds (-t), on a kernel without the verbs file id (every
 * released kernel; mlx5-emu run --handles=lowest-free):
 *   counter  flow counters: import confirms each with its id query
 *   pd       PDs made through DEVX: libmlx5 records no type for them, so
 *            import asks INFO_HANDLES, whose answer lists every live
 *            object: O(live objects) per single import, once per batch
 * On a kernel with it (series v3; mlx5-emu's default) import of either
 * compares the blob's file id with the context's and asks nothing.
 *
 * Without a real mlx5 device it runs itself again under mlx5-emu (looked
 * for next to this program, then in PATH).
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>
#include <infiniband/mlx5dv.h>

#include "bench.h"
#include "bench_open.h"
#include "emu_counters_read.h"
#include "file_id_probe.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mlx5-share-bench [-t counter|pd|all] [-n N[,N...]]\n"
		"  -t  object kind (default all: counter, then pd)\n"
		"  -n  object counts (default 1000,10000,100000)\n"
		"Runs under mlx5-emu when no mlx5 device is present.\n");
}

/* How long each figure is measured for (one round if that is longer). */
#define MIN_RUN_NS 200e6

static void run_export(struct bench_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = mlx5dv_devx_obj_export(r->objs[i], r->blobs[i]);

		if (ret)
			bench_die("export", ret);
	}
}

static void run_base_export(struct bench_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		base_export(r->objs[i], r->base_blobs[i]);
}

/*
 * Every figure is the fastest of the rounds run in MIN_RUN_NS (at least
 * one): on a shared machine the slower rounds measure the neighbours.
 */
static double min_of(double best, double t)
{
	return best < 0 || t < best ? t : best;
}

/* fn over n items, repeated: ns per item. */
static double per_item(void (*fn)(struct bench_run *, size_t),
		       struct bench_run *r, size_t n)
{
	double start = now_ns(), best = -1, t0;

	do {
		t0 = now_ns();
		fn(r, n);
		best = min_of(best, now_ns() - t0);
	} while (now_ns() - start < MIN_RUN_NS);
	return best / n;
}

/*
 * Import all n, then unimport all n, repeated: ns per import and per
 * unimport.  base selects upstream's model.
 */
static void import_rounds(struct bench_run *r, size_t n, bool base,
			  double *imp, double *unimp)
{
	double start = now_ns(), bi = -1, bu = -1, t0, t1, t2;
	size_t i;

	do {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			r->imported[i] = base ?
				base_import(r->ctx, r->base_blobs[i]) :
				mlx5dv_devx_obj_import(r->ctx, r->blobs[i]);
			if (!r->imported[i])
				bench_die("import", errno);
		}
		t1 = now_ns();
		for (i = 0; i < n; i++) {
			if (base)
				base_unimport(r->imported[i]);
			else
				mlx5dv_devx_obj_unimport(r->imported[i]);
		}
		t2 = now_ns();
		bi = min_of(bi, t1 - t0);
		bu = min_of(bu, t2 - t1);
	} while (now_ns() - start < MIN_RUN_NS);
	*imp = bi / n;
	*unimp = bu / n;
}

/* The whole batch (its unimport untimed), repeated: ns per batch. */
static double batch_rounds(struct bench_run *r, size_t n)
{
	double start = now_ns(), best = -1, t0;
	size_t i;
	int ok;

	do {
		t0 = now_ns();
		ok = mlx5share_devx_obj_import_batch(r->ctx,
						     (void *const *)r->blobs,
						     n, r->imported, r->errs);
		best = min_of(best, now_ns() - t0);
		if (ok != (int)n) {
			for (i = 0; i < n; i++)
				if (r->errs[i])
					bench_die("batch import", r->errs[i]);
			bench_die("batch import", errno);
		}
		for (i = 0; i < n; i++)
			mlx5dv_devx_obj_unimport(r->imported[i]);
	} while (now_ns() - start < MIN_RUN_NS);
	return best;
}

/* The kernel round trip a validated import of this kind pays. */
static double query_rounds(struct bench_run *r, size_t n)
{
	size_t calls = bench_query_calls(r, n);
	double t0 = now_ns();

	for (size_t i = 0; i < calls; i++) {
		int ret = bench_query(r, i);

		if (ret)
			bench_die("query", ret);
	}
	return (now_ns() - t0) / calls;
}

/* Reads the context file's counters; false when not under mlx5-emu. */
static bool counters(struct bench_run *r, struct emu_counters *c)
{
	return !emu_counters_read(r->ctx->cmd_fd, 0, 0, c);
}

/* Per object: (b - a) / n, ioctls and firmware commands. */
static void per_object(const struct emu_counters *a,
		       const struct emu_counters *b, size_t n,
		       double *calls, double *fw)
{
	*calls = (double)(b->ioctls - a->ioctls) / n;
	*fw = (double)(b->fw_cmds - a->fw_cmds) / n;
}

/*
 * One more pass of export, single import and batch import, counted:
 * what each costs the kernel, next to its time.
 */
static void count_calls(struct bench_run *r, size_t n, struct bench_row *row)
{
	struct emu_counters a, b;
	size_t i;

	row->counted = counters(r, &a);
	if (!row->counted)
		return;
	run_export(r, n);
	counters(r, &b);
	per_object(&a, &b, n, &row->export_calls, &row->export_fw);
	counters(r, &a);
	for (i = 0; i < n; i++) {
		r->imported[i] = mlx5dv_devx_obj_import(r->ctx, r->blobs[i]);
		if (!r->imported[i])
			bench_die("import", errno);
	}
	counters(r, &b);
	for (i = 0; i < n; i++)
		mlx5dv_devx_obj_unimport(r->imported[i]);
	per_object(&a, &b, n, &row->import_calls, &row->import_fw);
	counters(r, &a);
	if (mlx5share_devx_obj_import_batch(r->ctx, (void *const *)r->blobs,
					    n, r->imported, r->errs) != (int)n)
		bench_die("batch import", EIO);
	counters(r, &b);
	for (i = 0; i < n; i++)
		mlx5dv_devx_obj_unimport(r->imported[i]);
	per_object(&a, &b, n, &row->batch_calls, &row->batch_fw);
}

static void measure(struct bench_run *r, size_t n, struct bench_row *row)
{
	row->n = n;
	row->export_ns = per_item(run_export, r, n);
	row->base_export_ns = per_item(run_base_export, r, n);
	import_rounds(r, n, false, &row->import_ns, &row->unimport_ns);
	import_rounds(r, n, true, &row->base_import_ns,
		      &row->base_unimport_ns);
	row->batch_total_ns = batch_rounds(r, n);
	row->batch_ns = row->batch_total_ns / n;
	row->query_ns = query_rounds(r, n);
	count_calls(r, n, row);
}

static int parse_counts(const char *s, size_t *v, int max)
{
	int n = 0;
	char *end;

	while (*s && n < max) {
		unsigned long long x = strtoull(s, &end, 10);

		if (end == s || x == 0 || x > 10000000)
			return -1;
		v[n++] = x;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static void run_kind(struct ibv_context *ctx, enum bench_kind kind,
		     const size_t *counts, int ncounts, bool file_ids)
{
	struct bench_row rows[8] = { { 0 } };
	int i, done = 0;

	for (i = 0; i < ncounts; i++) {
		struct bench_run *r = bench_setup(ctx, kind, counts[i]);

		if (!r)
			break;
		measure(r, counts[i], &rows[done]);
		rows[done].create_ns = r->create_ns;
		done++;
		bench_teardown(r);
		fprintf(stderr, "  N=%zu done\n", counts[i]);
	}
	bench_print(kind, rows, done, file_ids);
	for (; i < ncounts; i++)
		printf("N=%zu: not measured: the device could not create that "
		       "many objects (the reason is printed above)\n\n",
		       counts[i]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const size_t counts_default[] = { 1000, 10000, 100000 };
	size_t counts[8];
	int ncounts = 0, opt;
	const char *type = "all";
	struct ibv_context *ctx;
	bool file_ids;

	while ((opt = getopt(argc, argv, "t:n:h")) != -1) {
		switch (opt) {
		case 't':
			type = optarg;
			break;
		case 'n':
			ncounts = parse_counts(optarg, counts, 8);
			if (ncounts <= 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (strcmp(type, "all") && strcmp(type, "counter") &&
	    strcmp(type, "pd")) {
		usage(stderr);
		return 2;
	}

	ctx = bench_open_or_emulate("mlx5-share-bench", argv);
	if (!ctx) {
		fprintf(stderr, "mlx5-share-bench: cannot open an mlx5 device "
			"with DEVX\n");
		return 1;
	}
	file_ids = file_id_of(ctx->cmd_fd) != 0;
	bench_print_machine(file_ids);
	if (strcmp(type, "pd"))
		run_kind(ctx, BENCH_COUNTER, ncounts ? counts : counts_default,
			 ncounts ? ncounts : 3, file_ids);
	if (strcmp(type, "counter"))
		run_kind(ctx, BENCH_PD, ncounts ? counts : counts_default,
			 ncounts ? ncounts : 3, file_ids);
	ibv_close_device(ctx);
	return 0;
}
