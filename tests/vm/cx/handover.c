// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Issue 38's handover on the emulated function, in the guest: process A
 * builds a steering rule from DEVX objects (a NIC RX flow table, a group
 * matching IPv4 UDP destination ports, an entry for the stream's port
 * that counts into a DEVX flow counter and drops) and hooks the table
 * into the kernel's steering with an mlx5dv rule that forwards the port
 * to it; it exports the table, group, entry and counter and passes them
 * with the command fd to process B, which imports all four.  Packets
 * are sent in four bursts: with A alive; while A is killed; after B has
 * removed the entry and its group through its imports (the table then
 * misses, and a NIC RX table's default miss drops); after B, the last
 * holder of the command file, has closed it (the kernel then removes
 * the hook with the rest, and the stream takes the default path to the
 * receiving socket).
 *
 *   cx_handover DEVICE SENDER N1 N2 N3 N4
 *
 * DEVICE: the mlx5 device of the receiving function; SENDER: a shell
 * command that sends the number of datagrams appended to it to the
 * rule's port.  Prints a table: each burst, the datagrams sent, what
 * the shared counter (read through B's import) counted by then, packets
 * and bytes.  Exit 0 when the counter counted exactly the first two
 * bursts, FRAME_BYTES a datagram, and nothing after B removed the entry:
 * not one packet lost or miscounted across A's death.  (The receiving
 * socket's count, the fourth burst alone, is checked by the caller.)
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
#include "prm_opcodes.h"

#define STREAM_PORT 5002
/* a sender's datagram (64 bytes) in its Ethernet, IPv4 and UDP headers,
 * as the port counts it (no FCS) */
#define FRAME_BYTES (14 + 20 + 8 + 64)
/* deeper than every table the kernel makes (fs_core's NIC RX levels end
 * at its anchor, 66 with the function's max_ft_level of 127): a table
 * forwards only to deeper ones */
#define TABLE_LEVEL 100
#define BLOB_MAX 512

struct count {
	uint64_t packets;
	uint64_t octets;
};

enum { OBJ_COUNTER, OBJ_TABLE, OBJ_GROUP, OBJ_ENTRY, NOBJ };
static const char *const obj_name[NOBJ] = {
	"counter", "table", "group", "entry",
};

struct shared {		/* what A passes to B, with the command fd */
	uint32_t counter_id;
	uint8_t blob[NOBJ][BLOB_MAX];
};

/* The stream's headers in a match parameter: the mask, or the value. */
static void stream_match(void *param, bool value)
{
	prm_set(param, PRM_L24_IP_VERSION, value ? 4 : 0xf);
	prm_set(param, PRM_L24_IP_PROTOCOL, value ? 17 : 0xff);
	prm_set(param, PRM_L24_UDP_DPORT, value ? STREAM_PORT : 0xffff);
}

static struct mlx5dv_devx_obj *create(struct ibv_context *ctx, uint8_t *in,
				      size_t inlen, unsigned int off,
				      unsigned int width, uint32_t *id)
{
	uint8_t out[PRM_HDR_LEN + 64] = { 0 };
	struct mlx5dv_devx_obj *obj;

	obj = mlx5dv_devx_obj_create(ctx, in, inlen, out, sizeof(out));
	if (obj && id)
		*id = prm_get(out, off, width);
	return obj;
}

static void fs_header(uint8_t *in, uint16_t opcode, uint32_t table)
{
	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_FS_TABLE_TYPE, PRM_FT_TYPE_NIC_RX);
	prm_set(in, PRM_FS_TABLE_ID, table);
}

/* A's table: one group of one entry, default miss (drop). */
static struct mlx5dv_devx_obj *table_create(struct ibv_context *ctx,
					    uint32_t *id)
{
	uint8_t in[PRM_FS_IN_LEN] = { 0 };

	fs_header(in, PRM_OP_CREATE_FLOW_TABLE, 0);
	prm_set(in, PRM_FTC_LEVEL, TABLE_LEVEL);
	prm_set(in, PRM_FTC_LOG_SIZE, 0);
	return create(ctx, in, sizeof(in), PRM_FT_OUT_ID, id);
}

static struct mlx5dv_devx_obj *group_create(struct ibv_context *ctx,
					    uint32_t table, uint32_t *id)
{
	uint8_t in[PRM_FG_IN_LEN] = { 0 };

	fs_header(in, PRM_OP_CREATE_FLOW_GROUP, table);
	prm_set(in, PRM_FG_START, 0);
	prm_set(in, PRM_FG_END, 0);
	prm_set(in, PRM_FG_MATCH_CRITERIA_ENABLE, 1 << 0);	/* outer */
	stream_match(in + PRM_FG_MATCH_CRITERIA_BYTE, false);
	return create(ctx, in, sizeof(in), PRM_FG_OUT_ID, id);
}

/* The entry: the stream's port, counted into counter, dropped. */
static struct mlx5dv_devx_obj *entry_create(struct ibv_context *ctx,
					    uint32_t table, uint32_t group,
					    uint32_t counter)
{
	uint8_t in[PRM_FTE_LEN + PRM_FTE_DEST_LEN] = { 0 };

	fs_header(in, PRM_OP_SET_FLOW_TABLE_ENTRY, table);
	prm_set(in, PRM_FTE_INDEX, 0);
	prm_set(in, PRM_FTE_GROUP_ID, group);
	prm_set(in, PRM_FTE_ACTION,
		PRM_FTE_ACTION_DROP | PRM_FTE_ACTION_COUNT);
	prm_set(in, PRM_FTE_COUNTER_LIST_SIZE, 1);
	prm_set(in + PRM_FTE_LEN, PRM_FTE_COUNTER_ID, counter);
	stream_match(in + PRM_FTE_MATCH_VALUE_BYTE, true);
	return create(ctx, in, sizeof(in), 0, 0, NULL);
}

/* The hook: the kernel's NIC RX steering sends the port to table. */
static struct ibv_flow *hook_create(struct ibv_context *ctx,
				    struct mlx5dv_devx_obj *table)
{
	uint8_t buf[sizeof(struct mlx5dv_flow_match_parameters) +
		    PRM_MATCH_PARAM_LEN] = { 0 };
	struct mlx5dv_flow_match_parameters *m = (void *)buf;
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.match_criteria_enable = 1 << 0,	/* outer headers */
		.match_mask = m,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	struct mlx5dv_flow_action_attr act = {
		.type = MLX5DV_FLOW_ACTION_DEST_DEVX, .obj = table,
	};
	struct mlx5dv_flow_matcher *matcher;

	m->match_sz = PRM_MATCH_PARAM_LEN;
	stream_match(m->match_buf, false);
	matcher = mlx5dv_create_flow_matcher(ctx, &attr);
	if (!matcher)
		return NULL;
	memset(m->match_buf, 0, PRM_MATCH_PARAM_LEN);
	stream_match(m->match_buf, true);
	return mlx5dv_create_flow(matcher, m, 1, &act);
}

static int process_a(const char *dev, int sock, int ready)
{
	struct mlx5dv_devx_obj *obj[NOBJ] = { NULL };
	uint32_t table_id = 0, group_id = 0;
	struct shared sh = { 0 };
	struct ibv_context *ctx;
	struct ibv_flow *hook;
	int i;

	ctx = devx_open(dev, 0);
	if (ctx)
		obj[OBJ_COUNTER] = fc_alloc(ctx, &sh.counter_id);
	if (obj[OBJ_COUNTER])
		obj[OBJ_TABLE] = table_create(ctx, &table_id);
	if (obj[OBJ_TABLE])
		obj[OBJ_GROUP] = group_create(ctx, table_id, &group_id);
	if (obj[OBJ_GROUP])
		obj[OBJ_ENTRY] = entry_create(ctx, table_id, group_id,
					      sh.counter_id);
	hook = obj[OBJ_ENTRY] ? hook_create(ctx, obj[OBJ_TABLE]) : NULL;
	if (!hook) {
		printf("FAIL: A: device, counter, table, group, entry or hook: "
		       "%s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < NOBJ; i++) {
		if (mlx5dv_devx_obj_export(obj[i], sh.blob[i])) {
			printf("FAIL: A: export of the %s: %s\n", obj_name[i],
			       strerror(errno));
			return 1;
		}
	}
	if (fdpass_send(sock, ctx->cmd_fd, &sh, sizeof(sh))) {
		printf("FAIL: A: pass: %s\n", strerror(errno));
		return 1;
	}
	printf("A (pid %d): table 0x%x (level %d), group 0x%x, entry, "
	       "counter 0x%x made and hooked; exported and passed\n",
	       getpid(), table_id, TABLE_LEVEL, group_id, sh.counter_id);
	fflush(stdout);
	if (write(ready, "a", 1) != 1)
		return 1;
	for (;;)
		pause();	/* until killed */
}

/*
 * B: imports the four objects, then answers 'q' with the counter's
 * packets, 'r' by removing the entry and its group through its imports
 * (with 0 or the errno), 'x' by closing everything and exiting.
 */
static int process_b(int sock, int cmd, int reply)
{
	struct mlx5dv_devx_obj *obj[NOBJ] = { NULL };
	uint8_t out[PRM_QUERY_FC_OUT_LEN];
	struct ibv_context *ctx;
	struct shared sh;
	struct count n;
	int fd, i, err;
	char c;

	if (fdpass_recv_exact(sock, &fd, &sh, sizeof(sh)) || fd < 0) {
		printf("FAIL: B: nothing received\n");
		return 1;
	}
	ctx = ibv_import_device(fd);
	for (i = 0; ctx && i < NOBJ; i++) {
		obj[i] = mlx5dv_devx_obj_import(ctx, sh.blob[i]);
		if (!obj[i]) {
			printf("FAIL: B: import of the %s: %s\n",
			       obj_name[i], strerror(errno));
			return 1;
		}
	}
	if (!ctx) {
		printf("FAIL: B: ibv_import_device: %s\n", strerror(errno));
		return 1;
	}
	printf("B (pid %d): counter, table, group and entry imported\n",
	       getpid());
	fflush(stdout);
	while (read(cmd, &c, 1) == 1 && c != 'x') {
		if (c == 'r') {
			err = mlx5dv_devx_obj_destroy(obj[OBJ_ENTRY]);
			if (!err) {
				obj[OBJ_ENTRY] = NULL;
				err = mlx5dv_devx_obj_destroy(obj[OBJ_GROUP]);
			}
			if (!err)
				obj[OBJ_GROUP] = NULL;
			if (write(reply, &err, sizeof(err)) != sizeof(err))
				return 1;
			continue;
		}
		n.packets = n.octets = UINT64_MAX;
		if (!fc_query(obj[OBJ_COUNTER], sh.counter_id, out)) {
			n.packets = prm_get64(out, PRM_QUERY_FC_PACKETS);
			n.octets = prm_get64(out, PRM_QUERY_FC_OCTETS);
		}
		if (write(reply, &n, sizeof(n)) != sizeof(n))
			return 1;
	}
	/* the last holder of the file closes it: the kernel removes the
	 * hook, the table and the counter A made */
	for (i = 0; i < NOBJ; i++)
		if (obj[i])
			mlx5dv_devx_obj_unimport(obj[i]);
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

static void row(const char *burst, const char *when, unsigned long sent,
		struct count c)
{
	printf("%-6s %-28s %-7lu %llu, %llu\n", burst, when, sent,
	       (unsigned long long)c.packets, (unsigned long long)c.octets);
}

int main(int argc, char **argv)
{
	int sv[2], to_b[2], from_b[2], ready[2];
	unsigned long n[5];
	struct count c[4];
	pid_t a, b, s;
	int st, ok, i, removed = -1;
	char ch;

	if (argc != 7) {
		fprintf(stderr,
			"usage: cx_handover DEVICE SENDER N1 N2 N3 N4\n");
		return 2;
	}
	n[0] = 0;
	for (i = 1; i <= 4; i++)
		n[i] = strtoul(argv[2 + i], NULL, 0);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) || pipe(to_b) ||
	    pipe(from_b) || pipe(ready))
		return 2;
	a = fork();
	if (!a)
		_exit(process_a(argv[1], sv[0], ready[1]));
	b = fork();
	if (!b)
		_exit(process_b(sv[1], to_b[0], from_b[1]));
	if (read(ready[0], &ch, 1) != 1) {
		printf("FAIL: A did not make its rule\n");
		kill(b, SIGKILL);
		return 1;
	}
	c[0] = query(to_b[1], from_b[0]);
	/* 1: A alive and holding its rule */
	send_burst(argv[2], n[1]);
	sleep(1);
	c[1] = query(to_b[1], from_b[0]);
	/* 2: A killed while the burst runs */
	s = fork();
	if (!s)
		_exit(send_burst(argv[2], n[2]) ? 1 : 0);
	sleep(1);
	kill(a, SIGKILL);
	waitpid(a, &st, 0);
	printf("A killed (%s) while burst 2 ran\n",
	       WIFSIGNALED(st) ? "SIGKILL" : "had exited");
	waitpid(s, &st, 0);
	sleep(1);
	c[2] = query(to_b[1], from_b[0]);
	/* 3: B removes the entry and its group: the table misses */
	if (write(to_b[1], "r", 1) != 1 ||
	    read(from_b[0], &removed, sizeof(removed)) != sizeof(removed))
		return 1;
	if (removed)
		printf("FAIL: B could not remove the entry and group: %s\n",
		       strerror(removed));
	send_burst(argv[2], n[3]);
	sleep(1);
	c[3] = query(to_b[1], from_b[0]);
	/* 4: B closes the file: the hook goes ('x': every process holds
	 * the pipe's write end, so B would never see its end) */
	if (write(to_b[1], "x", 1) != 1)
		return 1;
	waitpid(b, &st, 0);
	send_burst(argv[2], n[4]);
	printf("burst  when                         sent    counted by the "
	       "shared counter (total: packets, bytes)\n");
	row("0", "before", 0, c[0]);
	row("1", "A holds the rule", n[1], c[1]);
	row("2", "A killed mid-burst", n[2], c[2]);
	row("3", "B removed entry and group", n[3], c[3]);
	printf("%-6s %-28s %-7lu (counter gone)\n", "4",
	       "B closed, hook gone", n[4]);
	ok = !removed && counted(c[0], 0) && counted(c[1], n[1]) &&
	     counted(c[2], n[1] + n[2]) && counted(c[3], n[1] + n[2]);
	printf("%s: the counter counted %llu of the %lu datagrams sent "
	       "while the entry lived, %u bytes each, and none after B "
	       "removed it\n", ok ? "PASS" : "FAIL",
	       (unsigned long long)c[3].packets, n[1] + n[2], FRAME_BYTES);
	return ok ? 0 : 1;
}
