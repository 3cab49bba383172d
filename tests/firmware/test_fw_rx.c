// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The receive data path: frames through the NIC RX steering an mlx5e
 * netdev builds (a VLAN table at the root, a destination MAC table, a
 * traffic type table sending UDP to RSS TIRs and the rest to a direct
 * TIR, a miss table behind the MAC table), through emu_fw_rx_steer();
 * the counters it feeds (flow counters, the vport's, the Q counters'
 * out_of_buffer) read back through their PRM queries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fw_frame.h"
#include "fw_test_objs.h"

#define RX PRM_FT_TYPE_NIC_RX

/* The Microsoft RSS specification's key and verification vectors. */
static const uint8_t ms_key[PRM_TIRC_TOEPLITZ_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};
#define MS_V4_SRC 0x420995bbu	/* 66.9.149.187:2794 */
#define MS_V4_DST 0xa18e6450u	/* 161.142.100.80:1766 */
#define MS_SPORT 2794
#define MS_DPORT 1766
#define MS_V4_HASH_L4 0x51ccc178u
#define MS_V4_HASH_IP 0x323e8fc2u
/* 3ffe:2501:200:1fff::7 to 3ffe:2501:200:3::1 */
static const uint8_t ms_v6_src[16] = { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00,
				       0x1f, 0xff, [15] = 0x07 };
static const uint8_t ms_v6_dst[16] = { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00,
				       0x00, 0x03, [15] = 0x01 };
#define MS_V6_HASH_L4 0x40207d3du

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0xaa };
static const uint8_t blocked_mac[6] = { 0x02, 0, 0, 0, 0, 0xbb };
static const uint8_t moved_mac[6] = { 0x02, 0, 0, 0, 0, 0xcc };
static const uint8_t other_mac[6] = { 0x02, 0, 0, 0, 0, 0xdd };
static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mcast_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

enum {
	VID = 100,
	TAG_UDP4 = 4,
	TAG_UDP6 = 6,
	TAG_OTHER = 0x99,
	TAG_MISS = 0x22,
};

/* The steering, and what it points at. */
struct rig {
	struct emu_fw *fw;
	uint16_t uid;
	uint32_t td, rq[3], rqt, tir_udp4, tir_udp6, tir_direct;
	uint32_t ft_vlan, ft_l2, ft_ttc, ft_miss;
	uint32_t fg_l2;
	uint32_t cnt_drop, cnt_miss, q_counter;
};

/* Frames. */
struct frame {
	uint8_t b[256];
	size_t len;
};

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* The Ethernet header (and a tag when vid is not 0); the L3 offset. */
static size_t eth(struct frame *f, const uint8_t *dmac, unsigned int vid,
		  unsigned int type)
{
	size_t at = FRAME_ETH_TYPE;

	memset(f, 0, sizeof(*f));
	memcpy(f->b + FRAME_ETH_DMAC, dmac, FRAME_MAC_LEN);
	memcpy(f->b + FRAME_ETH_SMAC, other_mac, FRAME_MAC_LEN);
	if (vid) {
		put16(f->b + at, FRAME_ETHERTYPE_CVLAN);
		put16(f->b + at + FRAME_VLAN_TCI, 3 << 13 | vid);
		at += FRAME_VLAN_TAG_LEN;
	}
	put16(f->b + at, type);
	return at + 2;
}

/* An IPv4 UDP frame of 64 bytes (the payload zero). */
static void udp4(struct frame *f, const uint8_t *dmac, unsigned int vid,
		 uint32_t src, uint32_t dst, unsigned int sport,
		 unsigned int dport)
{
	size_t ip = eth(f, dmac, vid, FRAME_ETHERTYPE_IPV4);
	uint8_t *l4 = f->b + ip + FRAME_IPV4_MIN_LEN;

	f->b[ip + FRAME_IPV4_VER_IHL] = 0x45;
	f->b[ip + FRAME_IPV4_TTL] = 64;
	f->b[ip + FRAME_IPV4_PROTOCOL] = FRAME_IPPROTO_UDP;
	put32(f->b + ip + FRAME_IPV4_SRC, src);
	put32(f->b + ip + FRAME_IPV4_DST, dst);
	put16(l4 + FRAME_L4_SPORT, sport);
	put16(l4 + FRAME_L4_DPORT, dport);
	f->len = 64;
}

static void udp6(struct frame *f, const uint8_t *dmac, const uint8_t *src,
		 const uint8_t *dst, unsigned int sport, unsigned int dport)
{
	size_t ip = eth(f, dmac, 0, FRAME_ETHERTYPE_IPV6);
	uint8_t *l4 = f->b + ip + FRAME_IPV6_HDR_LEN;

	f->b[ip] = 0x60;
	f->b[ip + FRAME_IPV6_NEXT_HEADER] = FRAME_IPPROTO_UDP;
	f->b[ip + FRAME_IPV6_HOP_LIMIT] = 64;
	memcpy(f->b + ip + FRAME_IPV6_SRC, src, FRAME_IPV6_ADDR_LEN);
	memcpy(f->b + ip + FRAME_IPV6_DST, dst, FRAME_IPV6_ADDR_LEN);
	put16(l4 + FRAME_L4_SPORT, sport);
	put16(l4 + FRAME_L4_DPORT, dport);
	f->len = ip + FRAME_IPV6_HDR_LEN + FRAME_UDP_HDR_LEN + 16;
}

static void arp_broadcast(struct frame *f)
{
	eth(f, bcast_mac, 0, FRAME_ETHERTYPE_ARP);
	f->len = 60;
}

/* The outer headers' fields of a match image at buf + byte. */
static void set_mac(uint8_t *o, const uint8_t *mac)
{
	prm_set(o, PRM_L24_DMAC_47_16, prm_be32_load(mac));
	prm_set(o, PRM_L24_DMAC_15_0, mac[4] << 8 | mac[5]);
}

/* CREATE_FLOW_GROUP of [start, end] in ft; criteria set by the caller. */
static void fg_cmd(struct mbox *m, uint16_t uid, uint32_t ft,
		   uint32_t start, uint32_t end, unsigned int enable)
{
	fs_cmd(m, PRM_OP_CREATE_FLOW_GROUP, uid, RX, ft);
	prm_set(m->in, PRM_FG_START, start);
	prm_set(m->in, PRM_FG_END, end);
	prm_set(m->in, PRM_FG_MATCH_CRITERIA_ENABLE, enable);
}

static uint32_t fg_run(struct emu_fw *fw, struct mbox *m)
{
	return alloc_id(fw, m, PRM_FG_IN_LEN, PRM_FG_OUT_ID);
}

static uint8_t *criteria(struct mbox *m)
{
	return m->in + PRM_FG_MATCH_CRITERIA_BYTE + PRM_MATCH_OUTER_BYTE;
}

static uint8_t *value(struct mbox *m)
{
	return m->in + PRM_FTE_MATCH_VALUE_BYTE + PRM_MATCH_OUTER_BYTE;
}

/* SET_FLOW_TABLE_ENTRY: its match value set by the caller, then fte_run. */
static void fte_cmd(struct mbox *m, uint16_t uid, uint32_t ft, uint32_t fg,
		    uint32_t index)
{
	fs_cmd(m, PRM_OP_SET_FLOW_TABLE_ENTRY, uid, RX, ft);
	prm_set(m->in, PRM_FTE_INDEX, index);
	prm_set(m->in, PRM_FTE_GROUP_ID, fg);
}

/* The entry's action: to one destination (type, id), counting in cnt. */
static int fte_run(struct emu_fw *fw, struct mbox *m, uint32_t action,
		   unsigned int dest_type, uint32_t dest, uint32_t cnt,
		   uint32_t tag)
{
	uint8_t *list = m->in + PRM_FTE_LEN;

	prm_set(m->in, PRM_FTE_ACTION, action);
	prm_set(m->in, PRM_FTE_FLOW_TAG, tag);
	if (action & PRM_FTE_ACTION_FWD_DEST) {
		prm_set(m->in, PRM_FTE_DEST_LIST_SIZE, 1);
		prm_set(list, PRM_FTE_DEST_TYPE, dest_type);
		prm_set(list, PRM_FTE_DEST_ID, dest);
		list += PRM_FTE_DEST_LEN;
	}
	if (action & PRM_FTE_ACTION_COUNT) {
		prm_set(m->in, PRM_FTE_COUNTER_LIST_SIZE, 1);
		prm_set(list, PRM_FTE_COUNTER_ID, cnt);
		list += PRM_FTE_DEST_LEN;
	}
	return run(fw, m, list - m->in, 16);
}

static uint32_t make_counter(struct emu_fw *fw, uint16_t uid)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	return alloc_id(fw, &m, PRM_ALLOC_FC_IN_LEN, PRM_ALLOC_FC_OUT_ID);
}

static uint32_t make_table(struct emu_fw *fw, uint16_t uid,
			   unsigned int level, uint32_t miss)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, uid, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, RX);
	prm_set(m.in, PRM_FTC_LEVEL, level);
	prm_set(m.in, PRM_FTC_LOG_SIZE, 4);
	if (miss) {
		prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
		prm_set(m.in, PRM_FTC_MISS_ID, miss);
	}
	return alloc_id(fw, &m, PRM_FS_IN_LEN, PRM_FT_OUT_ID);
}

/* An RSS TIR over the rig's RQT, hashing UDP over IPv4 or IPv6. */
static uint32_t make_rss_tir(struct rig *r, bool v6)
{
	struct mbox m;

	tir_cmd(&m, r->uid, r->td, 0, r->rqt);
	memcpy(m.in + PRM_TIRC_TOEPLITZ_KEY_BYTE, ms_key, sizeof(ms_key));
	prm_set(m.in, PRM_TIRC_HASH_OUTER_L3_IPV6, v6);
	prm_set(m.in, PRM_TIRC_HASH_OUTER_L4_UDP, 1);
	prm_set(m.in, PRM_TIRC_HASH_OUTER_FIELDS,
		PRM_HASH_FIELD_SRC_IP | PRM_HASH_FIELD_DST_IP |
			PRM_HASH_FIELD_L4_SPORT | PRM_HASH_FIELD_L4_DPORT);
	return created(r->fw, &m, PRM_OBJ_IN_LEN);
}

static int modify_rq_ready(struct rig *r, uint32_t rq)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_MODIFY_RQ, r->uid, 0);
	prm_set(m.in, PRM_IN_OBJN, rq);
	prm_set(m.in, PRM_MODIFY_WQ_CUR_STATE, PRM_WQ_STATE_RST);
	prm_set(m.in, PRM_WQC_STATE, PRM_WQ_STATE_RDY);
	return run(r->fw, &m, PRM_OBJ_IN_LEN, 16);
}

/* The queues: three RQs (the first two in an RQT), in RST. */
static void build_queues(struct rig *r)
{
	uint32_t umem, pd, cq, i;
	struct mbox m;
	size_t len;

	mbox_init(&m, PRM_OP_ALLOC_Q_COUNTER, 0, 0);
	r->q_counter = alloc_id(r->fw, &m, 16, PRM_Q_COUNTER_ID);
	umem = make_umem(r->fw, r->uid, 4);
	pd = make_simple(r->fw, r->uid, PRM_OP_ALLOC_PD);
	r->td = make_simple(r->fw, r->uid, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
	cq = make_cq(r->fw, r->uid, umem, 0);
	REQUIRE(r->q_counter && umem && pd && r->td && cq);
	for (i = 0; i < 3; i++) {
		wq_cmd(&m, PRM_OP_CREATE_RQ, r->uid, cq, pd, 0, umem,
		       4096 * (i + 1));
		/* the RSS queues count their drops in the Q counter */
		if (i < 2)
			prm_set(m.in, PRM_RQC_COUNTER_SET_ID, r->q_counter);
		r->rq[i] = created(r->fw, &m, PRM_OBJ_IN_LEN);
		REQUIRE(r->rq[i]);
	}
	len = rqt_cmd(&m, PRM_OP_CREATE_RQT, r->uid, 2, r->rq, 2);
	r->rqt = created(r->fw, &m, len);
	r->tir_udp4 = make_rss_tir(r, false);
	r->tir_udp6 = make_rss_tir(r, true);
	tir_cmd(&m, r->uid, r->td, r->rq[2], 0);
	r->tir_direct = created(r->fw, &m, PRM_OBJ_IN_LEN);
	REQUIRE(r->rqt && r->tir_udp4 && r->tir_udp6 && r->tir_direct);
}

/*
 * The traffic type table: UDP over IPv4 and IPv6 to the RSS TIRs
 * (ethertype and ip_protocol), anything else to the direct TIR (a group
 * with no criteria), as mlx5e's TTC table does.
 */
static void build_ttc(struct rig *r)
{
	const unsigned int types[2] = { FRAME_ETHERTYPE_IPV4,
					FRAME_ETHERTYPE_IPV6 };
	const uint32_t tirs[2] = { r->tir_udp4, r->tir_udp6 };
	const uint32_t tags[2] = { TAG_UDP4, TAG_UDP6 };
	uint32_t fg, any, i;
	struct mbox m;

	fg_cmd(&m, r->uid, r->ft_ttc, 0, 1, 1 << 0);
	prm_set(criteria(&m), PRM_L24_ETHERTYPE, 0xffff);
	prm_set(criteria(&m), PRM_L24_IP_PROTOCOL, 0xff);
	fg = fg_run(r->fw, &m);
	fg_cmd(&m, r->uid, r->ft_ttc, 2, 2, 0);
	any = fg_run(r->fw, &m);
	REQUIRE(fg && any);
	for (i = 0; i < 2; i++) {
		fte_cmd(&m, r->uid, r->ft_ttc, fg, i);
		prm_set(value(&m), PRM_L24_ETHERTYPE, types[i]);
		prm_set(value(&m), PRM_L24_IP_PROTOCOL, FRAME_IPPROTO_UDP);
		CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_FWD_DEST,
				 PRM_FTE_DEST_TIR, tirs[i], 0, tags[i]),
			 0);
	}
	fte_cmd(&m, r->uid, r->ft_ttc, any, 2);
	CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_FWD_DEST, PRM_FTE_DEST_TIR,
			 r->tir_direct, 0, TAG_OTHER),
		 0);
}

/*
 * The MAC table: our MAC and broadcast to the TTC table, blocked_mac
 * counted and dropped, moved_mac to the TTC table (until a test deletes
 * it: then the miss table takes it); misses go to the miss table,
 * which takes moved_mac only, counting it, to the direct TIR.
 */
static void build_l2(struct rig *r)
{
	const uint8_t *to_ttc[3] = { our_mac, bcast_mac, moved_mac };
	const uint32_t index[3] = { 0, 1, 3 };
	struct mbox m;
	uint32_t fg, i;

	fg_cmd(&m, r->uid, r->ft_l2, 0, 7, 1 << 0);
	set_mac(criteria(&m), bcast_mac);
	r->fg_l2 = fg_run(r->fw, &m);
	REQUIRE(r->fg_l2);
	for (i = 0; i < 3; i++) {
		fte_cmd(&m, r->uid, r->ft_l2, r->fg_l2, index[i]);
		set_mac(value(&m), to_ttc[i]);
		CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_FWD_DEST,
				 PRM_FTE_DEST_FLOW_TABLE, r->ft_ttc, 0, 0),
			 0);
	}
	fte_cmd(&m, r->uid, r->ft_l2, r->fg_l2, 2);
	set_mac(value(&m), blocked_mac);
	CHECK_EQ(fte_run(r->fw, &m,
			 PRM_FTE_ACTION_COUNT | PRM_FTE_ACTION_DROP, 0, 0,
			 r->cnt_drop, 0),
		 0);

	fg_cmd(&m, r->uid, r->ft_miss, 0, 0, 1 << 0);
	set_mac(criteria(&m), bcast_mac);
	fg = fg_run(r->fw, &m);
	REQUIRE(fg);
	fte_cmd(&m, r->uid, r->ft_miss, fg, 0);
	set_mac(value(&m), moved_mac);
	CHECK_EQ(fte_run(r->fw, &m,
			 PRM_FTE_ACTION_FWD_DEST | PRM_FTE_ACTION_COUNT,
			 PRM_FTE_DEST_TIR, r->tir_direct, r->cnt_miss,
			 TAG_MISS),
		 0);
}

/* The VLAN table at the root: untagged frames and VID to the MAC table. */
static void build_vlan(struct rig *r)
{
	uint32_t untagged, tagged;
	struct mbox m;

	fg_cmd(&m, r->uid, r->ft_vlan, 0, 0, 1 << 0);
	prm_set(criteria(&m), PRM_L24_CVLAN_TAG, 1);
	untagged = fg_run(r->fw, &m);
	fg_cmd(&m, r->uid, r->ft_vlan, 1, 1, 1 << 0);
	prm_set(criteria(&m), PRM_L24_CVLAN_TAG, 1);
	prm_set(criteria(&m), PRM_L24_FIRST_VID, 0xfff);
	tagged = fg_run(r->fw, &m);
	REQUIRE(untagged && tagged);
	fte_cmd(&m, r->uid, r->ft_vlan, untagged, 0);
	CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_FWD_DEST,
			 PRM_FTE_DEST_FLOW_TABLE, r->ft_l2, 0, 0),
		 0);
	fte_cmd(&m, r->uid, r->ft_vlan, tagged, 1);
	prm_set(value(&m), PRM_L24_CVLAN_TAG, 1);
	prm_set(value(&m), PRM_L24_FIRST_VID, VID);
	CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_FWD_DEST,
			 PRM_FTE_DEST_FLOW_TABLE, r->ft_l2, 0, 0),
		 0);
}

static int set_root(struct rig *r, uint32_t ft)
{
	struct mbox m;

	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, r->uid, RX, ft);
	return run(r->fw, &m, PRM_FT_ROOT_IN_LEN, 16);
}

static void rig_init(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	r->fw = emu_fw_new(TEST_GUID);
	REQUIRE(r->fw);
	emu_fw_set_port(r->fw, EMU_FW_PORT_ETH);
	r->uid = make_uctx(r->fw);
	REQUIRE(r->uid);
	build_queues(r);
	r->cnt_drop = make_counter(r->fw, r->uid);
	r->cnt_miss = make_counter(r->fw, r->uid);
	r->ft_miss = make_table(r->fw, r->uid, 3, 0);
	r->ft_ttc = make_table(r->fw, r->uid, 2, 0);
	r->ft_l2 = make_table(r->fw, r->uid, 1, r->ft_miss);
	r->ft_vlan = make_table(r->fw, r->uid, 0, 0);
	REQUIRE(r->cnt_drop && r->cnt_miss && r->ft_miss && r->ft_ttc &&
		r->ft_l2 && r->ft_vlan);
	build_ttc(r);
	build_l2(r);
	build_vlan(r);
}

static bool steer(struct rig *r, const struct frame *f, struct emu_fw_rx *rx)
{
	memset(rx, 0xa5, sizeof(*rx));
	return emu_fw_rx_steer(r->fw, f->b, f->len, rx);
}

/* The packets and octets of a flow counter (clearing them when clear). */
static void query_counter(struct rig *r, uint32_t id, bool clear,
			  uint64_t *packets, uint64_t *octets)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_QUERY_FLOW_COUNTER, r->uid, 0);
	prm_set(m.in, PRM_QUERY_FC_ID, id);
	prm_set(m.in, PRM_QUERY_FC_CLEAR, clear);
	CHECK_EQ(run(r->fw, &m, PRM_QUERY_FC_IN_LEN, PRM_QUERY_FC_OUT_LEN), 0);
	*packets = prm_get64(m.out, PRM_QUERY_FC_PACKETS);
	*octets = prm_get64(m.out, PRM_QUERY_FC_OCTETS);
}

/* The one line the trace has for a frame, into buf. */
static bool steer_traced(struct rig *r, const struct frame *f, char *buf,
			 size_t size)
{
	struct emu_fw_rx rx;
	FILE *t = tmpfile();
	bool ok;

	REQUIRE(t);
	emu_fw_set_trace(r->fw, t);
	ok = emu_fw_rx_steer(r->fw, f->b, f->len, &rx);
	emu_fw_set_trace(r->fw, NULL);
	rewind(t);
	if (!fgets(buf, size, t))
		buf[0] = 0;
	CHECK(fgetc(t) == EOF);
	fclose(t);
	return ok;
}

/* Nothing is received before the root is set, or before RQs are RDY. */
static void test_not_ready(struct rig *r)
{
	struct emu_fw_rx rx;
	struct frame f;
	char line[256];

	arp_broadcast(&f);
	CHECK(!steer_traced(r, &f, line, sizeof(line)));
	CHECK(strstr(line, "dropped: no NIC RX root table") != NULL);
	CHECK_EQ(set_root(r, r->ft_vlan), 0);
	CHECK(!steer_traced(r, &f, line, sizeof(line)));
	CHECK(strstr(line, "dropped: RQ not ready") != NULL);
	CHECK_EQ(modify_rq_ready(r, r->rq[0]), 0);
	CHECK_EQ(modify_rq_ready(r, r->rq[1]), 0);
	CHECK_EQ(modify_rq_ready(r, r->rq[2]), 0);
	CHECK(steer(r, &f, &rx));
	CHECK(steer_traced(r, &f, line, sizeof(line)));
	CHECK(strstr(line, "rx 60 bytes: rq 0x") != NULL);
}

/* UDP to our MAC spreads over the RQT's RQs, each flow on one. */
static void test_udp_rss(struct rig *r)
{
	struct emu_fw_rx rx, again;
	unsigned int hits[2] = { 0, 0 }, i;
	struct frame f;

	for (i = 0; i < 64; i++) {
		udp4(&f, our_mac, 0, 0x0a000001, 0x0a000002, 1000 + i, 4791);
		REQUIRE(steer(r, &f, &rx));
		CHECK_EQ(rx.flow_tag, TAG_UDP4);
		CHECK(rx.rqn == r->rq[0] || rx.rqn == r->rq[1]);
		hits[rx.rqn == r->rq[1]]++;
		/* the same 5-tuple: the same hash, the same RQ */
		CHECK(steer(r, &f, &again));
		CHECK_EQ(again.rqn, rx.rqn);
		CHECK_EQ(again.hash, rx.hash);
		/* the RQT's entry is the hash modulo its size */
		CHECK_EQ(rx.rqn, r->rq[rx.hash % 2]);
	}
	CHECK(hits[0] > 0 && hits[1] > 0);

	/* The specification's vectors: with the ports, and a fragment
	 * (no ports: the addresses only). */
	udp4(&f, our_mac, 0, MS_V4_SRC, MS_V4_DST, MS_SPORT, MS_DPORT);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.hash, MS_V4_HASH_L4);
	CHECK_EQ(rx.rqn, r->rq[MS_V4_HASH_L4 % 2]);
	put16(f.b + FRAME_ETH_HDR_LEN + FRAME_IPV4_FRAG, 0x2000); /* MF */
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.hash, MS_V4_HASH_IP);
	CHECK_EQ(rx.flow_tag, TAG_UDP4);
}

static void test_ipv6(struct rig *r)
{
	struct emu_fw_rx rx;
	struct frame f;

	udp6(&f, our_mac, ms_v6_src, ms_v6_dst, MS_SPORT, MS_DPORT);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_UDP6);
	CHECK_EQ(rx.hash, MS_V6_HASH_L4);
	CHECK_EQ(rx.rqn, r->rq[MS_V6_HASH_L4 % 2]);
	/* TCP over IPv6: the TTC's rest, to the direct TIR */
	f.b[FRAME_ETH_HDR_LEN + FRAME_IPV6_NEXT_HEADER] = FRAME_IPPROTO_TCP;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.rqn, r->rq[2]);
	CHECK_EQ(rx.hash, 0);
	CHECK_EQ(rx.flow_tag, TAG_OTHER);
}

static void test_l2(struct rig *r)
{
	struct emu_fw_rx rx;
	struct frame f;
	char line[256];

	/* Another MAC: the MAC table misses, the miss table too: dropped. */
	udp4(&f, other_mac, 0, 1, 2, 3, 4);
	CHECK(!steer_traced(r, &f, line, sizeof(line)));
	CHECK(strstr(line, "dropped: table miss") != NULL);
	/* ARP broadcast: the TTC's rest, the direct TIR. */
	arp_broadcast(&f);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.rqn, r->rq[2]);
	CHECK_EQ(rx.hash, 0);
	CHECK_EQ(rx.flow_tag, TAG_OTHER);
	/* A multicast MAC nobody listens to. */
	arp_broadcast(&f);
	memcpy(f.b, mcast_mac, FRAME_MAC_LEN);
	CHECK(!steer(r, &f, &rx));
}

/* COUNT and DROP: counted, dropped; the counter reads exactly that. */
static void test_count_drop(struct rig *r)
{
	const size_t lens[3] = { 60, 100, 200 };
	uint64_t packets, octets;
	struct emu_fw_rx rx;
	struct frame f;
	char line[256];
	unsigned int i;

	query_counter(r, r->cnt_drop, false, &packets, &octets);
	CHECK_EQ(packets, 0);
	CHECK_EQ(octets, 0);
	for (i = 0; i < 3; i++) {
		udp4(&f, blocked_mac, 0, 1, 2, 3, 4);
		f.len = lens[i];
		CHECK(!steer(r, &f, &rx));
	}
	CHECK(!steer_traced(r, &f, line, sizeof(line)));
	CHECK(strstr(line, "dropped: drop action") != NULL);
	query_counter(r, r->cnt_drop, true, &packets, &octets);
	CHECK_EQ(packets, 4);
	CHECK_EQ(octets, 60 + 100 + 200 + 200);
	query_counter(r, r->cnt_drop, false, &packets, &octets);
	CHECK_EQ(packets, 0);
	CHECK_EQ(octets, 0);
}

/* A deleted entry matches no more: its frames take the miss path. */
static void test_delete(struct rig *r)
{
	uint64_t packets, octets;
	struct emu_fw_rx rx;
	struct frame f;
	struct mbox m;

	udp4(&f, moved_mac, 0, 1, 2, 3, 4);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_UDP4);
	CHECK(rx.rqn == r->rq[0] || rx.rqn == r->rq[1]);
	query_counter(r, r->cnt_miss, false, &packets, &octets);
	CHECK_EQ(packets, 0);

	fs_cmd(&m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, r->uid, RX, r->ft_l2);
	prm_set(m.in, PRM_FTE_INDEX, 3);
	CHECK_EQ(run(r->fw, &m, PRM_FS_IN_LEN, 16), 0);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_MISS);
	CHECK_EQ(rx.rqn, r->rq[2]);
	CHECK_EQ(rx.hash, 0);
	query_counter(r, r->cnt_miss, false, &packets, &octets);
	CHECK_EQ(packets, 1);
	CHECK_EQ(octets, 64);

	/* ALLOW alone, in a NIC table, leaves the frame to the miss. */
	fte_cmd(&m, r->uid, r->ft_l2, r->fg_l2, 3);
	set_mac(value(&m), moved_mac);
	CHECK_EQ(fte_run(r->fw, &m, PRM_FTE_ACTION_ALLOW, 0, 0, 0, 0), 0);
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_MISS);
	CHECK_EQ(rx.rqn, r->rq[2]);
}

static void test_vlan(struct rig *r)
{
	struct emu_fw_rx rx;
	struct frame f;

	udp4(&f, our_mac, VID, MS_V4_SRC, MS_V4_DST, MS_SPORT, MS_DPORT);
	f.len += FRAME_VLAN_TAG_LEN;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_UDP4);
	/* the tag does not change the flow's hash */
	CHECK_EQ(rx.hash, MS_V4_HASH_L4);
	/* a VID the VLAN table has no entry for: dropped */
	udp4(&f, our_mac, VID + 1, 1, 2, 3, 4);
	CHECK(!steer(r, &f, &rx));
	/* a tag cut short: the tag seen, no VID, no match */
	udp4(&f, our_mac, VID, 1, 2, 3, 4);
	f.len = FRAME_ETH_HDR_LEN + 2;
	CHECK(!steer(r, &f, &rx));
}

/* Short and garbage frames: no crash; dropped or matched on L2 only. */
static void test_garbage(struct rig *r)
{
	struct emu_fw_rx rx;
	struct frame f;
	unsigned int i, j;

	arp_broadcast(&f);
	f.len = 0;
	CHECK(!steer(r, &f, &rx));
	f.len = FRAME_ETH_HDR_LEN - 1;
	CHECK(!steer(r, &f, &rx));
	CHECK(!emu_fw_rx_steer(r->fw, NULL, 64, &rx));
	CHECK(!emu_fw_rx_steer(NULL, f.b, 64, &rx));
	/* exactly an Ethernet header: an L2 match */
	f.len = FRAME_ETH_HDR_LEN;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.rqn, r->rq[2]);

	/* A bogus IHL (3), one past the frame (15), IPv4 cut short: not
	 * UDP to the TTC, so the TTC's rest takes them. */
	udp4(&f, our_mac, 0, 1, 2, 3, 4);
	f.b[FRAME_ETH_HDR_LEN + FRAME_IPV4_VER_IHL] = 0x43;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_OTHER);
	f.b[FRAME_ETH_HDR_LEN + FRAME_IPV4_VER_IHL] = 0x4f;
	f.len = FRAME_ETH_HDR_LEN + 40;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_OTHER);
	udp4(&f, our_mac, 0, 1, 2, 3, 4);
	f.len = FRAME_ETH_HDR_LEN + FRAME_IPV4_MIN_LEN - 1;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_OTHER);
	/* the UDP header cut short: UDP still, the ports unknown (0) */
	f.len = FRAME_ETH_HDR_LEN + FRAME_IPV4_MIN_LEN + 4;
	CHECK(steer(r, &f, &rx));
	CHECK_EQ(rx.flow_tag, TAG_UDP4);

	/* Random bytes of every length, our MAC or not: never a crash,
	 * and anything received lands on one of the RQs. */
	srand(1);
	for (i = 0; i < 2000; i++) {
		f.len = rand() % sizeof(f.b);
		for (j = 0; j < f.len; j++)
			f.b[j] = rand();
		if (i & 1 && f.len >= FRAME_MAC_LEN)
			memcpy(f.b, our_mac, FRAME_MAC_LEN);
		if (i & 2 && f.len >= FRAME_ETH_HDR_LEN)
			put16(f.b + FRAME_ETH_TYPE,
			      i & 4 ? FRAME_ETHERTYPE_IPV4
				    : FRAME_ETHERTYPE_IPV6);
		if (steer(r, &f, &rx))
			CHECK(rx.rqn == r->rq[0] || rx.rqn == r->rq[1] ||
			      rx.rqn == r->rq[2]);
	}
}

/* The vport's counters by class and direction (QUERY_VPORT_COUNTER). */
static void test_vport_counters(struct rig *r)
{
	static const struct {
		unsigned int index;
		uint64_t packets, octets;
	} want[] = {
		{ PRM_VPORT_CNT_RX_ETH_UNICAST, 2, 64 + 100 },
		{ PRM_VPORT_CNT_RX_ETH_BROADCAST, 1, 60 },
		{ PRM_VPORT_CNT_RX_ETH_MULTICAST, 1, 70 },
		{ PRM_VPORT_CNT_RX_ETH_UNICAST + PRM_VPORT_CNT_TX_OFFSET, 1,
		  80 },
		{ PRM_VPORT_CNT_RX_ETH_MULTICAST + PRM_VPORT_CNT_TX_OFFSET, 0,
		  0 },
	};
	struct frame f;
	struct mbox m;
	unsigned int i, bit;

	udp4(&f, our_mac, 0, 1, 2, 3, 4);
	emu_fw_vport_count(r->fw, true, f.b, 64);
	emu_fw_vport_count(r->fw, true, f.b, 100);
	emu_fw_vport_count(r->fw, false, f.b, 80);
	emu_fw_vport_count(r->fw, true, f.b, FRAME_ETH_HDR_LEN - 1);
	arp_broadcast(&f);
	emu_fw_vport_count(r->fw, true, f.b, 60);
	memcpy(f.b, mcast_mac, FRAME_MAC_LEN);
	emu_fw_vport_count(r->fw, true, f.b, 70);
	emu_fw_vport_count(NULL, true, f.b, 70);

	mbox_init(&m, PRM_OP_QUERY_VPORT_COUNTER, 0, 0);
	CHECK_EQ(run(r->fw, &m, 16, PRM_VPORT_COUNTER_OUT_LEN), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bit = (PRM_VPORT_COUNTER_BYTE +
		       want[i].index * PRM_TRAFFIC_COUNTER_LEN) * 8;
		CHECK_EQ(prm_get64(m.out, bit, 64), want[i].packets);
		CHECK_EQ(prm_get64(m.out, bit + 64, 64), want[i].octets);
	}
	/* the errors counters (0 and 1) stay 0 */
	bit = PRM_VPORT_COUNTER_BYTE * 8;
	CHECK_EQ(prm_get64(m.out, bit, 64), 0);
}

static uint32_t out_of_buffer(struct rig *r, bool clear)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_QUERY_Q_COUNTER, 0, 0);
	prm_set(m.in, PRM_Q_COUNTER_QUERY_ID, r->q_counter);
	prm_set(m.in, PRM_Q_COUNTER_QUERY_CLEAR, clear);
	CHECK_EQ(run(r->fw, &m, 16, PRM_Q_COUNTER_OUT_LEN), 0);
	return prm_get(m.out, PRM_Q_COUNTER_OUT_OF_BUFFER);
}

/* out_of_buffer of the set the RQ names; the clear bit zeroes it. */
static void test_out_of_buffer(struct rig *r)
{
	struct mbox m;

	CHECK_EQ(out_of_buffer(r, false), 0);
	emu_fw_rq_out_of_buffer(r->fw, r->rq[0]);
	emu_fw_rq_out_of_buffer(r->fw, r->rq[1]);
	emu_fw_rq_out_of_buffer(r->fw, r->rq[1]);
	/* the direct TIR's RQ names no set; no RQ 0xffffff */
	emu_fw_rq_out_of_buffer(r->fw, r->rq[2]);
	emu_fw_rq_out_of_buffer(r->fw, 0xffffff);
	emu_fw_rq_out_of_buffer(NULL, r->rq[0]);
	CHECK_EQ(out_of_buffer(r, false), 3);
	CHECK_EQ(out_of_buffer(r, true), 3);
	CHECK_EQ(out_of_buffer(r, false), 0);

	/* A set freed and allocated again starts from 0. */
	emu_fw_rq_out_of_buffer(r->fw, r->rq[0]);
	CHECK_EQ(out_of_buffer(r, false), 1);
	mbox_init(&m, PRM_OP_DEALLOC_Q_COUNTER, 0, 0);
	prm_set(m.in, PRM_Q_COUNTER_ID, r->q_counter);
	CHECK_EQ(run(r->fw, &m, 16, 16), 0);
	emu_fw_rq_out_of_buffer(r->fw, r->rq[0]);
	emu_fw_set_ids(r->fw, EMU_FW_IDS_LOWEST_FREE);
	mbox_init(&m, PRM_OP_ALLOC_Q_COUNTER, 0, 0);
	CHECK_EQ(alloc_id(r->fw, &m, 16, PRM_Q_COUNTER_ID), r->q_counter);
	CHECK_EQ(out_of_buffer(r, false), 0);
}

int main(void)
{
	struct rig r;

	rig_init(&r);
	test_not_ready(&r);
	test_udp_rss(&r);
	test_ipv6(&r);
	test_l2(&r);
	test_count_drop(&r);
	test_vlan(&r);
	test_garbage(&r);
	test_delete(&r);
	test_vport_counters(&r);
	test_out_of_buffer(&r);
	emu_fw_free(r.fw);
	return check_done("firmware_fw_rx");
}
