// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How two guest threads on two vCPUs interleave: the figure behind
 * tests/vm/README.md's "Why one thread".  Each thread is pinned to its own
 * CPU and, for a fixed number of rounds, reads a shared word, sees whether
 * the other thread wrote it since its own last write (a handoff: the two
 * ran one after the other there), and writes its own mark.  Prints the
 * rounds, the handoffs and the rounds per handoff; fails (exit 1) when
 * the machine has fewer than two CPUs, a thread did not run on the CPU it
 * was pinned to, or the threads never met: what a race test on two vCPUs
 * needs, however coarse the interleaving.  No time is measured or judged.
 *
 * Usage: vcpu_interleave [ROUNDS]   (default 20,000,000 per thread)
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct runner {
	int cpu;
	unsigned long rounds;
	unsigned long handoffs;
	int ran_on;
	pthread_t thread;
};

static _Atomic int shared;
static atomic_bool go;

static void *run(void *arg)
{
	struct runner *r = arg;
	int mark = r->cpu + 1, seen;
	unsigned long i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		r->ran_on = -1;
		return NULL;
	}
	while (!atomic_load_explicit(&go, memory_order_acquire))
		;
	r->ran_on = sched_getcpu();
	for (i = 0; i < r->rounds; i++) {
		/* relaxed: the word is the only thing the threads share */
		seen = atomic_load_explicit(&shared, memory_order_relaxed);
		if (seen && seen != mark)
			r->handoffs++;
		atomic_store_explicit(&shared, mark, memory_order_relaxed);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct runner r[2] = { { .cpu = 0 }, { .cpu = 1 } };
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) :
					  20000000UL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i, fail = 0;

	printf("online CPUs: %ld\n", cpus);
	if (cpus < 2) {
		printf("FAIL vcpu_interleave: one CPU, no two threads can "
		       "run at once\n");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		r[i].rounds = rounds;
		if (pthread_create(&r[i].thread, NULL, run, &r[i])) {
			printf("FAIL vcpu_interleave: pthread_create\n");
			return 1;
		}
	}
	atomic_store_explicit(&go, true, memory_order_release);
	for (i = 0; i < 2; i++)
		pthread_join(r[i].thread, NULL);
	for (i = 0; i < 2; i++) {
		printf("thread %d: pinned to CPU %d, ran on %d, %lu rounds, "
		       "%lu handoffs", i, r[i].cpu, r[i].ran_on, r[i].rounds,
		       r[i].handoffs);
		if (r[i].handoffs)
			printf(", %.0f rounds per handoff",
			       (double)r[i].rounds / r[i].handoffs);
		printf("\n");
		if (r[i].ran_on != r[i].cpu) {
			printf("FAIL vcpu_interleave: thread %d not on CPU "
			       "%d\n", i, r[i].cpu);
			fail = 1;
		}
	}
	if (!r[0].handoffs && !r[1].handoffs) {
		printf("FAIL vcpu_interleave: the threads never met\n");
		fail = 1;
	}
	if (!fail)
		printf("vcpu_interleave: 1 passed, 0 failed\n");
	return fail;
}
