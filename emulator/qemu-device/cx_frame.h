/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-cx: what the device itself reads in an Ethernet frame: where its
 * IP and transport headers start, for the checksums it computes on send
 * (the offloads the driver asks for in a WQE's Ethernet segment) and the
 * header types and checksum it reports in a receive CQE.  Steering reads
 * the frame separately, in the firmware model.
 */
#ifndef MLX5_CX_FRAME_H
#define MLX5_CX_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CX_ETH_HLEN 14
#define CX_ETH_ZLEN 60		/* the shortest frame a port sends */
#define CX_ETH_FCS_LEN 4
#define CX_VLAN_HLEN 4
#define CX_ETHERTYPE_VLAN 0x8100
#define CX_ETHERTYPE_IPV4 0x0800
#define CX_ETHERTYPE_IPV6 0x86dd
#define CX_IPPROTO_TCP 6
#define CX_IPPROTO_UDP 17

struct cx_frame_hdrs {
	size_t l3;		/* offset of the IP header, 0: none */
	size_t l4;		/* offset of the TCP/UDP header, 0: none */
	unsigned int ip_version;	/* 4, 6 or 0 */
	unsigned int l4_proto;	/* CX_IPPROTO_TCP, _UDP or 0 */
	bool vlan;		/* one 802.1Q tag after the addresses */
};

/* Reads the headers of frame (len bytes); what is absent or cut short
 * is left 0. */
void cx_frame_parse(const uint8_t *frame, size_t len,
		    struct cx_frame_hdrs *h);

/* The ones' complement sum of len bytes as big-endian 16-bit words,
 * added to sum (not folded). */
uint32_t cx_csum_add(uint32_t sum, const uint8_t *p, size_t len);
uint16_t cx_csum_fold(uint32_t sum);

/* Writes the IPv4 header checksum (cs_flags' L3) and the TCP or UDP
 * checksum with its pseudo-header (L4), as an offloading device does. */
void cx_frame_csum_l3(uint8_t *frame, const struct cx_frame_hdrs *h);
void cx_frame_csum_l4(uint8_t *frame, size_t len,
		      const struct cx_frame_hdrs *h);

/* Whether the TCP or UDP checksum is right (an IPv4 UDP datagram may
 * carry none). */
bool cx_frame_l4_ok(const uint8_t *frame, size_t len,
		    const struct cx_frame_hdrs *h);

#endif
