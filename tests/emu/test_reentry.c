// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A signal handler that makes an ioctl on the device while its thread is
 * in the middle of one: the interrupted call's channel is busy, so the
 * handler's call goes over a channel of its own, and both calls get
 * their own answers (replies never cross, even within one thread).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "devx_objs.h"
#include "emu_util.h"

#define NAME "emu_signal_reentry"
#define SIGNALS 300

static struct ibv_context *ctx;
static uint32_t eqn_ref;
static int handler_bad, handled, stop;

static void on_signal(int sig)
{
	uint32_t eqn = ~0u;
	int saved = errno;

	(void)sig;
	if (mlx5dv_devx_query_eqn(ctx, 0, &eqn) || eqn != eqn_ref)
		__atomic_add_fetch(&handler_bad, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&handled, 1, __ATOMIC_SEQ_CST);
	errno = saved;
}

static void *caller(void *arg)
{
	struct mlx5dv_devx_obj *meter;
	long bad = 0;
	uint32_t id;

	(void)arg;
	meter = meter_create_cbs(ctx, 7, 77, &id);
	if (!meter)
		return (void *)1L;
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		unsigned int e = 0, m = 0;
		uint8_t status = 0xff;

		if (meter_query_cbs(meter, id, &e, &m, &status) || status ||
		    e != 7 || m != 77)
			bad++;
	}
	if (mlx5dv_devx_obj_destroy(meter))
		bad++;
	return (void *)bad;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pthread_t t;
	void *bad;
	int i;

	emu_require(NAME);
	alarm(120);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	REQUIRE(mlx5dv_devx_query_eqn(ctx, 0, &eqn_ref) == 0);
	sa.sa_flags = SA_RESTART;
	REQUIRE(sigaction(SIGUSR1, &sa, NULL) == 0);
	REQUIRE(pthread_create(&t, NULL, caller, NULL) == 0);
	for (i = 0; i < SIGNALS; i++) {
		REQUIRE(pthread_kill(t, SIGUSR1) == 0);
		while (__atomic_load_n(&handled, __ATOMIC_SEQ_CST) <= i)
			usleep(100);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	REQUIRE(pthread_join(t, &bad) == 0);
	CHECK_EQ((long)bad, 0);
	CHECK_EQ(handler_bad, 0);
	CHECK_EQ(handled, SIGNALS);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
