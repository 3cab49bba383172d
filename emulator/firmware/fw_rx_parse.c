// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The receive parser: a frame's headers as a flow lookup sees them, in
 * the layout of fte_match_param (the outer headers' section filled, the
 * misc and inner sections 0: no tunnel, no source vport, no metadata,
 * which is what a NIC receive rule of mlx5e expects of plain traffic).
 *
 * The parser reads no byte past len.  What it cannot parse it leaves 0,
 * as a hardware parser that gives up at a bad header does: a frame with
 * a truncated or bogus IP header is known by its L2 fields only (its
 * EtherType says IP, ip_version stays 0).  One 802.1Q or 802.1ad tag is
 * parsed (first_vid and friends, ethertype from after it); a second
 * tag's EtherType is what ethertype holds.  The L4 header is parsed only
 * for an unfragmented packet: a fragment's ports are not all there.
 */
#include <string.h>

#include "fw_frame.h"
#include "fw_internal.h"

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The TCP or UDP header at l4 (len bytes left) of protocol proto. */
static void parse_l4(uint8_t *o, unsigned int proto, const uint8_t *l4,
		     size_t len)
{
	if (proto == FRAME_IPPROTO_TCP && len >= FRAME_TCP_MIN_LEN) {
		prm_set(o, PRM_L24_TCP_SPORT, be16_at(l4 + FRAME_L4_SPORT));
		prm_set(o, PRM_L24_TCP_DPORT, be16_at(l4 + FRAME_L4_DPORT));
		prm_set(o, PRM_L24_TCP_FLAGS, be16_at(l4 + FRAME_TCP_FLAGS));
	} else if (proto == FRAME_IPPROTO_UDP && len >= FRAME_UDP_HDR_LEN) {
		prm_set(o, PRM_L24_UDP_SPORT, be16_at(l4 + FRAME_L4_SPORT));
		prm_set(o, PRM_L24_UDP_DPORT, be16_at(l4 + FRAME_L4_DPORT));
	}
}

static void parse_ipv4(uint8_t *o, const uint8_t *ip, size_t len)
{
	unsigned int ihl, proto;
	bool frag;

	if (len < FRAME_IPV4_MIN_LEN || ip[FRAME_IPV4_VER_IHL] >> 4 != 4)
		return;
	ihl = (ip[FRAME_IPV4_VER_IHL] & 0xf) * 4;
	if (ihl < FRAME_IPV4_MIN_LEN || ihl > len)
		return;
	proto = ip[FRAME_IPV4_PROTOCOL];
	frag = be16_at(ip + FRAME_IPV4_FRAG) & FRAME_IPV4_MF_OFFSET_MASK;
	prm_set(o, PRM_L24_IP_VERSION, 4);
	prm_set(o, PRM_L24_IPV4_IHL, ihl / 4);
	prm_set(o, PRM_L24_IP_DSCP, ip[FRAME_IPV4_TOS] >> 2);
	prm_set(o, PRM_L24_IP_ECN, ip[FRAME_IPV4_TOS] & 3);
	prm_set(o, PRM_L24_TTL_HOPLIMIT, ip[FRAME_IPV4_TTL]);
	prm_set(o, PRM_L24_IP_PROTOCOL, proto);
	prm_set(o, PRM_L24_FRAG, frag);
	memcpy(o + PRM_L24_SRC_IP_BYTE + PRM_L24_IPV4_AT,
	       ip + FRAME_IPV4_SRC, FRAME_IPV4_ADDR_LEN);
	memcpy(o + PRM_L24_DST_IP_BYTE + PRM_L24_IPV4_AT,
	       ip + FRAME_IPV4_DST, FRAME_IPV4_ADDR_LEN);
	if (!frag)
		parse_l4(o, proto, ip + ihl, len - ihl);
}

/* No extension headers are walked: ip_protocol is the next header. */
static void parse_ipv6(uint8_t *o, const uint8_t *ip, size_t len)
{
	unsigned int tclass, next;

	if (len < FRAME_IPV6_HDR_LEN || ip[0] >> 4 != 6)
		return;
	tclass = (be16_at(ip) >> 4) & 0xff;
	next = ip[FRAME_IPV6_NEXT_HEADER];
	prm_set(o, PRM_L24_IP_VERSION, 6);
	prm_set(o, PRM_L24_IP_DSCP, tclass >> 2);
	prm_set(o, PRM_L24_IP_ECN, tclass & 3);
	prm_set(o, PRM_L24_TTL_HOPLIMIT, ip[FRAME_IPV6_HOP_LIMIT]);
	prm_set(o, PRM_L24_IP_PROTOCOL, next);
	prm_set(o, PRM_L24_FRAG, next == FRAME_IPV6_NEXT_FRAGMENT);
	memcpy(o + PRM_L24_SRC_IP_BYTE, ip + FRAME_IPV6_SRC,
	       FRAME_IPV6_ADDR_LEN);
	memcpy(o + PRM_L24_DST_IP_BYTE, ip + FRAME_IPV6_DST,
	       FRAME_IPV6_ADDR_LEN);
	parse_l4(o, next, ip + FRAME_IPV6_HDR_LEN, len - FRAME_IPV6_HDR_LEN);
}

bool fw_rx_parse(const uint8_t *frame, size_t len,
		 uint8_t match[PRM_MATCH_PARAM_LEN])
{
	uint8_t *o = match + PRM_MATCH_OUTER_BYTE;
	size_t l3 = FRAME_ETH_HDR_LEN;
	unsigned int type, tci;

	memset(match, 0, PRM_MATCH_PARAM_LEN);
	if (len < FRAME_ETH_HDR_LEN)
		return false;
	prm_set(o, PRM_L24_DMAC_47_16, prm_be32_load(frame + FRAME_ETH_DMAC));
	prm_set(o, PRM_L24_DMAC_15_0, be16_at(frame + FRAME_ETH_DMAC + 4));
	prm_set(o, PRM_L24_SMAC_47_16, prm_be32_load(frame + FRAME_ETH_SMAC));
	prm_set(o, PRM_L24_SMAC_15_0, be16_at(frame + FRAME_ETH_SMAC + 4));
	type = be16_at(frame + FRAME_ETH_TYPE);
	if (type == FRAME_ETHERTYPE_CVLAN || type == FRAME_ETHERTYPE_SVLAN) {
		if (type == FRAME_ETHERTYPE_CVLAN)
			prm_set(o, PRM_L24_CVLAN_TAG, 1);
		else
			prm_set(o, PRM_L24_SVLAN_TAG, 1);
		if (len < FRAME_ETH_HDR_LEN + FRAME_VLAN_TAG_LEN)
			return true;
		tci = be16_at(frame + FRAME_ETH_TYPE + FRAME_VLAN_TCI);
		prm_set(o, PRM_L24_FIRST_PRIO, tci >> 13);
		prm_set(o, PRM_L24_FIRST_CFI, tci >> 12 & 1);
		prm_set(o, PRM_L24_FIRST_VID, tci & 0xfff);
		l3 += FRAME_VLAN_TAG_LEN;
		type = be16_at(frame + l3 - 2);
	}
	prm_set(o, PRM_L24_ETHERTYPE, type);
	if (type == FRAME_ETHERTYPE_IPV4)
		parse_ipv4(o, frame + l3, len - l3);
	else if (type == FRAME_ETHERTYPE_IPV6)
		parse_ipv6(o, frame + l3, len - l3);
	return true;
}
