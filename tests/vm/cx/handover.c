// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Issue 38's handover on the emulated function, in the guest: process A
 * makes a steering rule through mlx5dv (a NIC RX rule matching the UDP
 * stream's destination port, counting it in a DEVX flow counter and
 * dropping it), exports the counter and passes it with the command fd
 * to process B, which imports it.  Packets are sent in three bursts:
 * with A alive; while A is killed; after B, the last holder of the
 * command file, has closed it (the kernel then removes the rule, and the
 * stream takes the default path to the receiving socket).
 *
 *   cx_handover DEVICE SENDER N1 N2 N3
 *
 * DEVICE: the mlx5 device of the receiving function; SENDER: a shell
 * command that sends the number of datagrams appended to it to the
 * rule's port.  Prints a table: each burst, the datagrams sent, what
 * the shared counter (read through B's import) counted by then, packets
 * and bytes.  Exit 0 when the counter counted exactly the first two
 * bursts, FRAME_BYTES a datagram: not one packet lost or miscounted
 * across A's death.  (The receiving socket's count, the third burst, is
 * checked by the caller.)
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devx_objs.h"
#include "fdpass.h"
#include "prm_bits.h"

#define STREAM_PORT 5002
/* a sender's datagram (64 bytes) in its Ethernet, IPv4 and UDP headers,
 * as the port counts it (no FCS) */
#define FRAME_BYTES (14 + 20 + 8 + 64)

struct count {
	uint64_t packets;
	uint64_t octets;
};

struct shared {		/* what A passes to B, with the command fd */
	uint32_t counter_id;
	uint8_t blob[512];
};

/* A's rule: UDP over IPv4 to STREAM_PORT, counted and dropped. */
static struct mlx5dv_flow_matcher *
rule_matcher(struct ibv_context *ctx, struct mlx5dv_flow_match_parameters *m)
{
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = 1 << 0,	/* outer headers */
		.match_mask = m,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};

	m->match_sz = PRM_MATCH_PARAM_LEN;
	memset(m->match_buf, 0, PRM_MATCH_PARAM_LEN);
	prm_set(m->match_buf, PRM_L24_IP_VERSION, 0xf);
	prm_set(m->match_buf, PRM_L24_IP_PROTOCOL, 0xff);
	prm_set(m->match_buf, PRM_L24_UDP_DPORT, 0xffff);
	return mlx5dv_create_flow_matcher(ctx, &attr);
}

static int process_a(const char *dev, int sock, int ready)
{
	uint8_t buf[sizeof(struct mlx5dv_flow_match_parameters) +
		    PRM_MATCH_PARAM_LEN];
	struct mlx5dv_flow_match_parameters *m = (void *)buf;
	struct mlx5dv_flow_action_attr act[2];
	struct mlx5dv_flow_matcher *matcher;
	struct shared sh = { 0 };
	struct mlx5dv_devx_obj *fc;
	struct ibv_context *ctx;
	struct ibv_flow *flow;

	ctx = devx_open(dev, 0);
	fc = ctx ? fc_alloc(ctx, &sh.counter_id) : NULL;
	matcher = fc ? rule_matcher(ctx, m) : NULL;
	if (!matcher) {
		printf("FAIL: A: device, counter or matcher: %s\n",
		       strerror(errno));
		return 1;
	}
	prm_set(m->match_buf, PRM_L24_IP_VERSION, 4);
	prm_set(m->match_buf, PRM_L24_IP_PROTOCOL, 17);
	prm_set(m->match_buf, PRM_L24_UDP_DPORT, STREAM_PORT);
	act[0] = (struct mlx5dv_flow_action_attr){
		.type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX, .obj = fc };
	act[1] = (struct mlx5dv_flow_action_attr){
		.type = MLX5DV_FLOW_ACTION_DROP };
	flow = mlx5dv_create_flow(matcher, m, 2, act);
	if (!flow) {
		printf("FAIL: A: mlx5dv_create_flow: %s\n", strerror(errno));
		return 1;
	}
	if (mlx5dv_devx_obj_export(fc, sh.blob) ||
	    fdpass_send(sock, ctx->cmd_fd, &sh, sizeof(sh))) {
		printf("FAIL: A: export or pass: %s\n", strerror(errno));
		return 1;
	}
	printf("A (pid %d): rule made, counter 0x%x exported and passed\n",
	       getpid(), sh.counter_id);
	fflush(stdout);
	if (write(ready, "a", 1) != 1)
		return 1;
	for (;;)
		pause();	/* until killed */
}

/* B: imports, then answers 'q' with the counter's packets, 'x' exits. */
static int process_b(int sock, int cmd, int reply)
{
	uint8_t out[PRM_QUERY_FC_OUT_LEN];
	struct mlx5dv_devx_obj *fc;
	struct ibv_context *ctx;
	struct shared sh;
	struct count n;
	int fd;
	char c;

	if (fdpass_recv_exact(sock, &fd, &sh, sizeof(sh)) || fd < 0) {
		printf("FAIL: B: nothing received\n");
		return 1;
	}
	ctx = ibv_import_device(fd);
	fc = ctx ? mlx5dv_devx_obj_import(ctx, sh.blob) : NULL;
	if (!fc) {
		printf("FAIL: B: import: %s\n", strerror(errno));
		return 1;
	}
	printf("B (pid %d): counter imported\n", getpid());
	fflush(stdout);
	while (read(cmd, &c, 1) == 1 && c == 'q') {
		n.packets = n.octets = UINT64_MAX;
		if (!fc_query(fc, sh.counter_id, out)) {
			n.packets = prm_get64(out, PRM_QUERY_FC_PACKETS);
			n.octets = prm_get64(out, PRM_QUERY_FC_OCTETS);
		}
		if (write(reply, &n, sizeof(n)) != sizeof(n))
			return 1;
	}
	/* the last holder of the file closes it: the kernel removes the
	 * rule, the counter and the matcher A made */
	mlx5dv_devx_obj_unimport(fc);
	ibv_close_device(ctx);
	return 0;
}

static struct count query(int cmd, int reply)
{
	struct count n = { UINT64_MAX, UINT64_MAX };

	if (write(cmd, "q", 1) != 1 ||
	    read(reply, &n, sizeof(n)) != sizeof(n))
		n.packets = n.octets = UINT64_MAX;
	return n;
}

/* Whether the counter read exactly n datagrams. */
static bool counted(struct count c, unsigned long n)
{
	return c.packets == n && c.octets == (uint64_t)n * FRAME_BYTES;
}

static int send_burst(const char *sender, unsigned long n)
{
	char line[1024];

	snprintf(line, sizeof(line), "%s %lu", sender, n);
	return system(line);
}

int main(int argc, char **argv)
{
	int sv[2], to_b[2], from_b[2], ready[2];
	unsigned long n1, n2, n3;
	struct count c0, c1, c2;
	pid_t a, b, s;
	char c;
	int st, ok;

	if (argc != 6) {
		fprintf(stderr, "usage: cx_handover DEVICE SENDER N1 N2 N3\n");
		return 2;
	}
	n1 = strtoul(argv[3], NULL, 0);
	n2 = strtoul(argv[4], NULL, 0);
	n3 = strtoul(argv[5], NULL, 0);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) || pipe(to_b) ||
	    pipe(from_b) || pipe(ready))
		return 2;
	a = fork();
	if (!a)
		_exit(process_a(argv[1], sv[0], ready[1]));
	b = fork();
	if (!b)
		_exit(process_b(sv[1], to_b[0], from_b[1]));
	if (read(ready[0], &c, 1) != 1) {
		printf("FAIL: A did not make its rule\n");
		kill(b, SIGKILL);
		return 1;
	}
	c0 = query(to_b[1], from_b[0]);
	/* 1: A alive and holding its rule */
	send_burst(argv[2], n1);
	sleep(1);
	c1 = query(to_b[1], from_b[0]);
	/* 2: A killed while the burst runs */
	s = fork();
	if (!s)
		_exit(send_burst(argv[2], n2) ? 1 : 0);
	sleep(1);
	kill(a, SIGKILL);
	waitpid(a, &st, 0);
	printf("A killed (%s) while burst 2 ran\n",
	       WIFSIGNALED(st) ? "SIGKILL" : "had exited");
	waitpid(s, &st, 0);
	sleep(1);
	c2 = query(to_b[1], from_b[0]);
	/* 3: B closes the file: the rule goes ('x': every process holds
	 * the pipe's write end, so B would never see its end) */
	if (write(to_b[1], "x", 1) != 1)
		return 1;
	waitpid(b, &st, 0);
	send_burst(argv[2], n3);
	printf("burst  when                  sent    counted by the shared "
	       "counter (total: packets, bytes)\n");
	printf("0      before                0       %llu, %llu\n",
	       (unsigned long long)c0.packets, (unsigned long long)c0.octets);
	printf("1      A holds the rule      %-7lu %llu, %llu\n", n1,
	       (unsigned long long)c1.packets, (unsigned long long)c1.octets);
	printf("2      A killed mid-burst    %-7lu %llu, %llu\n", n2,
	       (unsigned long long)c2.packets, (unsigned long long)c2.octets);
	printf("3      B closed, rule gone   %-7lu (counter gone)\n", n3);
	ok = counted(c0, 0) && counted(c1, n1) && counted(c2, n1 + n2);
	printf("%s: the counter counted %llu of the %lu datagrams sent "
	       "while the rule lived, %u bytes each\n", ok ? "PASS" : "FAIL",
	       (unsigned long long)c2.packets, n1 + n2, FRAME_BYTES);
	return ok ? 0 : 1;
}
