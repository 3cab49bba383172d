// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the frame of a send WQE.  After the control segment comes the
 * Ethernet segment: the checksum offloads asked for, then either a VLAN
 * tag to insert or the first bytes of the frame inline (their length,
 * then the bytes, from the segment's last two onwards); then data
 * segments, each a length and the bus address of that many bytes (the
 * driver's memory key is the physical-address one, so addresses are
 * used as they are), or inline data.  The frame is padded to the
 * shortest Ethernet frame, its checksums written, counted on the vport
 * and put on the cable.  An LSO WQE's TCP payload is cut into frames
 * of the segment's MSS, each with the headers, its IP length and
 * identification, TCP sequence number and flags made right (FIN and
 * PSH on the last only, CWR on the first only) and its checksums.  A
 * WQE that does not add up (a length past the WQE or past what a frame
 * or an LSO send may hold) sends nothing; it still completes, as the
 * driver waits for that.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/pci/pci.h"

#include "cx_wq.h"
#include "cx_frame.h"
#include "prm_device.h"

static bool cx_tx_append(uint8_t *frame, size_t *len, const void *p,
			 size_t n)
{
	if (n > CX_MAX_LSO - *len)
		return false;
	memcpy(frame + *len, p, n);
	*len += n;
	return true;
}

static bool cx_tx_gather(CxState *s, uint8_t *frame, size_t *len,
			 uint64_t addr, size_t n)
{
	if (n > CX_MAX_LSO - *len)
		return false;
	pci_dma_read(PCI_DEVICE(s), addr, frame + *len, n);
	*len += n;
	return true;
}

/* The frame of WQE wqe (ds 16-byte segments), in frame; false: none. */
static bool cx_tx_build(CxState *s, const uint8_t *wqe, unsigned int ds,
			uint8_t *frame, size_t *len, uint8_t *cs_flags)
{
	const uint8_t *eseg = wqe + PRM_WQE_DS_LEN;
	size_t end = (size_t)ds * PRM_WQE_DS_LEN;
	size_t at, inl = 0;
	uint16_t word = lduw_be_p(eseg + PRM_ESEG_INLINE_SZ);
	uint8_t tag[FRAME_VLAN_TAG_LEN];

	*len = 0;
	if (ds < 2)
		return false;
	*cs_flags = eseg[PRM_ESEG_CS_FLAGS];
	if (!(word & PRM_ESEG_INSERT_VLAN)) {
		inl = word;
		if (PRM_WQE_DS_LEN + PRM_ESEG_INLINE_START + inl > end ||
		    !cx_tx_append(frame, len, eseg + PRM_ESEG_INLINE_START,
				  inl))
			return false;
	}
	/* the inline bytes past the segment's own two fill whole segments */
	at = 2 * PRM_WQE_DS_LEN +
	     ROUND_UP(inl > 2 ? inl - 2 : 0, PRM_WQE_DS_LEN);
	for (; at + PRM_WQE_DS_LEN <= end; at += PRM_WQE_DS_LEN) {
		uint32_t bc = ldl_be_p(wqe + at);

		if (bc & PRM_DSEG_INLINE) {
			bc &= PRM_DSEG_INLINE_LEN_MASK;
			if (at + PRM_DSEG_INLINE_DATA + bc > end ||
			    !cx_tx_append(frame, len,
					  wqe + at + PRM_DSEG_INLINE_DATA, bc))
				return false;
			at += ROUND_UP(PRM_DSEG_INLINE_DATA + bc,
				       PRM_WQE_DS_LEN) -
			      PRM_WQE_DS_LEN;
			continue;
		}
		if (bc && !cx_tx_gather(s, frame, len,
					ldq_be_p(wqe + at + PRM_DSEG_ADDR),
					bc))
			return false;
	}
	if (word & PRM_ESEG_INSERT_VLAN) {
		if (*len < FRAME_ETH_TYPE ||
		    *len + FRAME_VLAN_TAG_LEN > CX_MAX_LSO)
			return false;
		stw_be_p(tag, word & PRM_ESEG_INSERT_SVLAN ?
			 FRAME_ETHERTYPE_SVLAN : FRAME_ETHERTYPE_CVLAN);
		stw_be_p(tag + FRAME_VLAN_TCI,
			 lduw_be_p(eseg + PRM_ESEG_VLAN_TCI));
		memmove(frame + FRAME_ETH_TYPE + FRAME_VLAN_TAG_LEN,
			frame + FRAME_ETH_TYPE, *len - FRAME_ETH_TYPE);
		memcpy(frame + FRAME_ETH_TYPE, tag, FRAME_VLAN_TAG_LEN);
		*len += FRAME_VLAN_TAG_LEN;
	}
	return *len >= FRAME_ETH_HDR_LEN;
}

/* Pads, checksums, counts and sends one frame. */
static void cx_tx_frame(CxState *s, uint8_t *frame, size_t len,
			uint8_t cs_flags)
{
	struct cx_frame_hdrs h;

	if (len > CX_MAX_FRAME) {
		cx_frame_dropped(s, "sent longer than a frame");
		return;
	}
	if (len < FRAME_ETH_MIN_LEN) {
		memset(frame + len, 0, FRAME_ETH_MIN_LEN - len);
		len = FRAME_ETH_MIN_LEN;
	}
	cx_frame_parse(frame, len, &h);
	if (cs_flags & PRM_ESEG_CS_L3)
		cx_frame_csum_l3(frame, &h);
	if (cs_flags & PRM_ESEG_CS_L4)
		cx_frame_csum_l4(frame, len, &h);
	emu_fw_vport_count(s->fw, false, frame, len);
	cx_port_xmit(s, frame, len);
}


/* Cuts an LSO WQE's frame (headers, then the whole payload) at mss. */
static void cx_tx_lso(CxState *s, const uint8_t *big, size_t len,
		      unsigned int mss, uint8_t cs_flags)
{
	uint8_t *seg = s->tx_seg;
	struct cx_frame_hdrs h;
	size_t hdr, off, n;
	unsigned int i;
	uint16_t flags;

	cx_frame_parse(big, len, &h);
	if (h.l4_proto != FRAME_IPPROTO_TCP || !mss) {
		cx_frame_dropped(s, "LSO of no TCP segment, or MSS 0");
		return;
	}
	flags = lduw_be_p(big + h.l4 + FRAME_TCP_FLAGS);
	hdr = h.l4 + (flags >> FRAME_TCP_DOFF_SHIFT) * 4;
	if (hdr > len || hdr + mss > CX_MAX_FRAME) {
		cx_frame_dropped(s, "LSO segments longer than a frame");
		return;
	}
	for (i = 0, off = hdr; off < len; i++, off += n) {
		n = MIN((size_t)mss, len - off);
		memcpy(seg, big, hdr);
		memcpy(seg + hdr, big + off, n);
		if (h.ip_version == 4) {
			stw_be_p(seg + h.l3 + FRAME_IPV4_TOTAL_LEN,
				 hdr - h.l3 + n);
			stw_be_p(seg + h.l3 + FRAME_IPV4_ID,
				 lduw_be_p(big + h.l3 + FRAME_IPV4_ID) + i);
		} else {
			stw_be_p(seg + h.l3 + FRAME_IPV6_PAYLOAD_LEN,
				 hdr - h.l4 + n);
		}
		stl_be_p(seg + h.l4 + FRAME_TCP_SEQ,
			 ldl_be_p(big + h.l4 + FRAME_TCP_SEQ) +
			 (uint32_t)(off - hdr));
		/* FIN and PSH on the last segment only, CWR on the first */
		stw_be_p(seg + h.l4 + FRAME_TCP_FLAGS, flags &
			 ~(off + n < len ? FRAME_TCP_FIN | FRAME_TCP_PSH : 0) &
			 ~(i ? FRAME_TCP_CWR : 0));
		/* (every segment's checksums are the device's to write) */
		cx_tx_frame(s, seg, hdr + n,
			    cs_flags | PRM_ESEG_CS_L3 | PRM_ESEG_CS_L4);
	}
}

void cx_tx_wqe(CxState *s, uint32_t sqn, const struct cx_wq *sq,
	       uint16_t index, unsigned int ds, bool lso)
{
	uint8_t wqe[PRM_WQE_CTRL_DS_MASK * PRM_WQE_DS_LEN];
	uint8_t *frame = s->tx_buf;
	size_t len, done;
	uint8_t cs_flags = 0;
	unsigned int bb;

	/* the WQE's basic blocks, each where the ring has it */
	for (bb = 0, done = 0; done < (size_t)ds * PRM_WQE_DS_LEN;
	     bb++, done += PRM_WQE_BB) {
		uint64_t addr = cx_ring_entry(&sq->ring, index + bb);

		if (!addr)
			return;
		pci_dma_read(PCI_DEVICE(s), addr, wqe + done,
			     MIN((size_t)PRM_WQE_BB, sizeof(wqe) - done));
	}
	if (!cx_tx_build(s, wqe, ds, frame, &len, &cs_flags)) {
		if (s->trace)
			fprintf(stderr, "mlx5-cx: sq 0x%x wqe %u: no frame\n",
				sqn, index);
		return;
	}
	if (lso)
		cx_tx_lso(s, frame, len,
			  lduw_be_p(wqe + PRM_WQE_DS_LEN + PRM_ESEG_MSS),
			  cs_flags);
	else
		cx_tx_frame(s, frame, len, cs_flags);
}
