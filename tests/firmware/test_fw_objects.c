// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's objects: user contexts and the uid rules, PD-like
 * numbers, flow counters (single and bulk), the flow meter general
 * object, UMEMs, limits, and many threads on one device.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "check.h"
#include "fw_test_objs.h"

static uint32_t alloc_counter(struct emu_fw *fw, uint16_t uid, uint8_t bulk,
			      int *status)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	prm_set(m.in, PRM_ALLOC_FC_BULK, bulk);
	*status = run(fw, &m, PRM_ALLOC_FC_IN_LEN, 16);
	return *status ? 0 : prm_get(m.out, PRM_ALLOC_FC_OUT_ID);
}

/* Queries num counters from id into m; returns the status. */
static int query_counter(struct emu_fw *fw, struct mbox *m, uint16_t uid,
			 uint32_t id, uint32_t num, int clear, size_t outlen)
{
	mbox_init(m, PRM_OP_QUERY_FLOW_COUNTER, uid, 0);
	prm_set(m->in, PRM_QUERY_FC_ID, id);
	prm_set(m->in, PRM_QUERY_FC_NUM, num);
	prm_set(m->in, PRM_QUERY_FC_CLEAR, clear);
	return run(fw, m, PRM_QUERY_FC_IN_LEN, outlen);
}

static uint64_t packets(const struct mbox *m, unsigned int i)
{
	return prm_get64(m->out, (16 + 16 * i) * 8, 64);
}

static uint64_t octets(const struct mbox *m, unsigned int i)
{
	return prm_get64(m->out, (16 + 16 * i) * 8 + 64, 64);
}

static void test_uctx(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);
	uint16_t a, b;
	struct mbox m;
	int st;

	REQUIRE(fw);
	a = make_uctx(fw);
	b = make_uctx(fw);
	CHECK(a != 0 && b != 0 && a != b);

	/* A uid that is no live context is refused, whatever the command. */
	mbox_init(&m, PRM_OP_NOP, (uint16_t)(a + b + 7), 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UNKNOWN_UID);

	/* Only the kernel (uid 0) creates contexts. */
	mbox_init(&m, PRM_OP_CREATE_UCTX, a, 0);
	CHECK_EQ(run(fw, &m, PRM_CREATE_UCTX_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	/* A capability the device does not offer. */
	mbox_init(&m, PRM_OP_CREATE_UCTX, 0, 0);
	prm_set(m.in, PRM_UCTX_CAP, 0x2);
	CHECK_EQ(run(fw, &m, PRM_CREATE_UCTX_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);

	/* A context with objects cannot go; without them it can, once. */
	alloc_counter(fw, a, 0, &st);
	CHECK_EQ(st, 0);
	CHECK_EQ(destroy_uctx(fw, a), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(emu_fw_object_count(fw, a), 1);
	CHECK_EQ(destroy_uctx(fw, b), 0);
	CHECK_EQ(destroy_uctx(fw, b), EMU_FW_STATUS_BAD_RES_STATE);
	mbox_init(&m, PRM_OP_NOP, b, 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_PARAM);

	/* Freeing the device with live objects leaks nothing (valgrind). */
	emu_fw_free(fw);
}

/*
 * Numbers are reused only once the number space wraps, and then never
 * the number of a live object: run the 16-bit uid space round once.
 */
static void test_wrap(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);
	uint16_t keep, prev, uid;
	unsigned int n;

	REQUIRE(fw);
	keep = make_uctx(fw);	/* 1 */
	prev = make_uctx(fw);	/* 2, so after the wrap 1 is taken */
	CHECK_EQ(keep, 1);
	CHECK_EQ(destroy_uctx(fw, prev), 0);
	for (n = 0; n < 0x10000; n++) {
		uid = make_uctx(fw);
		if (!uid || destroy_uctx(fw, uid))
			break;
		if (uid < prev)
			break;	/* wrapped */
		prev = uid;
	}
	/* (the shared resource uid is never a context's) */
	CHECK_EQ(prev, PRM_SHARED_RESOURCE_UID - 1);
	CHECK_EQ(uid, 2);	/* 1 is still live */
	CHECK_EQ(emu_fw_object_count(fw, 0), 1);
	emu_fw_free(fw);
}

static void test_pd_like(struct emu_fw *fw, uint16_t uid)
{
	static const uint16_t ops[][2] = {
		{ PRM_OP_ALLOC_PD, PRM_OP_DEALLOC_PD },
		{ PRM_OP_ALLOC_TRANSPORT_DOMAIN,
		  PRM_OP_DEALLOC_TRANSPORT_DOMAIN },
		{ PRM_OP_ALLOC_XRCD, PRM_OP_DEALLOC_XRCD },
	};
	uint32_t n1, n2;
	struct mbox m;
	size_t i;

	for (i = 0; i < 3; i++) {
		mbox_init(&m, ops[i][0], uid, 0);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
		n1 = prm_get(m.out, PRM_OUT_OBJN);
		mbox_init(&m, ops[i][0], uid, 0);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
		n2 = prm_get(m.out, PRM_OUT_OBJN);
		CHECK(n1 && n2 && n1 != n2);

		mbox_init(&m, ops[i][1], uid, 0);
		prm_set(m.in, PRM_IN_OBJN, n1);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
		CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_NO_OBJECT);
		mbox_init(&m, ops[i][1], uid, 0);
		prm_set(m.in, PRM_IN_OBJN, n2);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
	}
}

static void test_counter(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t id, id2, synd;
	struct mbox m;
	int st;

	id = alloc_counter(fw, uid, 0, &st);
	CHECK_EQ(st, 0);
	CHECK(id != 0);

	/* Counters start at zero and move only when traffic is injected. */
	CHECK_EQ(query_counter(fw, &m, uid, id, 0, 0, 32), 0);
	CHECK_EQ(packets(&m, 0), 0);
	CHECK_EQ(octets(&m, 0), 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, id, 3, 192), 0);
	CHECK_EQ(query_counter(fw, &m, uid, id, 1, 0, 32), 0);
	CHECK_EQ(packets(&m, 0), 3);
	CHECK_EQ(octets(&m, 0), 192);
	/* clear: this read still sees the values, the next one zero. */
	CHECK_EQ(query_counter(fw, &m, uid, id, 1, 1, 32), 0);
	CHECK_EQ(packets(&m, 0), 3);
	CHECK_EQ(query_counter(fw, &m, uid, id, 1, 0, 32), 0);
	CHECK_EQ(packets(&m, 0), 0);
	CHECK_EQ(octets(&m, 0), 0);

	/* Another context may not use it; the kernel (uid 0) may. */
	CHECK_EQ(query_counter(fw, &m, other, id, 1, 0, 32),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	CHECK_EQ(dealloc_counter(fw, other, id, &synd),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(query_counter(fw, &m, 0, id, 1, 0, 32), 0);

	/* More counters than the counter holds; the output too short. */
	CHECK_EQ(query_counter(fw, &m, uid, id, 2, 0, 48),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(query_counter(fw, &m, uid, id, 1, 0, 31),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);
	/* Dumping to memory is not modelled, and says so. */
	mbox_init(&m, PRM_OP_QUERY_FLOW_COUNTER, uid, 0);
	prm_set(m.in, PRM_QUERY_FC_ID, id);
	prm_set(m.in, PRM_QUERY_FC_DUMP, 1);
	CHECK_EQ(run(fw, &m, 32, 32), EMU_FW_STATUS_BAD_PARAM);

	CHECK_EQ(dealloc_counter(fw, uid, id, NULL), 0);
	CHECK_EQ(dealloc_counter(fw, uid, id, &synd),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(synd, EMU_FW_SYND_NO_OBJECT);
	CHECK_EQ(query_counter(fw, &m, uid, id, 1, 0, 32),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(emu_fw_flow_counter_add(fw, id, 1, 1), -ENOENT);

	/* A freed id is not handed out again at once. */
	id2 = alloc_counter(fw, uid, 0, &st);
	CHECK_EQ(st, 0);
	CHECK(id2 != id);
	CHECK_EQ(dealloc_counter(fw, uid, id2, NULL), 0);
}

static void test_counter_bulk(struct emu_fw *fw, uint16_t uid)
{
	static struct mbox big;	/* room for 128 counters */
	uint32_t base, synd;
	struct mbox m;
	int st;

	base = alloc_counter(fw, uid, 1, &st);	/* 128 counters */
	CHECK_EQ(st, 0);
	CHECK_EQ(base % 128, 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, base + 5, 7, 70), 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, base + 127, 1, 10), 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, base + 128, 1, 10), -ENOENT);

	/* One counter inside the bulk, then all of them at once. */
	CHECK_EQ(query_counter(fw, &m, uid, base + 5, 1, 0, 32), 0);
	CHECK_EQ(packets(&m, 0), 7);
	CHECK_EQ(query_counter(fw, &big, uid, base, 128, 0,
			       16 + 16 * 128 - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);
	CHECK(sizeof(big.out) >= 16 + 16 * 128);
	CHECK_EQ(query_counter(fw, &big, uid, base, 128, 0, 16 + 16 * 128),
		 0);
	CHECK_EQ(packets(&big, 5), 7);
	CHECK_EQ(octets(&big, 5), 70);
	CHECK_EQ(packets(&big, 4), 0);
	CHECK_EQ(octets(&big, 127), 10);
	CHECK_EQ(query_counter(fw, &m, uid, base + 127, 2, 0, 48),
		 EMU_FW_STATUS_BAD_PARAM);

	/* Freed as a whole by its base only. */
	CHECK_EQ(dealloc_counter(fw, uid, base + 5, &synd),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(synd, EMU_FW_SYND_RANGE);
	CHECK_EQ(dealloc_counter(fw, uid, base, NULL), 0);

	/* Bulk sizes: one bit of the capability, or a log size. */
	alloc_counter(fw, uid, 3, &st);
	CHECK_EQ(st, EMU_FW_STATUS_BAD_PARAM);
	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	prm_set(m.in, PRM_ALLOC_FC_BULK_LOG, 4);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	base = prm_get(m.out, PRM_ALLOC_FC_OUT_ID);
	CHECK_EQ(base % 16, 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, base + 15, 1, 1), 0);
	CHECK_EQ(emu_fw_flow_counter_add(fw, base + 16, 1, 1), -ENOENT);
	CHECK_EQ(dealloc_counter(fw, uid, base, NULL), 0);
	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	prm_set(m.in, PRM_ALLOC_FC_BULK_LOG, 15);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_PARAM);
}

static void test_counter_limit(struct emu_fw *fw, uint16_t uid)
{
	uint32_t ids[16];
	int i, st;

	/* The caps say 262144 counters: 16 bulks of 16384 fill them. */
	for (i = 0; i < 16; i++) {
		ids[i] = alloc_counter(fw, uid, 0x80, &st);
		CHECK_EQ(st, 0);
	}
	alloc_counter(fw, uid, 0, &st);
	CHECK_EQ(st, EMU_FW_STATUS_EXCEED_LIM);
	for (i = 0; i < 16; i++)
		CHECK_EQ(dealloc_counter(fw, uid, ids[i], NULL), 0);
	CHECK(alloc_counter(fw, uid, 0, &st) != 0);
	CHECK_EQ(st, 0);
}

struct meter {
	unsigned int active, reg, table_type, table;
	unsigned int cbs_e, cbs_m, cir_e, cir_m, ebs_e, ebs_m, eir_e, eir_m;
};

/* Each field of struct meter and where the flow meter object holds it. */
static const struct meter_field {
	unsigned int off, width;
	size_t at;
} meter_fields[] = {
#define MF(field, member) { field, offsetof(struct meter, member) }
	MF(PRM_METER_ACTIVE, active),
	MF(PRM_METER_RETURN_REG, reg),
	MF(PRM_METER_TABLE_TYPE, table_type),
	MF(PRM_METER_DEST_TABLE, table),
	MF(PRM_METER_CBS_EXP, cbs_e),
	MF(PRM_METER_CBS_MAN, cbs_m),
	MF(PRM_METER_CIR_EXP, cir_e),
	MF(PRM_METER_CIR_MAN, cir_m),
	MF(PRM_METER_EBS_EXP, ebs_e),
	MF(PRM_METER_EBS_MAN, ebs_m),
	MF(PRM_METER_EIR_EXP, eir_e),
	MF(PRM_METER_EIR_MAN, eir_m),
#undef MF
};

static void put_meter(struct mbox *m, const struct meter *v)
{
	size_t i;

	for (i = 0; i < sizeof(meter_fields) / sizeof(meter_fields[0]); i++) {
		const struct meter_field *f = &meter_fields[i];

		prm_set(m->in, f->off, f->width,
			*(const unsigned int *)((const char *)v + f->at));
	}
	prm_set(m->in, PRM_METER_VALID, 1);
}

/* Same field offsets in the query output as in the create input. */
static void get_meter(const struct mbox *m, struct meter *v)
{
	size_t i;

	for (i = 0; i < sizeof(meter_fields) / sizeof(meter_fields[0]); i++) {
		const struct meter_field *f = &meter_fields[i];

		*(unsigned int *)((char *)v + f->at) =
			prm_get(m->out, f->off, f->width);
	}
}

static void meter_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
		      uint16_t type, uint32_t id)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_GOBJ_TYPE, type);
	prm_set(m->in, PRM_GOBJ_ID, id);
}

static int query_meter(struct emu_fw *fw, struct mbox *m, uint16_t uid,
		       uint32_t id, struct meter *v)
{
	int st;

	meter_cmd(m, PRM_OP_QUERY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	st = run(fw, m, 16, PRM_METER_IN_LEN);
	if (!st)
		get_meter(m, v);
	return st;
}

static void test_meter(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	const struct meter made = { 1, 2, 1, 0x1234, 20, 191, 0, 200,
				    3, 4, 5, 6 };
	struct meter got, want;
	uint32_t id, id2;
	struct mbox m;

	meter_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, 0);
	put_meter(&m, &made);
	prm_set(m.in, PRM_METER_SELECT_LO, 0x1f); /* ignored on create */
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), 0);
	id = prm_get(m.out, PRM_GOBJ_OUT_ID);
	CHECK(id != 0);

	CHECK_EQ(query_meter(fw, &m, uid, id, &got), 0);
	CHECK(!memcmp(&got, &made, sizeof(got)));
	CHECK_EQ(prm_get(m.out, PRM_METER_VALID), 1);
	CHECK_EQ(prm_get(m.out, PRM_METER_SELECT_LO), 0);
	CHECK(prm_get64(m.out, PRM_METER_ICM_RX) != 0);
	CHECK(prm_get64(m.out, PRM_METER_ICM_RX) !=
	      prm_get64(m.out, PRM_METER_ICM_TX));

	/* Modify only CIR: CIR changes, everything else stays. */
	meter_cmd(&m, PRM_OP_MODIFY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	want = made;
	want.active = 0;
	want.cir_e = 7;
	want.cir_m = 99;
	want.cbs_e = 1;
	want.cbs_m = 1;
	put_meter(&m, &want);
	prm_set(m.in, PRM_METER_SELECT_LO, PRM_METER_SEL_CIR);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), 0);
	CHECK_EQ(query_meter(fw, &m, uid, id, &got), 0);
	CHECK_EQ(got.cir_e, 7);
	CHECK_EQ(got.cir_m, 99);
	CHECK_EQ(got.cbs_e, made.cbs_e);
	CHECK_EQ(got.cbs_m, made.cbs_m);
	CHECK_EQ(got.active, 1);
	CHECK_EQ(got.table, made.table);

	/* Then active, then EBS and EIR together. */
	meter_cmd(&m, PRM_OP_MODIFY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	want.ebs_e = 9;
	want.eir_m = 77;
	put_meter(&m, &want);
	prm_set(m.in, PRM_METER_SELECT_LO, PRM_METER_SEL_ACTIVE |
		PRM_METER_SEL_EBS | PRM_METER_SEL_EIR);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), 0);
	CHECK_EQ(query_meter(fw, &m, uid, id, &got), 0);
	CHECK_EQ(got.active, 0);
	CHECK_EQ(got.ebs_e, 9);
	CHECK_EQ(got.eir_m, 77);
	CHECK_EQ(got.cbs_m, made.cbs_m);

	/* A select bit the meter does not define, and short mailboxes. */
	meter_cmd(&m, PRM_OP_MODIFY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	prm_set(m.in, PRM_METER_SELECT_LO, 1 << 5);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_INPUT_LEN);
	meter_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	CHECK_EQ(run(fw, &m, 16, PRM_METER_IN_LEN - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);

	/* Other types, other users: the meter is no sampler. */
	meter_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_SAMPLER, id);
	CHECK_EQ(run(fw, &m, 16, PRM_METER_IN_LEN),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_NO_OBJECT);
	/* The match definer is a type the device does not offer. */
	meter_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_MATCH_DEFINER, id);
	CHECK_EQ(run(fw, &m, 16, PRM_METER_IN_LEN), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OBJ_TYPE);
	meter_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_MATCH_DEFINER, 0);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OBJ_TYPE);
	CHECK_EQ(query_meter(fw, &m, other, id, &got),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	meter_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, other,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_PARAM);

	/* Creates: too short, with an id range; then a second meter. */
	meter_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, 0);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	prm_set(m.in, PRM_GOBJ_LOG_RANGE, 2);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	prm_set(m.in, PRM_GOBJ_LOG_RANGE, 0);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16), 0);
	id2 = prm_get(m.out, PRM_GOBJ_OUT_ID);
	CHECK(id2 != id);

	/* Destroy, twice; a destroyed meter is gone for query and modify. */
	meter_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_NO_OBJECT);
	CHECK_EQ(query_meter(fw, &m, uid, id, &got),
		 EMU_FW_STATUS_BAD_RES_STATE);
	meter_cmd(&m, PRM_OP_MODIFY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id);
	prm_set(m.in, PRM_METER_SELECT_LO, PRM_METER_SEL_ACTIVE);
	CHECK_EQ(run(fw, &m, PRM_METER_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(query_meter(fw, &m, uid, id2, &got), 0);
	meter_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid,
		  PRM_OBJ_TYPE_FLOW_METER, id2);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
}

static void umem_cmd(struct mbox *m, uint16_t uid, uint64_t num_mtt,
		     unsigned int log_page, uint32_t offset)
{
	uint64_t i;

	mbox_init(m, PRM_OP_CREATE_UMEM, uid, 0);
	prm_set64(m->in, PRM_UMEM_NUM_MTT, num_mtt);
	prm_set(m->in, PRM_UMEM_LOG_PAGE, log_page);
	prm_set(m->in, PRM_UMEM_PAGE_OFFSET, offset);
	for (i = 0; i < num_mtt && i < 32; i++)
		prm_set64(m->in, (PRM_UMEM_MTT_BYTE + 8 * i) * 8, 64,
			  0x7f0000000000ull + i * 4096 + 3);
}

static void test_umem(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t id, id2;
	struct mbox m;

	umem_cmd(&m, uid, 2, 0, 64);
	CHECK_EQ(run(fw, &m, PRM_UMEM_MTT_BYTE + 16, 16), 0);
	id = prm_get(m.out, PRM_UMEM_OUT_ID);
	CHECK(id != 0);
	umem_cmd(&m, uid, 1, 0, 0);
	CHECK_EQ(run(fw, &m, PRM_UMEM_MTT_BYTE + 8, 16), 0);
	id2 = prm_get(m.out, PRM_UMEM_OUT_ID);
	CHECK(id2 != id);

	/* MTTs beyond the mailbox, no MTT, an offset past the page. */
	umem_cmd(&m, uid, 3, 0, 0);
	CHECK_EQ(run(fw, &m, PRM_UMEM_MTT_BYTE + 16, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	umem_cmd(&m, uid, 0, 0, 0);
	CHECK_EQ(run(fw, &m, PRM_UMEM_MTT_BYTE + 16, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	umem_cmd(&m, uid, 1, 0, 4096);
	CHECK_EQ(run(fw, &m, PRM_UMEM_MTT_BYTE + 8, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	umem_cmd(&m, uid, 0xffffffffffffull, 0, 0);
	CHECK_EQ(run(fw, &m, sizeof(m.in), 16), EMU_FW_STATUS_BAD_INPUT_LEN);

	CHECK_EQ(destroy_umem(fw, other, id, NULL), EMU_FW_STATUS_BAD_PARAM);
	mbox_init(&m, PRM_OP_DESTROY_UMEM, uid, 0);
	prm_set(m.in, PRM_DESTROY_UMEM_ID, id);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);
	prm_set(m.in, PRM_DESTROY_UMEM_ID, id2);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
}

struct worker {
	struct emu_fw *fw;
	uint16_t uid;
	int failures;
};

/* Each thread churns its own objects; the lock keeps the store sound. */
static void *churn(void *arg)
{
	struct worker *w = arg;
	struct mbox m;
	uint32_t id;
	int i, st;

	for (i = 0; i < 300; i++) {
		id = alloc_counter(w->fw, w->uid, i % 3 ? 0 : 1, &st);
		if (st || emu_fw_flow_counter_add(w->fw, id, 1, 64)) {
			w->failures++;
			continue;
		}
		if (query_counter(w->fw, &m, w->uid, id, 1, 0, 32) ||
		    packets(&m, 0) != 1 || octets(&m, 0) != 64)
			w->failures++;
		if (dealloc_counter(w->fw, w->uid, id, NULL))
			w->failures++;
	}
	return NULL;
}

static void test_threads(struct emu_fw *fw)
{
	struct worker w[4];
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++) {
		w[i] = (struct worker){ fw, make_uctx(fw), 0 };
		REQUIRE(w[i].uid);
		REQUIRE(!pthread_create(&t[i], NULL, churn, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ(w[i].failures, 0);
		CHECK_EQ(emu_fw_object_count(fw, w[i].uid), 0);
		CHECK_EQ(destroy_uctx(fw, w[i].uid), 0);
	}
}

int main(void)
{
	struct emu_fw *fw;
	uint16_t uid, other;

	test_uctx();
	test_wrap();

	fw = fw_two_uctx(&uid, &other);
	test_pd_like(fw, uid);
	test_pd_like(fw, 0);
	test_counter(fw, uid, other);
	test_counter_bulk(fw, uid);
	test_counter_limit(fw, uid);
	test_meter(fw, uid, other);
	test_umem(fw, uid, other);
	test_threads(fw);

	/* test_counter_limit left one counter of uid. */
	CHECK_EQ(emu_fw_object_count(fw, uid), 1);
	CHECK_EQ(emu_fw_object_count(fw, other), 0);
	/* The two contexts, owned by the kernel, and that counter. */
	CHECK_EQ(emu_fw_object_count(fw, -1), 3);
	emu_fw_free(fw);
	return check_done("firmware_objects");
}
