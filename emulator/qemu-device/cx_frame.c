// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: Ethernet, IPv4 and IPv6 headers as far as the device's
 * checksum offloads need them.  IPv6 extension headers are not walked
 * (a packet with one has no transport header here), nor are fragments
 * past the first (no transport header either): the device leaves their
 * checksums alone, as the driver expects of a frame it cannot parse.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"

#include "cx_frame.h"


void cx_frame_parse(const uint8_t *f, size_t len, struct cx_frame_hdrs *h)
{
	size_t l3 = FRAME_ETH_HDR_LEN;
	unsigned int type, proto;

	memset(h, 0, sizeof(*h));
	if (len < FRAME_ETH_HDR_LEN)
		return;
	type = lduw_be_p(f + FRAME_ETH_TYPE);
	if (type == FRAME_ETHERTYPE_CVLAN &&
	    len >= FRAME_ETH_HDR_LEN + FRAME_VLAN_TAG_LEN) {
		h->vlan = true;
		l3 += FRAME_VLAN_TAG_LEN;
		type = lduw_be_p(f + FRAME_ETH_TYPE + FRAME_VLAN_TAG_LEN);
	}
	if (type == FRAME_ETHERTYPE_IPV4 && len >= l3 + FRAME_IPV4_MIN_LEN &&
	    f[l3] >> 4 == 4) {
		size_t ihl = cx_ipv4_hdr_len(f + l3);

		if (ihl < FRAME_IPV4_MIN_LEN || len < l3 + ihl)
			return;
		h->l3 = l3;
		h->ip_version = 4;
		if (lduw_be_p(f + l3 + FRAME_IPV4_FRAG) &
		    FRAME_IPV4_MF_OFFSET_MASK)
			return;
		proto = f[l3 + FRAME_IPV4_PROTOCOL];
		h->l4 = l3 + ihl;
	} else if (type == FRAME_ETHERTYPE_IPV6 &&
		   len >= l3 + FRAME_IPV6_HDR_LEN && f[l3] >> 4 == 6) {
		h->l3 = l3;
		h->ip_version = 6;
		proto = f[l3 + FRAME_IPV6_NEXT_HEADER];
		h->l4 = l3 + FRAME_IPV6_HDR_LEN;
	} else {
		return;
	}
	if ((proto == FRAME_IPPROTO_UDP && len >= h->l4 + FRAME_UDP_HDR_LEN) ||
	    (proto == FRAME_IPPROTO_TCP && len >= h->l4 + FRAME_TCP_MIN_LEN))
		h->l4_proto = proto;
	else
		h->l4 = 0;
}

uint32_t cx_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	uint64_t acc = sum;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		acc += lduw_be_p(p + i);
	if (len & 1)
		acc += (uint32_t)p[len - 1] << 8;
	while (acc >> 32)
		acc = (acc & 0xffffffff) + (acc >> 32);
	return acc;
}

uint16_t cx_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

void cx_frame_csum_l3(uint8_t *f, const struct cx_frame_hdrs *h)
{
	size_t ihl;

	if (h->ip_version != 4)
		return;
	ihl = cx_ipv4_hdr_len(f + h->l3);	/* (parse saw all of it) */
	stw_be_p(f + h->l3 + FRAME_IPV4_CSUM, 0);
	stw_be_p(f + h->l3 + FRAME_IPV4_CSUM,
		 ~cx_csum_fold(cx_csum_add(0, f + h->l3, ihl)) & 0xffff);
}

/* The pseudo-header's sum: addresses, protocol, transport length. */
static uint32_t cx_pseudo_sum(const uint8_t *f, const struct cx_frame_hdrs *h,
			      size_t l4_len)
{
	uint32_t sum;

	if (h->ip_version == 4)
		sum = cx_csum_add(0, f + h->l3 + FRAME_IPV4_SRC,
				  2 * FRAME_IPV4_ADDR_LEN);
	else
		sum = cx_csum_add(0, f + h->l3 + FRAME_IPV6_SRC,
				  2 * FRAME_IPV6_ADDR_LEN);
	return sum + h->l4_proto + (uint32_t)l4_len;
}

/* Where the transport's bytes end: the IP packet's, not the padded
 * frame's; 0 when the lengths do not add up. */
static size_t cx_l4_end(const uint8_t *f, size_t len,
			const struct cx_frame_hdrs *h)
{
	size_t end;

	if (!h->l4_proto)
		return 0;
	if (h->ip_version == 4)
		end = h->l3 + lduw_be_p(f + h->l3 + FRAME_IPV4_TOTAL_LEN);
	else
		end = h->l4 + lduw_be_p(f + h->l3 + FRAME_IPV6_PAYLOAD_LEN);
	return end <= len && end > h->l4 ? end : 0;
}

static size_t cx_l4_csum_at(const struct cx_frame_hdrs *h)
{
	return h->l4 + (h->l4_proto == FRAME_IPPROTO_TCP ? FRAME_TCP_CSUM :
							FRAME_UDP_CSUM);
}

void cx_frame_csum_l4(uint8_t *f, size_t len, const struct cx_frame_hdrs *h)
{
	size_t end = cx_l4_end(f, len, h);
	uint16_t csum;

	if (!end)
		return;
	stw_be_p(f + cx_l4_csum_at(h), 0);
	csum = ~cx_csum_fold(cx_csum_add(cx_pseudo_sum(f, h, end - h->l4),
					 f + h->l4, end - h->l4));
	/* (UDP sends a computed 0 as all ones: 0 means no checksum) */
	if (!csum && h->l4_proto == FRAME_IPPROTO_UDP)
		csum = 0xffff;
	stw_be_p(f + cx_l4_csum_at(h), csum);
}

bool cx_frame_l4_ok(const uint8_t *f, size_t len,
		    const struct cx_frame_hdrs *h)
{
	size_t end = cx_l4_end(f, len, h);

	if (!end)
		return false;
	if (h->l4_proto == FRAME_IPPROTO_UDP && h->ip_version == 4 &&
	    !lduw_be_p(f + cx_l4_csum_at(h)))
		return true;
	return cx_csum_fold(cx_csum_add(cx_pseudo_sum(f, h, end - h->l4),
					f + h->l4, end - h->l4)) == 0xffff;
}
