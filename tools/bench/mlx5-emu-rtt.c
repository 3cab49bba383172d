// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-emu-rtt: what one emulated kernel round trip costs, next to plain
 * system calls measured in the same run, so the emulator's share of any
 * other benchmark can be told apart.
 *
 * Rows (each a distribution of single calls, timed one by one):
 *   getppid            the cheapest system call
 *   pipe ping-pong     a byte to another thread and back through two
 *                      pipes: two wake-ups, the floor of any daemon hop
 *   devx query         mlx5dv_devx_obj_query(QUERY_FLOW_COUNTER) of a
 *                      live counter: libmlx5 -> ioctl -> kernel + firmware
 *   devx query xT      the same from T threads at once on one context
 *                      (per-call latency; throughput in calls/s)
 *
 * Without a real mlx5 device it runs itself again under mlx5-emu (looked
 * for next to this program, then in PATH).  It asserts nothing about time.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>

#include "bench_open.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define MAX_THREADS 8

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "mlx5-emu-rtt: %s: %s\n", what, strerror(err));
	exit(1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, uint64_t *s, size_t n, double per_s)
{
	qsort(s, n, sizeof(*s), cmp_u64);
	printf("| %-22s | %8zu | %9.2f | %9.2f | %9.2f |", name, n,
	       s[n / 2] / 1e3, s[n * 99 / 100] / 1e3, s[n - 1] / 1e3);
	if (per_s > 0)
		printf(" %9.0f |\n", per_s);
	else
		printf(" %9s |\n", "-");
}

static void bench_getppid(uint64_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t t = now_ns();

		if (getppid() < 0)
			die("getppid", errno);
		s[i] = now_ns() - t;
	}
}

static int ping[2], pong[2];

static void *ponger(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1)
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static void bench_pipe(uint64_t *s, size_t n)
{
	pthread_t t;
	char c = 'x';

	if (pipe(ping) || pipe(pong))
		die("pipe", errno);
	if (pthread_create(&t, NULL, ponger, NULL))
		die("pthread_create", EAGAIN);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			die("pipe ping-pong", errno);
		s[i] = now_ns() - t0;
	}
	close(ping[1]);
	pthread_join(t, NULL);
	close(ping[0]);
	close(pong[0]);
	close(pong[1]);
}

struct querier {
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
	uint64_t *s;
	size_t n;
};

static void *run_queries(void *arg)
{
	struct querier *q = arg;
	uint32_t in[PRM_QUERY_FC_IN_LEN / 4] = {};
	uint32_t out[(PRM_QUERY_FC_STATS_BYTE + PRM_TRAFFIC_COUNTER_LEN) / 4];

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, q->id);
	for (size_t i = 0; i < q->n; i++) {
		uint64_t t = now_ns();
		int ret = mlx5dv_devx_obj_query(q->obj, in, sizeof(in), out,
						sizeof(out));

		q->s[i] = now_ns() - t;
		if (ret)
			die("mlx5dv_devx_obj_query", ret);
	}
	return NULL;
}

/* T threads, n calls each; returns calls per second over the whole run */
static double bench_query(struct mlx5dv_devx_obj *obj, uint32_t id,
			  uint64_t *s, size_t n, unsigned int threads)
{
	struct querier q[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	uint64_t t0 = now_ns();
	unsigned int i;

	for (i = 0; i < threads; i++) {
		q[i] = (struct querier){ obj, id, s + i * n, n };
		if (threads > 1 && pthread_create(&t[i], NULL, run_queries,
						  &q[i]))
			die("pthread_create", EAGAIN);
	}
	if (threads == 1)
		run_queries(&q[0]);
	for (i = 0; threads > 1 && i < threads; i++)
		pthread_join(t[i], NULL);
	return threads * n / ((now_ns() - t0) / 1e9);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	uint32_t in[PRM_ALLOC_FC_IN_LEN / 4] = {}, out[4] = {}, id;
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	uint64_t *s;
	double rate;
	char name[32];

	if (!n || n > 10000000) {
		fprintf(stderr, "usage: mlx5-emu-rtt [calls per row]\n");
		return 2;
	}
	ctx = bench_open_or_emulate("mlx5-emu-rtt", argv);
	if (!ctx)
		die("no mlx5 device with DEVX", errno ? errno : ENODEV);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	obj = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (!obj)
		die("ALLOC_FLOW_COUNTER", errno);
	id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	s = calloc(n * MAX_THREADS, sizeof(*s));
	if (!s)
		die("calloc", ENOMEM);

	printf("%s, %ld online cpus, %zu calls per row, times in us\n\n",
	       getenv("MLX5_EMU_DIR") ? "mlx5-emu" : "real mlx5",
	       sysconf(_SC_NPROCESSORS_ONLN), n);
	printf("| %-22s | %8s | %9s | %9s | %9s | %9s |\n", "call", "calls",
	       "median", "p99", "max", "calls/s");
	printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------",
	       "----------", "-----------", "-----------", "-----------",
	       "-----------");
	bench_getppid(s, n);
	report("getppid", s, n, 0);
	bench_pipe(s, n);
	report("pipe ping-pong", s, n, 0);
	/* warm-up: first calls make the channel, fault in pages */
	bench_query(obj, id, s, n / 10 + 1, 1);
	rate = bench_query(obj, id, s, n, 1);
	report("devx query", s, n, rate);
	rate = bench_query(obj, id, s, n / 2, 2);
	report("devx query x2", s, n / 2 * 2, rate);
	rate = bench_query(obj, id, s, n / 8, 8);
	snprintf(name, sizeof(name), "devx query x%d", MAX_THREADS);
	report(name, s, n / 8 * 8, rate);

	free(s);
	if (mlx5dv_devx_obj_destroy(obj))
		die("destroy", errno);
	ibv_close_device(ctx);
	return 0;
}
