// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Random mailboxes (fixed seed, so every run is the same): whatever a
 * client sends, the model answers with a status from the PRM's list, a
 * failed command carries a syndrome and nothing else, reads stay inside
 * the mailboxes (valgrind and ASan watch), and freeing the device
 * releases every object the random commands made.
 */
#include <stdlib.h>

#include "check.h"
#include "fw_test_util.h"

static uint32_t rnd_state = 0x2545f491;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static const uint16_t modelled[] = {
	PRM_OP_QUERY_HCA_CAP, PRM_OP_QUERY_ISSI, PRM_OP_NOP,
	PRM_OP_QUERY_VPORT_STATE, PRM_OP_QUERY_NIC_VPORT_CONTEXT,
	PRM_OP_QUERY_ESW_VPORT_CONTEXT, PRM_OP_QUERY_HCA_VPORT_CONTEXT,
	PRM_OP_QUERY_LAG, PRM_OP_CREATE_UCTX, PRM_OP_DESTROY_UCTX,
	PRM_OP_ALLOC_PD, PRM_OP_DEALLOC_PD, PRM_OP_ALLOC_TRANSPORT_DOMAIN,
	PRM_OP_DEALLOC_TRANSPORT_DOMAIN, PRM_OP_ALLOC_XRCD,
	PRM_OP_DEALLOC_XRCD, PRM_OP_ALLOC_FLOW_COUNTER,
	PRM_OP_DEALLOC_FLOW_COUNTER, PRM_OP_QUERY_FLOW_COUNTER,
	PRM_OP_CREATE_GENERAL_OBJECT, PRM_OP_MODIFY_GENERAL_OBJECT,
	PRM_OP_QUERY_GENERAL_OBJECT, PRM_OP_DESTROY_GENERAL_OBJECT,
	PRM_OP_CREATE_UMEM, PRM_OP_DESTROY_UMEM, PRM_OP_CREATE_CQ,
	PRM_OP_QUERY_CQ, PRM_OP_DESTROY_CQ,
	PRM_OP_CREATE_TIR, PRM_OP_MODIFY_TIR, PRM_OP_QUERY_TIR,
	PRM_OP_DESTROY_TIR, PRM_OP_CREATE_TIS, PRM_OP_MODIFY_TIS,
	PRM_OP_QUERY_TIS, PRM_OP_DESTROY_TIS, PRM_OP_CREATE_RQ,
	PRM_OP_MODIFY_RQ, PRM_OP_QUERY_RQ, PRM_OP_DESTROY_RQ,
	PRM_OP_CREATE_SQ, PRM_OP_MODIFY_SQ, PRM_OP_QUERY_SQ,
	PRM_OP_DESTROY_SQ, PRM_OP_CREATE_RQT, PRM_OP_MODIFY_RQT,
	PRM_OP_QUERY_RQT, PRM_OP_DESTROY_RQT, PRM_OP_CREATE_FLOW_TABLE,
	PRM_OP_MODIFY_FLOW_TABLE, PRM_OP_QUERY_FLOW_TABLE,
	PRM_OP_DESTROY_FLOW_TABLE, PRM_OP_CREATE_FLOW_GROUP,
	PRM_OP_QUERY_FLOW_GROUP, PRM_OP_DESTROY_FLOW_GROUP,
	PRM_OP_SET_FLOW_TABLE_ENTRY, PRM_OP_QUERY_FLOW_TABLE_ENTRY,
	PRM_OP_DELETE_FLOW_TABLE_ENTRY, PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT,
	PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT,
	PRM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT,
	PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT,
	PRM_OP_DEALLOC_MODIFY_HEADER_CONTEXT,
};

static bool known_status(int st)
{
	switch (st) {
	case EMU_FW_STATUS_OK:
	case EMU_FW_STATUS_BAD_OP:
	case EMU_FW_STATUS_BAD_PARAM:
	case EMU_FW_STATUS_RES_BUSY:
	case EMU_FW_STATUS_EXCEED_LIM:
	case EMU_FW_STATUS_BAD_RES_STATE:
	case EMU_FW_STATUS_NO_RESOURCES:
	case EMU_FW_STATUS_BAD_INPUT_LEN:
	case EMU_FW_STATUS_BAD_OUTPUT_LEN:
		return true;
	default:
		return false;
	}
}

static bool zero_from(const uint8_t *p, size_t from, size_t len)
{
	size_t i;

	for (i = from; i < len; i++)
		if (p[i])
			return false;
	return true;
}

int main(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);
	unsigned int ok = 0, bad_status = 0, bad_fail = 0, bad_exec = 0;
	uint16_t uids[4] = { 0 };
	struct mbox *m = malloc(sizeof(*m));
	unsigned int i, j;

	REQUIRE(fw && m);
	for (i = 1; i < 4; i++)
		uids[i] = make_uctx(fw);

	for (i = 0; i < 20000; i++) {
		size_t nmod = sizeof(modelled) / sizeof(modelled[0]);
		uint16_t opcode = rnd() % 8 ? modelled[rnd() % nmod]
					    : (uint16_t)rnd();
		size_t inlen = 16 + rnd() % (sizeof(m->in) - 15);
		size_t outlen = 16 + rnd() % (sizeof(m->out) - 15);
		int st;

		/* Small numbers, so ids often name live objects. */
		mbox_init(m, opcode, uids[rnd() % 4], rnd() % 4);
		for (j = 4; j < inlen; j++)
			m->in[j] = rnd() % 3 ? 0 : (uint8_t)(rnd() % 4);
		if (rnd() % 2)
			prm_set(m->in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
		if (opcode == PRM_OP_QUERY_HCA_CAP && rnd() % 2)
			outlen = PRM_QUERY_HCA_CAP_OUT_LEN;

		if (emu_fw_exec(fw, m->in, inlen, m->out, outlen)) {
			bad_exec++;
			continue;
		}
		st = prm_get(m->out, PRM_OUT_STATUS);
		if (!known_status(st))
			bad_status++;
		else if (st && (!syndrome(m) || !zero_from(m->out, 8, outlen)))
			bad_fail++;
		else if (!st)
			ok++;
	}
	CHECK_EQ(bad_exec, 0);
	CHECK_EQ(bad_status, 0);
	CHECK_EQ(bad_fail, 0);
	/* The mix must reach the handlers, not only the checks before. */
	CHECK(ok > 700);
	printf("random: %u of 20000 commands succeeded, %u objects left\n",
	       ok, emu_fw_object_count(fw, -1));
	emu_fw_free(fw);
	free(m);
	return check_done("firmware_random");
}
