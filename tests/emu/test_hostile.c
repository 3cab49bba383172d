// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One client cannot starve the others.  With the daemon's descriptor
 * limit lowered (prlimit) to 256, hostile processes open hundreds of
 * connections, register channels, leave requests half written and
 * replies unread, and keep connecting; meanwhile a well-behaved client
 * keeps calling on the context it had and every call is answered
 * correctly.  The daemon must not spin: over the attack it wants the CPU
 * (runs, or waits to run: /proc/<pid>/schedstat) for well under the wall
 * time.  A spinning process is always runnable, so its figure is the wall
 * time however loaded the machine is, where CPU time alone would shrink.
 * One hostile alone gets no more than its share of the daemon's
 * descriptors.  Then the limit drops below what the daemon holds, so
 * accept4() fails with EMFILE with connections queued: still no spin.
 * Once the hostiles are gone everything is given back and new contexts
 * open again.
 *
 * Timeouts only bound the test; nothing here asserts a speed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu_transport.h"
#include "devx_objs.h"
#include "emu_util.h"

#define NAME "emu_hostile"
#define DAEMON_LIMIT 256
#define HOSTILE_CONNS 400
#define HOSTILES 6

static pid_t daemon_pid;

static int daemon_fds(void)
{
	return emu_proc_fds(daemon_pid);
}

/* ns the daemon ran or waited to run, since it started */
static uint64_t daemon_demand_ns(void)
{
	unsigned long long run = 0, wait = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)daemon_pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &run, &wait) != 2)
		run = wait = 0;
	fclose(f);
	return run + wait;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The hostile: conns connections, each with a channel that holds half a
 * request or a reply it never reads; then one more connection every
 * 50 ms, forever.  Writes one byte to ready when the burst is done.
 */
static void hostile(int conns, int ready)
{
	struct emu_wire_req req = { .magic = EMU_WIRE_MAGIC,
				    .kind = EMU_WIRE_IOCTL, .len = 4096,
				    .seq = 1 };
	int i;

	for (i = 0; i < conns; i++) {
		int fd = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
		int chan = fd >= 0 ? emu_raw_channel(fd, EMU_WIRE_VERSION) : -1;

		if (chan < 0)
			continue;
		if (i % 2) {
			/* half a request: the header and nothing more */
			send(chan, &req, sizeof(req), MSG_DONTWAIT |
			     MSG_NOSIGNAL);
		} else {
			struct emu_wire_req ping = { .magic = EMU_WIRE_MAGIC,
						     .kind = EMU_WIRE_PING,
						     .seq = 1 };

			/* a request whose reply it never reads */
			send(chan, &ping, sizeof(ping), MSG_DONTWAIT |
			     MSG_NOSIGNAL);
		}
	}
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;) {
		int fd = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);

		if (fd >= 0)
			emu_raw_channel(fd, EMU_WIRE_VERSION);
		usleep(50000);
	}
}

static void hostile_child(void *conns, int ready)
{
	hostile(*(int *)conns, ready);
}

static pid_t start_hostile(int conns)
{
	char c;

	return emu_fork_reporter(hostile_child, &conns, &c, 1);
}

/* The good client's calls for ms milliseconds: how many went wrong. */
static unsigned int good_calls(struct mlx5dv_devx_obj *obj, uint32_t id,
			       unsigned int ms, unsigned int *made)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000u;
	unsigned int bad = 0;

	while (now_ns() < end) {
		uint8_t status = 0xff;

		if (fc_query_status(obj, id, &status) || status)
			bad++;
		(*made)++;
		usleep(5000);
	}
	return bad;
}

/*
 * Two seconds of the good client's calls, all answered, while the
 * daemon spends under three quarters of the time on a CPU: it does not
 * spin.  Prints what it measured, as what.
 */
static void good_calls_no_spin(struct mlx5dv_devx_obj *obj, uint32_t id,
			       const char *what)
{
	uint64_t t0 = now_ns(), d0 = daemon_demand_ns(), wall, demand;
	unsigned int made = 0;

	CHECK_EQ(good_calls(obj, id, 2000, &made), 0);
	wall = now_ns() - t0;
	demand = daemon_demand_ns() - d0;
	printf("%s: %.0f ms on or waiting for a CPU in %.0f ms, %d fds, "
	       "%u good calls\n", what, demand / 1e6, wall / 1e6, daemon_fds(),
	       made);
	CHECK(demand < wall / 4 * 3);
}

int main(void)
{
	struct rlimit rl = { DAEMON_LIMIT, DAEMON_LIMIT };
	pid_t hostiles[HOSTILES];
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx, *later;
	unsigned int made = 0, i;
	uint8_t status;
	uint32_t id, eqn;
	int base, n;

	emu_require(NAME);
	daemon_pid = emu_daemon_pid(NAME);
	if (daemon_demand_ns() == 0)
		check_skip(NAME, "no /proc/<pid>/schedstat");
	alarm(240);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	obj = fc_alloc(ctx, &id);
	REQUIRE(obj);
	REQUIRE(fc_query_status(obj, id, &status) == 0 && status == 0);
	base = daemon_fds();
	REQUIRE(base > 0);
	REQUIRE(prlimit(daemon_pid, RLIMIT_NOFILE, &rl, NULL) == 0);

	/* one hostile: held to its share, the good client unaffected */
	hostiles[0] = start_hostile(HOSTILE_CONNS);
	CHECK_EQ(good_calls(obj, id, 500, &made), 0);
	n = daemon_fds();
	/* its share is a quarter of what the daemon lets clients have */
	CHECK(n - base <= DAEMON_LIMIT / 4 + 2);
	CHECK(n - base >= 16);

	/* more of them: the daemon runs out and sheds, without spinning */
	for (i = 1; i < HOSTILES; i++)
		hostiles[i] = start_hostile(HOSTILE_CONNS / 4);
	good_calls_no_spin(obj, id, "daemon");
	CHECK(daemon_fds() <= DAEMON_LIMIT);

	/*
	 * Below what it holds: accept4() itself fails with EMFILE while
	 * connections queue.  The daemon sheds them on its reserve
	 * descriptor, or stops listening, and does not spin either way.
	 */
	rl.rlim_cur = rl.rlim_max = (rlim_t)daemon_fds() - 8;
	REQUIRE(prlimit(daemon_pid, RLIMIT_NOFILE, &rl, NULL) == 0);
	good_calls_no_spin(obj, id, "over its limit");
	/* a new open then works or fails at once, never hangs */
	{
		int fd = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);

		CHECK(fd >= 0 || errno == ENFILE);
		if (fd >= 0)
			close(fd);
	}

	for (i = 0; i < HOSTILES; i++) {
		kill(hostiles[i], SIGKILL);
		REQUIRE(waitpid(hostiles[i], NULL, 0) == hostiles[i]);
	}
	/* everything given back, and new contexts open */
	for (i = 0; i < 1000 && daemon_fds() != base; i++)
		usleep(10000);
	CHECK_EQ(daemon_fds(), base);
	later = devx_open(NULL, 0);
	CHECK(later != NULL);
	if (later) {
		CHECK_EQ(mlx5dv_devx_query_eqn(later, 0, &eqn), 0);
		CHECK_EQ(ibv_close_device(later), 0);
	}
	CHECK_EQ(fc_query_status(obj, id, &status), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
