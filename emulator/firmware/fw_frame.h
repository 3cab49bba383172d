/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the headers of a frame on the wire hold, as IEEE 802.3, 802.1Q,
 * RFC 791 (IPv4), RFC 8200 (IPv6), RFC 9293 (TCP) and RFC 768 (UDP) lay
 * them out: byte offsets within each header, for the receive parser, the
 * device's send and receive sides (emulator/qemu-device) and tests that
 * build frames.
 */
#ifndef MLX5_EMU_FW_FRAME_H
#define MLX5_EMU_FW_FRAME_H

enum {
	/* Ethernet II: destination, source, EtherType */
	FRAME_ETH_DMAC = 0,
	FRAME_ETH_SMAC = 6,
	FRAME_ETH_TYPE = 12,
	FRAME_ETH_HDR_LEN = 14,
	FRAME_ETH_MIN_LEN = 60,	/* the shortest a port sends, without FCS */
	FRAME_MAC_LEN = 6,
	/* an 802.1Q tag: the TPID where the EtherType was, then the TCI */
	FRAME_VLAN_TCI = 2,
	FRAME_VLAN_TAG_LEN = 4,

	FRAME_ETHERTYPE_IPV4 = 0x0800,
	FRAME_ETHERTYPE_ARP = 0x0806,
	FRAME_ETHERTYPE_CVLAN = 0x8100,
	FRAME_ETHERTYPE_SVLAN = 0x88a8,
	FRAME_ETHERTYPE_IPV6 = 0x86dd,

	/* IPv4 */
	FRAME_IPV4_VER_IHL = 0,
	FRAME_IPV4_TOS = 1,
	FRAME_IPV4_TOTAL_LEN = 2,
	FRAME_IPV4_ID = 4,
	FRAME_IPV4_FRAG = 6,	/* flags (DF, MF) and the fragment offset */
	FRAME_IPV4_TTL = 8,
	FRAME_IPV4_PROTOCOL = 9,
	FRAME_IPV4_CSUM = 10,
	FRAME_IPV4_SRC = 12,
	FRAME_IPV4_DST = 16,
	FRAME_IPV4_MIN_LEN = 20,
	FRAME_IPV4_ADDR_LEN = 4,
	FRAME_IPV4_MF_OFFSET_MASK = 0x3fff,	/* more fragments, offset */

	/* IPv6 */
	FRAME_IPV6_PAYLOAD_LEN = 4,
	FRAME_IPV6_NEXT_HEADER = 6,
	FRAME_IPV6_HOP_LIMIT = 7,
	FRAME_IPV6_SRC = 8,
	FRAME_IPV6_DST = 24,
	FRAME_IPV6_HDR_LEN = 40,
	FRAME_IPV6_ADDR_LEN = 16,
	FRAME_IPV6_NEXT_FRAGMENT = 44,

	/* TCP and UDP: the ports first; TCP's flags in bytes 12..13 */
	FRAME_L4_SPORT = 0,
	FRAME_L4_DPORT = 2,
	FRAME_TCP_SEQ = 4,
	FRAME_TCP_FLAGS = 12,	/* the low 9 bits of these 16 */
	FRAME_TCP_DOFF_SHIFT = 12,	/* their top 4: the header's words */
	FRAME_TCP_FIN = 1 << 0,
	FRAME_TCP_PSH = 1 << 3,
	FRAME_TCP_CWR = 1 << 7,
	FRAME_TCP_CSUM = 16,
	FRAME_TCP_MIN_LEN = 20,
	FRAME_UDP_CSUM = 6,
	FRAME_UDP_HDR_LEN = 8,

	FRAME_IPPROTO_TCP = 6,
	FRAME_IPPROTO_UDP = 17,
};

#endif
