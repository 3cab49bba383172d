// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the receive side of the data path.  A frame from the cable
 * is counted on the vport and steered by the firmware model (the NIC RX
 * flow tables, TIRs and RQTs the driver made) to an RQ, or dropped
 * there.  The RQ's doorbell record says how many receive WQEs the
 * driver posted; with none left the frame is dropped and counted as
 * out of buffer on the RQ's Q counter, as hardware does.  Otherwise the
 * frame (its VLAN tag stripped to the CQE unless the RQ disabled that)
 * is written across the WQE's data segments and a CQE tells its length,
 * the WQE, the header types, the checksum of everything from the IP
 * header on (the driver's CHECKSUM_COMPLETE) and which checksums the
 * device found good, and the RSS hash.  A frame longer than the WQE's
 * buffers is dropped, its WQE left for the next.  Only cyclic RQs made
 * on page lists receive (mlx5e's legacy RQ; striding RQs are not
 * offered in the capabilities).
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "hw/pci/pci.h"

#include "cx_wq.h"
#include "cx_frame.h"
#include "prm_device.h"

/* A receive WQE's data segments the device reads at most. */
#define CX_RX_MAX_SEGS 16

/* Strips an 802.1Q tag into *tci; false when the frame has none. */
static bool cx_rx_strip_vlan(uint8_t *frame, size_t *len, uint16_t *tci)
{
	if (*len < FRAME_ETH_HDR_LEN + FRAME_VLAN_TAG_LEN ||
	    lduw_be_p(frame + FRAME_ETH_TYPE) != FRAME_ETHERTYPE_CVLAN)
		return false;
	*tci = lduw_be_p(frame + FRAME_ETH_TYPE + FRAME_VLAN_TCI);
	memmove(frame + FRAME_ETH_TYPE,
		frame + FRAME_ETH_TYPE + FRAME_VLAN_TAG_LEN,
		*len - FRAME_ETH_TYPE - FRAME_VLAN_TAG_LEN);
	*len -= FRAME_VLAN_TAG_LEN;
	return true;
}

/* The checksum fields and header types of a receive CQE. */
static void cx_rx_cqe_csum(uint8_t *cqe, const uint8_t *frame, size_t len)
{
	struct cx_frame_hdrs h;
	uint8_t ok = PRM_CQE_L2_OK, types = 0;
	size_t from;

	cx_frame_parse(frame, len, &h);
	from = h.l3 ? h.l3 : FRAME_ETH_HDR_LEN;
	stw_be_p(cqe + PRM_CQE_CHECK_SUM,
		 cx_csum_fold(cx_csum_add(0, frame + from, len - from)));
	if (h.ip_version == 4) {
		types |= PRM_CQE_L3_IPV4 << PRM_CQE_L3_SHIFT;
		if (cx_csum_fold(cx_csum_add(0, frame + h.l3,
					     cx_ipv4_hdr_len(frame + h.l3))) ==
		    0xffff)
			ok |= PRM_CQE_L3_OK;
	} else if (h.ip_version == 6) {
		types |= PRM_CQE_L3_IPV6 << PRM_CQE_L3_SHIFT;
		ok |= PRM_CQE_L3_OK;
	}
	if (h.l4_proto) {
		types |= (h.l4_proto == FRAME_IPPROTO_TCP ?
			  PRM_CQE_L4_TCP : PRM_CQE_L4_UDP) << PRM_CQE_L4_SHIFT;
		if (cx_frame_l4_ok(frame, len, &h))
			ok |= PRM_CQE_L4_OK;
	}
	cqe[PRM_CQE_HDS_IP_EXT] = ok;
	cqe[PRM_CQE_L4_L3_HDR_TYPE] |= types;
	if (h.ip_version)
		cqe[PRM_CQE_RSS_HASH_TYPE] = h.ip_version == 4 ?
			PRM_CQE_RSS_IPV4 : PRM_CQE_RSS_IPV6;
	if (h.l4_proto)
		cqe[PRM_CQE_RSS_HASH_TYPE] |= h.l4_proto == FRAME_IPPROTO_TCP ?
			PRM_CQE_RSS_TCP : PRM_CQE_RSS_UDP;
}

/* Writes the frame across the WQE's segments; false when it is longer. */
static bool cx_rx_scatter(CxState *s, const struct cx_wq *rq, uint64_t wqe,
			  const uint8_t *frame, size_t len)
{
	unsigned int nsegs = MIN(CX_RX_MAX_SEGS,
				 (1u << rq->ring.log_stride) / PRM_WQE_DS_LEN);
	uint8_t segs[CX_RX_MAX_SEGS * PRM_WQE_DS_LEN];
	size_t room = 0, done = 0;
	unsigned int i;

	pci_dma_read(PCI_DEVICE(s), wqe, segs, nsegs * PRM_WQE_DS_LEN);
	for (i = 0; i < nsegs; i++)
		room += ldl_be_p(segs + i * PRM_WQE_DS_LEN);
	if (room < len)
		return false;
	for (i = 0; i < nsegs && done < len; i++) {
		const uint8_t *seg = segs + i * PRM_WQE_DS_LEN;
		size_t n = MIN((size_t)ldl_be_p(seg), len - done);

		pci_dma_write(PCI_DEVICE(s), ldq_be_p(seg + PRM_DSEG_ADDR),
			      frame + done, n);
		done += n;
	}
	return true;
}

void cx_rx_frame(CxState *s, const uint8_t *in, size_t len)
{
	uint8_t *frame = s->rx_buf;	/* a copy: stripping a tag edits it */
	uint8_t cqe[PRM_CQE_LEN] = { 0 };
	struct emu_fw_rx rx;
	struct cx_wq *rq;
	uint32_t rec = 0;
	uint16_t tci;
	uint64_t wqe;

	if (len > CX_MAX_FRAME) {
		cx_frame_dropped(s, "received longer than a frame");
		return;
	}
	memcpy(frame, in, len);
	emu_fw_vport_count(s->fw, true, frame, len);
	/* (the firmware traces why it drops; it delivers only to a ready
	 * RQ) */
	if (!emu_fw_rx_steer(s->fw, frame, len, &rx))
		return;
	rq = g_hash_table_lookup(s->rqs, GUINT_TO_POINTER(rx.rqn));
	if (!rq) {
		cx_frame_dropped(s, "RQ not on a page list");
		return;
	}
	pci_dma_read(PCI_DEVICE(s), rq->ring.dbr + PRM_RQ_DBR_RECV, &rec,
		     sizeof(rec));
	if ((uint16_t)be32_to_cpu(rec) == rq->consumer) {
		emu_fw_rq_out_of_buffer(s->fw, rx.rqn);
		cx_frame_dropped(s, "out of receive WQEs");
		return;
	}
	wqe = cx_ring_entry(&rq->ring, rq->consumer);
	if (rq->strip_vlan && cx_rx_strip_vlan(frame, &len, &tci)) {
		cqe[PRM_CQE_L4_L3_HDR_TYPE] = PRM_CQE_VLAN_STRIPPED;
		stw_be_p(cqe + PRM_CQE_VLAN_INFO, tci);
	}
	if (!wqe || !cx_rx_scatter(s, rq, wqe, frame, len)) {
		cx_frame_dropped(s, "longer than the receive WQE's buffers");
		return;
	}
	cx_rx_cqe_csum(cqe, frame, len);
	stl_be_p(cqe + PRM_CQE_RSS_HASH, rx.hash);
	stl_be_p(cqe + PRM_CQE_FLOW_TAG, rx.flow_tag & 0xffffff);
	stl_be_p(cqe + PRM_CQE_BYTE_CNT, len);
	stw_be_p(cqe + PRM_CQE_WQE_COUNTER, rq->consumer);
	cqe[PRM_CQE_OP_OWN] = PRM_CQE_RESP_SEND << PRM_CQE_OPCODE_SHIFT;
	if (s->trace)
		fprintf(stderr, "mlx5-cx: rx %zu bytes to rq 0x%x wqe %u\n",
			len, rx.rqn, rq->consumer);
	rq->consumer++;
	if (!cx_cq_post(s, rq->cqn, cqe))
		cx_frame_dropped(s, "its CQ is full");
}
