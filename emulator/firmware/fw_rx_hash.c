// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RSS hash of an indirect TIR: its rx_hash_fn over the outer header
 * fields its rx_hash_field_selector_outer selects, taken from a parsed
 * frame (fw_rx_parse()).  The hash input is the selected fields in the
 * order source IP, destination IP, source port, destination port, each
 * in network byte order (the Microsoft RSS specification's order).  A
 * field the packet does not have as the TIR expects it (IP fields of an
 * IPv6 packet at a TIR hashing IPv4, ports of a TCP packet at a TIR
 * hashing UDP, ports of a fragment) is left out of the input, so such a
 * packet still hashes, on what it has.
 *
 * Toeplitz is the specification's: for each input bit that is set, the
 * 32 key bits starting at that bit's position are XORed into the
 * result.  Inverted XOR8 is the complement of the XOR of the input
 * bytes (8 bits).  rx_hash_symmetric is not modelled: the hash is
 * computed as if it were clear.
 */
#include <string.h>

#include "fw_frame.h"
#include "fw_internal.h"

/* The longest input: two IPv6 addresses and two ports. */
#define HASH_INPUT_MAX (2 * PRM_L24_IP_LEN + 4)

static size_t put16(uint8_t *in, size_t n, uint32_t v)
{
	in[n] = v >> 8;
	in[n + 1] = v;
	return n + 2;
}

/* The bytes of the selected fields the packet has (outer section o). */
static size_t hash_input(const uint8_t *ctx, const uint8_t *o, uint8_t *in)
{
	uint32_t sel = fw_ctx_field(ctx, PRM_TIRC_HASH_OUTER_FIELDS);
	bool v6 = fw_ctx_field(ctx, PRM_TIRC_HASH_OUTER_L3_IPV6);
	bool udp = fw_ctx_field(ctx, PRM_TIRC_HASH_OUTER_L4_UDP);
	unsigned int ipv = prm_get(o, PRM_L24_IP_VERSION);
	unsigned int proto = prm_get(o, PRM_L24_IP_PROTOCOL);
	size_t at = v6 ? 0 : PRM_L24_IPV4_AT;
	size_t alen = PRM_L24_IP_LEN - at;
	bool ports = !prm_get(o, PRM_L24_FRAG) &&
		     proto == (udp ? FRAME_IPPROTO_UDP : FRAME_IPPROTO_TCP);
	size_t n = 0;

	if (ipv != (v6 ? 6 : 4))
		return 0;
	if (sel & PRM_HASH_FIELD_SRC_IP) {
		memcpy(in + n, o + PRM_L24_SRC_IP_BYTE + at, alen);
		n += alen;
	}
	if (sel & PRM_HASH_FIELD_DST_IP) {
		memcpy(in + n, o + PRM_L24_DST_IP_BYTE + at, alen);
		n += alen;
	}
	if (ports && sel & PRM_HASH_FIELD_L4_SPORT)
		n = put16(in, n, udp ? prm_get(o, PRM_L24_UDP_SPORT)
				     : prm_get(o, PRM_L24_TCP_SPORT));
	if (ports && sel & PRM_HASH_FIELD_L4_DPORT)
		n = put16(in, n, udp ? prm_get(o, PRM_L24_UDP_DPORT)
				     : prm_get(o, PRM_L24_TCP_DPORT));
	return n;
}

static uint32_t toeplitz(const uint8_t *key, const uint8_t *in, size_t n)
{
	/* the key's 32 bits at the current input bit, and the next byte */
	uint32_t window = prm_be32_load(key);
	uint32_t hash = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		uint8_t next = i + 4 < PRM_TIRC_TOEPLITZ_KEY_LEN ? key[i + 4]
								 : 0;

		for (b = 7; b >= 0; b--) {
			if (in[i] >> b & 1)
				hash ^= window;
			window = window << 1 | (next >> b & 1);
		}
	}
	return hash;
}

uint32_t fw_rx_hash(const uint8_t *tir_ctx, const uint8_t *match)
{
	uint8_t in[HASH_INPUT_MAX];
	size_t n = hash_input(tir_ctx, match + PRM_MATCH_OUTER_BYTE, in);
	uint8_t x = 0;
	size_t i;

	switch (fw_ctx_field(tir_ctx, PRM_TIRC_RX_HASH_FN)) {
	case PRM_RX_HASH_FN_TOEPLITZ:
		return toeplitz(tir_ctx + PRM_TIRC_TOEPLITZ_KEY_BYTE -
					PRM_OBJ_CTX_BYTE,
				in, n);
	case PRM_RX_HASH_FN_INVERTED_XOR8:
		for (i = 0; i < n; i++)
			x ^= in[i];
		return (uint8_t)~x;
	default:
		return 0;
	}
}
