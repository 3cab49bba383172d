// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the kernel's DEVX create and modify write into a command before
 * firmware sees it (devx_set_umem_valid(), devx_handle_mkey_create()):
 * the "lies in a UMEM" bit of every queue buffer and doorbell record the
 * command names, so user space can point a queue only at memory it
 * registered.  A DEVX object built for one kernel but not this rule (a
 * QP whose doorbell record is not in a UMEM) fails on a real kernel, so
 * the model must refuse it too.
 */
#include <errno.h>

#include "devx_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

struct umem_valid {
	uint16_t opcode;
	uint16_t bits[2];	/* bit offsets; 0 ends the list early */
};

static const struct umem_valid umem_valid[] = {
	{ PRM_OP_CREATE_CQ, { PRM_OFF(PRM_CQ_UMEM_VALID),
			      PRM_OFF(PRM_CQC_DBR_UMEM_VALID) } },
	{ PRM_OP_CREATE_QP, { PRM_OFF(PRM_QPC_DBR_UMEM_VALID),
			      PRM_OFF(PRM_QP_WQ_UMEM_VALID) } },
	/* RQ, SQ and RMP hold their work queue at the same offset */
	{ PRM_OP_CREATE_RQ, { PRM_OFF(PRM_WQ_DBR_UMEM_VALID),
			      PRM_OFF(PRM_WQ_UMEM_VALID) } },
	{ PRM_OP_CREATE_SQ, { PRM_OFF(PRM_WQ_DBR_UMEM_VALID),
			      PRM_OFF(PRM_WQ_UMEM_VALID) } },
	{ PRM_OP_CREATE_RMP, { PRM_OFF(PRM_WQ_DBR_UMEM_VALID),
			       PRM_OFF(PRM_WQ_UMEM_VALID) } },
	{ PRM_OP_CREATE_XRQ, { PRM_OFF(PRM_XRQ_WQ_DBR_UMEM_VALID),
			       PRM_OFF(PRM_XRQ_WQ_UMEM_VALID) } },
	{ PRM_OP_CREATE_XRC_SRQ, { PRM_OFF(PRM_XRC_SRQ_UMEM_VALID),
				   PRM_OFF(PRM_XRC_SRQC_DBR_UMEM_VALID) } },
	{ PRM_OP_MODIFY_CQ, { PRM_OFF(PRM_MODIFY_CQ_UMEM_VALID) } },
};

void devx_cmd_set_umem_valid(void *in, size_t inlen)
{
	uint16_t opcode;
	size_t i, j;

	if (!in || !prm_fits(inlen, PRM_HDR_OPCODE))
		return;
	opcode = prm_get(in, PRM_HDR_OPCODE);
	for (i = 0; i < sizeof(umem_valid) / sizeof(umem_valid[0]); i++) {
		if (umem_valid[i].opcode != opcode)
			continue;
		for (j = 0; j < 2 && umem_valid[i].bits[j]; j++)
			if (prm_fits(inlen, umem_valid[i].bits[j], 1))
				prm_set(in, umem_valid[i].bits[j], 1, 1);
		return;
	}
}

int devx_cmd_mkey_create(void *in, size_t inlen)
{
	uint32_t mode;

	if (!in || inlen < PRM_MKC_BYTE + PRM_MKC_LEN)
		return -EINVAL;
	mode = prm_get(in, PRM_MKC_ACCESS_MODE_4_2) << 2 |
	       prm_get(in, PRM_MKC_ACCESS_MODE_1_0);
	/* an indirect key's entries name other keys, not memory */
	if (mode != PRM_MKC_ACCESS_MODE_KLMS &&
	    mode != PRM_MKC_ACCESS_MODE_KSM)
		prm_set(in, PRM_MKEY_UMEM_VALID, 1);
	return 0;
}
