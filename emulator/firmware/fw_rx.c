// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * emu_fw_rx_steer(): a frame the port received, parsed, looked up in
 * the NIC RX steering and dispatched by the TIR it reaches to an RQ,
 * which must be ready (RDY) to receive; a frame too short for an
 * Ethernet header is a runt the port drops before any lookup.  With
 * tracing on, each frame's fate is one line.
 */
#include "fw_internal.h"

static void trace_rx(struct emu_fw *fw, size_t len, const char *why,
		     const struct emu_fw_rx *rx)
{
	if (!fw->trace)
		return;
	fprintf(fw->trace, "mlx5-emu fw %04x: rx %zu bytes: ", fw->vhca_id,
		len);
	if (why)
		fprintf(fw->trace, "dropped: %s\n", why);
	else
		fprintf(fw->trace, "rq 0x%x hash 0x%08x flow_tag 0x%x\n",
			rx->rqn, rx->hash, rx->flow_tag);
	fflush(fw->trace);
}

/* Whether a parsed frame reaches a ready RQ (*rx), else *why not. */
static bool steer(struct emu_fw *fw, const uint8_t *match, size_t len,
		  struct emu_fw_rx *rx, const char **why)
{
	struct fw_obj *tir, *rq;

	tir = fw_rx_lookup(fw, match, len, &rx->flow_tag, why);
	if (!tir)
		return false;
	rx->rqn = fw_rx_tir_rq(fw, tir, match, &rx->hash);
	rq = fw_obj_find(fw, FW_OBJ_RQ, rx->rqn);
	if (!rq) {
		*why = "TIR without an RQ";
		return false;
	}
	if (fw_ctx_field(rq->data, PRM_WQC_STATE) != PRM_WQ_STATE_RDY) {
		*why = "RQ not ready";
		return false;
	}
	return true;
}

bool emu_fw_rx_steer(struct emu_fw *fw, const void *frame, size_t len,
		     struct emu_fw_rx *rx)
{
	uint8_t match[PRM_MATCH_PARAM_LEN];
	struct emu_fw_rx got = { 0 };
	const char *why = NULL;
	bool ok;

	if (!fw)
		return false;
	pthread_mutex_lock(&fw->lock);
	if (!frame || !fw_rx_parse(frame, len, match)) {
		why = "runt frame";
		ok = false;
	} else {
		ok = steer(fw, match, len, &got, &why);
	}
	trace_rx(fw, len, ok ? NULL : why, &got);
	pthread_mutex_unlock(&fw->lock);
	if (ok && rx)
		*rx = got;
	return ok;
}
