// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Random RDMA netlink datagrams at the emulated kernel: near-valid NLDEV
 * requests with random flags, attributes, lengths and truncation.  The
 * process (which carries the preload) must survive them all, and every
 * answer must be well formed, addressed to this socket, for a message
 * that was sent.  Seed and count: argv[1], argv[2].
 */
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "emu_util.h"

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	/* xorshift64*: reproducible from the printed seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return n ? (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32) % n : 0;
}

/*
 * One random message.  Only the last of a datagram may claim more bytes
 * than it has: an earlier one would make the receiver (the kernel as the
 * model) read the next message from its middle, whose random bytes then
 * name the sequence number, and drain() could not tell an answer to that
 * from a stray one.
 */
static size_t random_msg(uint8_t *p, size_t room, uint32_t seq, bool last)
{
	struct nlmsghdr h = { .nlmsg_seq = seq };
	static const uint16_t flags[] = { NLM_F_REQUEST, NLM_F_ACK,
					  NLM_F_DUMP, NLM_F_ROOT, NLM_F_MATCH,
					  NLM_F_MULTI, NLM_F_ECHO };
	size_t len = NLMSG_HDRLEN;
	unsigned int i, nattr = rnd(6);

	if (room < NLMSG_HDRLEN + 64)
		return 0;
	h.nlmsg_type = rnd(8) ? RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, rnd(40)) :
				(uint16_t)rnd(65536);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (rnd(3) || (i == 0 && rnd(8)))
			h.nlmsg_flags |= flags[i];
	for (i = 0; i < nattr && len + 48 < room; i++) {
		struct nlattr a;
		uint32_t alen = rnd(4) ? (uint32_t[]){ 1, 2, 4, 8 }[rnd(4)] :
					 rnd(40);
		uint32_t j;

		a.nla_type = (uint16_t)(rnd(4) ? rnd(RDMA_NLDEV_ATTR_MAX + 4) :
						 rnd(65536));
		a.nla_len = (uint16_t)(NLA_HDRLEN + alen);
		if (!rnd(10))
			a.nla_len = (uint16_t)rnd(64);
		memcpy(p + len, &a, sizeof(a));
		for (j = 0; j < alen; j++)
			p[len + NLA_HDRLEN + j] =
				rnd(3) ? (uint8_t)rnd(3) : (uint8_t)rnd(256);
		/* strings: sometimes a real one */
		if (alen >= 7 && !rnd(3))
			memcpy(p + len + NLA_HDRLEN, "uverbs", 7);
		len += NLA_ALIGN(NLA_HDRLEN + alen);
	}
	h.nlmsg_len = (uint32_t)len;
	if (!rnd(12))
		h.nlmsg_len = rnd(2) || !last ? rnd(NLMSG_HDRLEN) :
					(uint32_t)len + rnd(64);
	memcpy(p, &h, sizeof(h));
	return len;
}

/* every queued answer: well formed, ours, for a sequence number sent */
static unsigned int drain(int fd, uint32_t portid, uint32_t lo, uint32_t hi)
{
	static uint8_t buf[65536] __attribute__((aligned(8)));
	unsigned int msgs = 0;
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
		size_t rem = (size_t)n;

		CHECK(NLMSG_OK(h, rem));
		for (; NLMSG_OK(h, rem); h = NLMSG_NEXT(h, rem)) {
			CHECK_EQ(h->nlmsg_pid, portid);
			CHECK(h->nlmsg_seq >= lo && h->nlmsg_seq <= hi);
			CHECK(h->nlmsg_type == NLMSG_ERROR ||
			      h->nlmsg_type == NLMSG_DONE ||
			      RDMA_NL_GET_CLIENT(h->nlmsg_type) ==
				      RDMA_NL_NLDEV);
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				CHECK(h->nlmsg_len >=
				      NLMSG_LENGTH(sizeof(*e)));
				CHECK(e->error <= 0 && e->error > -4096);
			}
			msgs++;
		}
		CHECK_EQ(rem, 0);
	}
	CHECK(n < 0 && errno == EAGAIN);
	return msgs;
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static uint8_t dgram[8192] __attribute__((aligned(8)));
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) :
					(unsigned long)time(NULL);
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	unsigned long i, answers = 0;
	socklen_t slen = sizeof(sa);
	uint32_t seq = 1;
	int fd;

	emu_require("netlink_fuzz");
	printf("netlink_fuzz: seed %lu, %lu datagrams\n", seed, count);
	rng = seed * 2654435761u + 1;
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA);
	REQUIRE(fd >= 0);
	REQUIRE(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	REQUIRE(getsockname(fd, (struct sockaddr *)&sa, &slen) == 0);
	for (i = 0; i < count; i++) {
		size_t len = 0, m;
		uint32_t first = seq;
		unsigned int k, nmsg = 1 + rnd(3);

		for (k = 0; k < nmsg; k++) {
			m = random_msg(dgram + len, sizeof(dgram) - len,
				       seq++, k + 1 == nmsg);
			len += NLMSG_ALIGN(m);
		}
		if (!rnd(10))
			len = rnd((uint32_t)len + 1);
		if (send(fd, dgram, len, 0) != (ssize_t)len) {
			/* only an empty datagram may be refused */
			CHECK(len == 0);
			continue;
		}
		answers += drain(fd, sa.nl_pid, first, seq - 1);
		if (check_failed > 20)
			break;
	}
	/* still a working socket afterwards */
	{
		struct nlmsghdr h = {
			.nlmsg_len = NLMSG_HDRLEN,
			.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						       RDMA_NLDEV_CMD_GET),
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = seq,
		};

		REQUIRE(send(fd, &h, sizeof(h), 0) == sizeof(h));
		CHECK_EQ(drain(fd, sa.nl_pid, seq, seq), 2 + 1);
	}
	close(fd);
	printf("netlink_fuzz: %lu answers\n", answers);
	return check_done("netlink_fuzz");
}
