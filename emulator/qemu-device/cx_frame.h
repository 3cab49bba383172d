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

#include "fw_frame.h"


struct cx_frame_hdrs {
	size_t l3;		/* offset of the IP header, 0: none */
	size_t l4;		/* offset of the TCP/UDP header, 0: none */
	unsigned int ip_version;	/* 4, 6 or 0 */
	unsigned int l4_proto;	/* FRAME_IPPROTO_TCP, _UDP or 0 */
	bool vlan;		/* one 802.1Q tag after the addresses */
};

/* An IPv4 header's length: its IHL, in 32-bit words. */
static inline size_t cx_ipv4_hdr_len(const uint8_t *ip)
{
	return (size_t)(ip[FRAME_IPV4_VER_IHL] & 0xf) * 4;
}

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
