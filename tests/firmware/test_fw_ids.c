// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How the firmware model hands out object numbers, per number space, in
 * both modes of emu_fw_set_ids() (mlx5-emu run --fw-ids): with
 * LOWEST_FREE a destroy and a create of the same kind give the same
 * number at once, and the lowest free one of several; with FRESH (the
 * default) the new object gets a number no object had just before.
 * Spaces: user contexts, PDs, transport domains, UMEMs, CQs, single and
 * bulk flow counters, general objects (flow meter), TISes, RQs, SQs,
 * RQTs, TIRs, flow tables, flow groups, QPs; and ranges (bulks of
 * counters) among single numbers.
 */
#include <stdio.h>

#include "check.h"
#include "fw_test_objs.h"

#define RX 0	/* NIC receive tables */

/* What the objects under test stand on, made once per device. */
struct fixture {
	struct emu_fw *fw;
	uint16_t uid;
	uint32_t umem, pd, td, cq, rq, tis, ft;
	unsigned int fg_slot;	/* the next flow index a group takes */
};

static uint32_t mk_uctx(struct fixture *f)
{
	return make_uctx(f->fw);
}

static int rm_uctx(struct fixture *f, uint32_t id)
{
	return destroy_uctx(f->fw, (uint16_t)id);
}

static uint32_t mk_pd(struct fixture *f)
{
	return make_simple(f->fw, f->uid, PRM_OP_ALLOC_PD);
}

static int rm_pd(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DEALLOC_PD, f->uid, id, 16);
}

static uint32_t mk_td(struct fixture *f)
{
	return make_simple(f->fw, f->uid, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
}

static int rm_td(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DEALLOC_TRANSPORT_DOMAIN, f->uid,
		       id, 16);
}

static uint32_t mk_umem(struct fixture *f)
{
	return make_umem(f->fw, f->uid, 1);
}

static int rm_umem(struct fixture *f, uint32_t id)
{
	return destroy_umem(f->fw, f->uid, id, NULL);
}

static uint32_t mk_cq(struct fixture *f)
{
	return make_cq(f->fw, f->uid, f->umem, 0);
}

static int rm_cq(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_CQ, f->uid, id, 16);
}

static uint32_t counter(struct fixture *f, uint8_t bulk)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, f->uid, 0);
	prm_set(m.in, PRM_ALLOC_FC_BULK, bulk);
	return alloc_id(f->fw, &m, PRM_ALLOC_FC_IN_LEN, PRM_ALLOC_FC_OUT_ID);
}

static uint32_t mk_counter(struct fixture *f)
{
	return counter(f, 0);
}

/* 128 counters, aligned to 128 */
static uint32_t mk_bulk(struct fixture *f)
{
	return counter(f, 1);
}

static int rm_counter(struct fixture *f, uint32_t id)
{
	return dealloc_counter(f->fw, f->uid, id, NULL);
}

static void meter_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
		      uint32_t id)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(m->in, PRM_GOBJ_ID, id);
}

static uint32_t mk_meter(struct fixture *f)
{
	struct mbox m;

	meter_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, f->uid, 0);
	return alloc_id(f->fw, &m, PRM_METER_IN_LEN, PRM_GOBJ_OUT_ID);
}

static int rm_meter(struct fixture *f, uint32_t id)
{
	struct mbox m;

	meter_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, f->uid, id);
	return run(f->fw, &m, 16, 16);
}

static uint32_t mk_tis(struct fixture *f)
{
	struct mbox m;

	tis_cmd(&m, f->uid, f->td);
	return created(f->fw, &m, PRM_TIS_IN_LEN);
}

static int rm_tis(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_TIS, f->uid, id, 16);
}

static uint32_t mk_rq(struct fixture *f)
{
	struct mbox m;

	wq_cmd(&m, PRM_OP_CREATE_RQ, f->uid, f->cq, f->pd, 0, f->umem, 0);
	return created(f->fw, &m, PRM_OBJ_IN_LEN);
}

static int rm_rq(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_RQ, f->uid, id, 16);
}

static uint32_t mk_sq(struct fixture *f)
{
	struct mbox m;

	wq_cmd(&m, PRM_OP_CREATE_SQ, f->uid, f->cq, f->pd, f->tis, f->umem,
	       0);
	return created(f->fw, &m, PRM_OBJ_IN_LEN);
}

static int rm_sq(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_SQ, f->uid, id, 16);
}

static uint32_t mk_rqt(struct fixture *f)
{
	struct mbox m;

	return created(f->fw, &m,
		       rqt_cmd(&m, PRM_OP_CREATE_RQT, f->uid, 4, &f->rq, 1));
}

static int rm_rqt(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_RQT, f->uid, id, 16);
}

static uint32_t mk_tir(struct fixture *f)
{
	struct mbox m;

	tir_cmd(&m, f->uid, f->td, f->rq, 0);
	return created(f->fw, &m, PRM_OBJ_IN_LEN);
}

static int rm_tir(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_TIR, f->uid, id, 16);
}

static uint32_t mk_ft(struct fixture *f)
{
	return make_ft(f->fw, f->uid, RX, 1);
}

static int rm_ft(struct fixture *f, uint32_t id)
{
	struct mbox m;

	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, f->uid, RX, id);
	return run(f->fw, &m, PRM_FS_IN_LEN, 16);
}

/* a group of one flow index, each live group its own */
static uint32_t mk_fg(struct fixture *f)
{
	unsigned int slot = f->fg_slot++ % 16;
	struct mbox m;

	fs_cmd(&m, PRM_OP_CREATE_FLOW_GROUP, f->uid, RX, f->ft);
	prm_set(m.in, PRM_FG_START, slot);
	prm_set(m.in, PRM_FG_END, slot);
	return alloc_id(f->fw, &m, PRM_FG_IN_LEN, PRM_FG_OUT_ID);
}

static int rm_fg(struct fixture *f, uint32_t id)
{
	struct mbox m;

	fs_cmd(&m, PRM_OP_DESTROY_FLOW_GROUP, f->uid, RX, f->ft);
	prm_set(m.in, PRM_FG_ID, id);
	return run(f->fw, &m, PRM_FS_IN_LEN, 16);
}

/* an RC QP whose 1 KiB of queues is one page of the page list */
static uint32_t mk_qp(struct fixture *f)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_QP, f->uid, 0);
	SET_FIELDS(m.in, FIELD(PRM_QPC_ST, PRM_QP_ST_RC),
		   FIELD(PRM_QPC_PM_STATE, PRM_QP_PM_MIGRATED),
		   FIELD(PRM_QPC_PD, f->pd), FIELD(PRM_QPC_LOG_SQ_SIZE, 3),
		   FIELD(PRM_QPC_LOG_RQ_SIZE, 3),
		   FIELD(PRM_QPC_LOG_RQ_STRIDE, 2),
		   FIELD(PRM_QPC_CQN_SND, f->cq),
		   FIELD(PRM_QPC_CQN_RCV, f->cq));
	prm_set64(m.in + PRM_QP_PAS_BYTE, PRM_PAS_ADDR, 0x100000000ull);
	return created(f->fw, &m, PRM_QP_PAS_BYTE + PRM_PAS_ENTRY_LEN);
}

static int rm_qp(struct fixture *f, uint32_t id)
{
	struct mbox m;

	return obj_cmd(f->fw, &m, PRM_OP_DESTROY_QP, f->uid, id, 16);
}

struct space {
	const char *name;
	uint32_t (*make)(struct fixture *f);
	int (*destroy)(struct fixture *f, uint32_t id);
};

static const struct space spaces[] = {
	{ "uctx", mk_uctx, rm_uctx },
	{ "pd", mk_pd, rm_pd },
	{ "td", mk_td, rm_td },
	{ "umem", mk_umem, rm_umem },
	{ "cq", mk_cq, rm_cq },
	{ "counter", mk_counter, rm_counter },
	{ "counter bulk", mk_bulk, rm_counter },
	{ "flow meter", mk_meter, rm_meter },
	{ "tis", mk_tis, rm_tis },
	{ "rq", mk_rq, rm_rq },
	{ "sq", mk_sq, rm_sq },
	{ "rqt", mk_rqt, rm_rqt },
	{ "tir", mk_tir, rm_tir },
	{ "flow table", mk_ft, rm_ft },
	{ "flow group", mk_fg, rm_fg },
	{ "qp", mk_qp, rm_qp },
};

static void fixture_init(struct fixture *f, enum emu_fw_ids mode)
{
	memset(f, 0, sizeof(*f));
	f->fw = emu_fw_new(TEST_GUID);
	REQUIRE(f->fw);
	emu_fw_set_ids(f->fw, mode);
	f->uid = make_uctx(f->fw);
	REQUIRE(f->uid);
	f->umem = make_umem(f->fw, f->uid, 4);
	f->pd = mk_pd(f);
	f->td = mk_td(f);
	REQUIRE(f->umem && f->pd && f->td);
	f->cq = mk_cq(f);
	f->tis = mk_tis(f);
	f->ft = mk_ft(f);
	REQUIRE(f->cq && f->tis && f->ft);
	f->rq = mk_rq(f);
	REQUIRE(f->rq);
}

/*
 * a and b made, a destroyed, c made: c is a (lowest free) or neither
 * (fresh).  Then b and c destroyed, d made: the lower of the two free
 * numbers (lowest free) or again neither (fresh).
 */
static void test_space(struct fixture *f, const struct space *s,
		       bool lowest)
{
	uint32_t a, b, c, d;

	a = s->make(f);
	b = s->make(f);
	if (!a || !b) {
		fprintf(stderr, "%s: make failed\n", s->name);
		CHECK(false);
		return;
	}
	CHECK(a != b);
	CHECK_EQ(s->destroy(f, a), 0);
	c = s->make(f);
	CHECK(c != 0);
	if (lowest) {
		CHECK_EQ(c, a);
	} else {
		CHECK(c != a);
		CHECK(c != b);
	}
	CHECK_EQ(s->destroy(f, b), 0);
	CHECK_EQ(s->destroy(f, c), 0);
	d = s->make(f);
	CHECK(d != 0);
	if (lowest) {
		CHECK_EQ(d, a < b ? a : b);
	} else {
		CHECK(d != a);
		CHECK(d != b);
	}
	CHECK_EQ(s->destroy(f, d), 0);
	if (!lowest || d != (a < b ? a : b))
		fprintf(stderr, "%s: %u %u, then %u, then %u\n", s->name, a,
			b, c, d);
}

static void test_mode(enum emu_fw_ids mode)
{
	struct fixture f;
	size_t i;

	fixture_init(&f, mode);
	for (i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
		test_space(&f, &spaces[i], mode == EMU_FW_IDS_LOWEST_FREE);
	emu_fw_free(f.fw);
}

/* QP numbers start at 0x100 in both modes (0 and 1: the special QPs) */
static void test_qpn_floor(void)
{
	struct fixture f;
	uint32_t qpn;

	fixture_init(&f, EMU_FW_IDS_LOWEST_FREE);
	qpn = mk_qp(&f);
	CHECK_EQ(qpn, 0x100);
	CHECK_EQ(rm_qp(&f, qpn), 0);
	CHECK_EQ(mk_qp(&f), 0x100);
	emu_fw_free(f.fw);
}

/*
 * Lowest free with ranges: a bulk of 128 counters takes the lowest free
 * 128-aligned range past the single counters, and the singles fill the
 * holes below it; a freed bulk's range comes back whole.
 */
static void test_ranges(void)
{
	uint32_t one[3], bulk, again;
	struct fixture f;
	int i;

	fixture_init(&f, EMU_FW_IDS_LOWEST_FREE);
	for (i = 0; i < 3; i++)
		one[i] = mk_counter(&f);
	CHECK_EQ(one[0], 1);
	CHECK_EQ(one[2], 3);
	bulk = mk_bulk(&f);
	CHECK_EQ(bulk, 128);
	CHECK_EQ(rm_counter(&f, one[1]), 0);
	CHECK_EQ(mk_counter(&f), 2);
	CHECK_EQ(mk_counter(&f), 4);
	CHECK_EQ(rm_counter(&f, bulk), 0);
	again = mk_bulk(&f);
	CHECK_EQ(again, 128);
	/* below the bulk, the singles go on at 5 */
	CHECK_EQ(mk_counter(&f), 5);
	emu_fw_free(f.fw);
}

int main(void)
{
	test_mode(EMU_FW_IDS_FRESH);
	test_mode(EMU_FW_IDS_LOWEST_FREE);
	test_qpn_floor();
	test_ranges();
	return check_done("firmware_fw_ids");
}
