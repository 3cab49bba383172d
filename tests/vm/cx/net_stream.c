// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A UDP stream that proves it lost nothing: the receiver marks each
 * sequence number it gets and says how many it has every ACK_EVERY
 * datagrams; the sender keeps at most WINDOW datagrams past the last
 * count it heard, so a socket buffer never overflows and a datagram that
 * is missing stalls the stream instead of passing unnoticed.
 *
 *   net_stream recv PORT COUNT	(exit 0: every one of COUNT, once)
 *   net_stream send ADDR PORT COUNT [SIZE]
 *
 * Both print one line of figures: datagrams, losses, duplicates, the
 * time and the rate.  For traffic some of which is meant to be dropped
 * (a steering rule's), with no flow control:
 *
 *   net_stream blast ADDR PORT RATE COUNT	(RATE datagrams a second)
 *   net_stream count PORT	(until SIGTERM; prints what it got)
 *
 * And a TCP byte stream (whose sends the kernel hands the device as LSO
 * work requests), the receiver answering the bytes it got:
 *
 *   net_stream tcp-recv PORT
 *   net_stream tcp-send ADDR PORT BYTES	(exit 0: all of them arrived)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

#define ACK_EVERY 64
#define WINDOW 256
#define IDLE_MS 10000
#define MAGIC 0x6d6c7835u
#define MAX_SIZE 1472
/* a window's worth of datagrams at any truesize, many times over: a
 * loss is then the path's, never the socket's */
#define RCVBUF (8 << 20)

struct dgram {
	uint32_t magic;
	uint32_t seq;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms);
}

static int do_recv(int port, uint32_t count)
{
	struct sockaddr_in me = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	unsigned char *seen = calloc(count, 1);
	uint32_t got = 0, dups = 0, bad = 0, late = 0, high = 0;
	double t0 = 0, t1 = 0;
	char buf[MAX_SIZE];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	int rcvbuf = RCVBUF;

	/* (SO_RCVBUFFORCE passes rmem_max as root; else the capped size) */
	if (fd >= 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (fd < 0 || !seen ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("net_stream recv");
		return 2;
	}
	while (got < count) {
		struct dgram d;
		ssize_t n;
		uint32_t c;

		if (wait_readable(fd, IDLE_MS) <= 0)
			break;
		n = recvfrom(fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&peer, &plen);
		if (n < (ssize_t)sizeof(d))
			continue;
		memcpy(&d, buf, sizeof(d));
		d.seq = ntohl(d.seq);
		if (ntohl(d.magic) != MAGIC || d.seq >= count) {
			bad++;
			continue;
		}
		if (!got)
			t0 = now();
		if (seen[d.seq]) {
			dups++;
			continue;
		}
		seen[d.seq] = 1;
		if (d.seq < high)
			late++;
		high = d.seq > high ? d.seq : high;
		got++;
		t1 = now();
		if (got % ACK_EVERY && got != count)
			continue;
		c = htonl(got);
		sendto(fd, &c, sizeof(c), 0, (struct sockaddr *)&peer, plen);
	}
	printf("net_stream recv: %u of %u datagrams, lost %u, duplicates %u,"
	       " out of order %u, foreign %u, %.2f s, %.0f datagrams/s\n",
	       got, count, count - got, dups, late, bad, t1 - t0,
	       t1 > t0 ? (got - 1) / (t1 - t0) : 0.0);
	free(seen);
	close(fd);
	return got == count && !dups ? 0 : 1;
}

static int do_send(const char *addr, int port, uint32_t count, size_t size)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	char buf[MAX_SIZE] = { 0 };
	uint32_t seq = 0, acked = 0;
	double t0, t1;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || inet_pton(AF_INET, addr, &to.sin_addr) != 1 ||
	    size < sizeof(struct dgram) || size > MAX_SIZE) {
		fprintf(stderr, "net_stream send: bad arguments\n");
		return 2;
	}
	t0 = now();
	while (acked < count) {
		uint32_t c;

		while (seq < count && seq - acked < WINDOW) {
			struct dgram d = { htonl(MAGIC), htonl(seq) };

			memcpy(buf, &d, sizeof(d));
			if (sendto(fd, buf, size, 0, (struct sockaddr *)&to,
				   sizeof(to)) < 0) {
				if (errno == ENOBUFS || errno == EAGAIN)
					break;
				perror("net_stream send");
				return 2;
			}
			seq++;
		}
		if (wait_readable(fd, IDLE_MS) <= 0) {
			printf("net_stream send: stalled: %u sent, %u counted"
			       " by the receiver\n", seq, acked);
			return 1;
		}
		if (recv(fd, &c, sizeof(c), 0) == sizeof(c) &&
		    ntohl(c) > acked)
			acked = ntohl(c);
	}
	t1 = now();
	printf("net_stream send: %u datagrams of %zu bytes, %.2f s, "
	       "%.0f datagrams/s\n", seq, size, t1 - t0, seq / (t1 - t0));
	close(fd);
	return 0;
}

static int do_blast(const char *addr, int port, unsigned int rate,
		    uint32_t count)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	char buf[64] = { 0 };
	double t0 = now();
	uint32_t seq;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || inet_pton(AF_INET, addr, &to.sin_addr) != 1 || !rate) {
		fprintf(stderr, "net_stream blast: bad arguments\n");
		return 2;
	}
	for (seq = 0; seq < count; seq++) {
		struct dgram d = { htonl(MAGIC), htonl(seq) };
		double due = t0 + (double)seq / rate;

		while (now() < due)
			usleep(200);
		memcpy(buf, &d, sizeof(d));
		if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&to,
			   sizeof(to)) < 0) {
			perror("net_stream blast");
			return 1;
		}
	}
	close(fd);
	return 0;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int do_count(int port)
{
	struct sockaddr_in me = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int rcvbuf = RCVBUF, fd = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned long got = 0;
	char buf[MAX_SIZE];

	signal(SIGTERM, on_term);
	if (fd < 0 ||
	    (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
			sizeof(rcvbuf)) &&
	     setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("net_stream count");
		return 2;
	}
	while (!stop) {
		if (wait_readable(fd, 200) <= 0)
			continue;
		if (recv(fd, buf, sizeof(buf), 0) >=
		    (ssize_t)sizeof(struct dgram))
			got++;
	}
	printf("net_stream count: %lu datagrams received\n", got);
	close(fd);
	return 0;
}

static int do_tcp_recv(int port)
{
	struct sockaddr_in me = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0), c;
	uint64_t got = 0, be;
	static char buf[65536];
	ssize_t n;

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me)) || listen(fd, 1)) {
		perror("net_stream tcp-recv");
		return 2;
	}
	c = accept(fd, NULL, NULL);
	if (c < 0)
		return 2;
	while ((n = read(c, buf, sizeof(buf))) > 0)
		got += n;
	be = htobe64(got);
	if (write(c, &be, sizeof(be)) != sizeof(be))
		return 1;
	printf("net_stream tcp-recv: %llu bytes\n", (unsigned long long)got);
	close(c);
	close(fd);
	return 0;
}

static int do_tcp_send(const char *addr, int port, uint64_t bytes)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	static char buf[65536];
	uint64_t sent = 0, got = 0;
	double t0 = now(), t1;
	ssize_t n;

	if (fd < 0 || inet_pton(AF_INET, addr, &to.sin_addr) != 1 ||
	    connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		perror("net_stream tcp-send");
		return 2;
	}
	while (sent < bytes) {
		n = write(fd, buf, MIN(sizeof(buf), bytes - sent));
		if (n <= 0) {
			perror("net_stream tcp-send");
			return 1;
		}
		sent += n;
	}
	shutdown(fd, SHUT_WR);
	if (read(fd, &got, sizeof(got)) != sizeof(got))
		got = 0;
	got = be64toh(got);
	t1 = now();
	printf("net_stream tcp-send: %llu bytes sent, %llu received, %.2f s,"
	       " %.1f Mbit/s\n", (unsigned long long)sent,
	       (unsigned long long)got, t1 - t0, sent * 8 / (t1 - t0) / 1e6);
	close(fd);
	return got == bytes ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]),
			       strtoul(argv[4], NULL, 0),
			       argc == 6 ? strtoul(argv[5], NULL, 0) : 64);
	if (argc == 6 && !strcmp(argv[1], "blast"))
		return do_blast(argv[2], atoi(argv[3]),
				strtoul(argv[4], NULL, 0),
				strtoul(argv[5], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "count"))
		return do_count(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "tcp-recv"))
		return do_tcp_recv(atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "tcp-send"))
		return do_tcp_send(argv[2], atoi(argv[3]),
				   strtoull(argv[4], NULL, 0));
	fprintf(stderr, "usage: net_stream recv PORT COUNT\n"
			"       net_stream send ADDR PORT COUNT [SIZE]\n"
			"       net_stream blast ADDR PORT RATE COUNT\n"
			"       net_stream count PORT\n"
			"       net_stream tcp-recv PORT\n"
			"       net_stream tcp-send ADDR PORT BYTES\n");
	return 2;
}
