// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * import_policy.h's table says, per libmlx5 type, what import asks: which
 * types have an id query, which query proves a DEVX object alone, whose
 * firmware part may fail for a live object, the mailbox each builds, and
 * how each answer of the kernel is judged (including the ambiguous EINVAL
 * of kernels older than 5.18); how the verbs file id is judged against
 * a blob (import_policy_file: another file EXDEV, none EPROTO on a kernel
 * that reports one, the table's checks on one that does not), and the
 * bounds every DEVX object blob keeps; the one offline judgement import
 * and mlx5-share-inspect share (import_policy_decode,
 * import_policy_out_of_bounds, import_policy_no_file_id).
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "import_policy.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define NAME "unit_import_policy"

static const struct {
	uint32_t type;
	uint16_t opcode;
	uint16_t obj_type;
	bool proves_devx;
	bool fw_may_fail;
} want[] = {
	{ IMPORT_DEVX_FLOW_TABLE, PRM_OP_QUERY_FLOW_TABLE, 0, true, true },
	{ IMPORT_DEVX_FLOW_COUNTER, PRM_OP_QUERY_FLOW_COUNTER, 0, true,
	  false },
	{ IMPORT_DEVX_FLOW_METER, PRM_OP_QUERY_GENERAL_OBJECT,
	  PRM_OBJ_TYPE_FLOW_METER, true, false },
	{ IMPORT_DEVX_QP, PRM_OP_QUERY_QP, 0, false, false },
	{ IMPORT_DEVX_PKT_REFORMAT_CTX, PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT, 0,
	  true, true },
	{ IMPORT_DEVX_TIR, PRM_OP_QUERY_TIR, 0, false, false },
	{ IMPORT_DEVX_FLOW_GROUP, PRM_OP_QUERY_FLOW_GROUP, 0, true, true },
	{ IMPORT_DEVX_FLOW_TABLE_ENTRY, PRM_OP_QUERY_FLOW_TABLE_ENTRY, 0, true,
	  true },
	{ IMPORT_DEVX_FLOW_SAMPLER, PRM_OP_QUERY_GENERAL_OBJECT,
	  PRM_OBJ_TYPE_FLOW_SAMPLER, true, false },
	{ IMPORT_DEVX_ASO_FIRST_HIT, PRM_OP_QUERY_GENERAL_OBJECT,
	  PRM_OBJ_TYPE_ASO_FIRST_HIT, true, false },
	{ IMPORT_DEVX_ASO_FLOW_METER, PRM_OP_QUERY_GENERAL_OBJECT,
	  PRM_OBJ_TYPE_ASO_FLOW_METER, true, false },
	{ IMPORT_DEVX_ASO_CT, PRM_OP_QUERY_GENERAL_OBJECT,
	  PRM_OBJ_TYPE_ASO_CT, true, false },
};

/* Where each query carries the object's id: field (off, width), by name. */
#define NAMED(type, id, field) { type, id, field, #field }
static const struct {
	uint32_t type, id;
	unsigned int off, width;
	const char *field;
} named[] = {
	NAMED(IMPORT_DEVX_FLOW_TABLE_ENTRY, 0x77, PRM_QUERY_FTE_IN_FLOW_INDEX),
	NAMED(IMPORT_DEVX_FLOW_GROUP, 0x78, PRM_QUERY_FG_IN_GROUP_ID),
	NAMED(IMPORT_DEVX_FLOW_TABLE, 0x79, PRM_QUERY_FT_IN_TABLE_ID),
	NAMED(IMPORT_DEVX_QP, 0x7a, PRM_QUERY_QP_IN_QPN),
};

static void test_rows(void)
{
	const struct import_policy *rows, *p;
	uint8_t in[IMPORT_QUERY_IN_MAX];
	size_t n, i, len;

	rows = import_policy_rows(&n);
	CHECK_EQ(n, 13);
	for (i = 0; i < n; i++) {
		CHECK_EQ(rows[i].devx_type, i);
		CHECK(rows[i].name != NULL);
		CHECK(rows[i].in_len <= IMPORT_QUERY_IN_MAX);
		CHECK(rows[i].out_len <= IMPORT_QUERY_OUT_MAX);
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = import_policy_find(want[i].type);
		CHECK_EQ(p->devx_type, want[i].type);
		CHECK_EQ(p->opcode, want[i].opcode);
		CHECK_EQ(p->obj_type, want[i].obj_type);
		CHECK_EQ(p->proves_devx, want[i].proves_devx);
		CHECK_EQ(p->fw_may_fail, want[i].fw_may_fail);
		CHECK(import_policy_has_query(p, 0x1234));
		CHECK_EQ(import_policy_needs_list(p, 0x1234),
			 !want[i].proves_devx);

		/* The mailbox: opcode, obj_type, the id in its field. */
		memset(in, 0xee, sizeof(in));
		len = import_policy_build_query(p, 0x1234, in);
		CHECK_EQ(len, p->in_len);
		CHECK(len >= PRM_HDR_LEN);
		CHECK_EQ(prm_get(in, PRM_HDR_OPCODE), want[i].opcode);
		CHECK_EQ(prm_get(in, PRM_HDR_UID), 0);
		CHECK_EQ(prm_get(in, PRM_GOBJ_TYPE), want[i].obj_type);
		CHECK_EQ(prm_get(in, p->id_off, p->id_width), 0x1234);
	}

	/* The named fields, where the kernel's devx.c reads the id. */
	p = import_policy_find(IMPORT_DEVX_FLOW_COUNTER);
	import_policy_build_query(p, 0xabcdef01, in);
	CHECK_EQ(prm_get(in, PRM_QUERY_FC_ID), 0xabcdef01);
	CHECK_EQ(prm_get(in, PRM_QUERY_FC_NUM), 0);
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		p = import_policy_find(named[i].type);
		import_policy_build_query(p, named[i].id, in);
		if (prm_get(in, named[i].off, named[i].width) != named[i].id)
			fprintf(stderr, "%s is not the id\n", named[i].field);
		CHECK_EQ(prm_get(in, named[i].off, named[i].width),
			 named[i].id);
	}

	/* A 24-bit id field cannot hold a wider id: liveness only. */
	for (i = 0; i < 2; i++) {
		p = import_policy_find(i ? IMPORT_DEVX_FLOW_TABLE :
					   IMPORT_DEVX_QP);
		CHECK(!import_policy_has_query(p, 1u << 24));
		CHECK(import_policy_needs_list(p, 1u << 24));
		CHECK_EQ(import_policy_build_query(p, 1u << 24, in), 0);
	}

	/* Untyped, and types libmlx5 v64 does not have: no query. */
	for (i = 0; i < 4; i++) {
		static const uint32_t t[] = { 0, 13, 255, UINT32_MAX };

		p = import_policy_find(t[i]);
		CHECK_EQ(p->devx_type, IMPORT_DEVX_UNTYPED);
		CHECK(!import_policy_has_query(p, 1));
		CHECK(import_policy_needs_list(p, 1));
		CHECK_EQ(import_policy_build_query(p, 1, in), 0);
	}
}

static void test_verdicts(void)
{
	const struct import_policy *fc, *ft, *qp;
	bool rep;

	fc = import_policy_find(IMPORT_DEVX_FLOW_COUNTER);
	ft = import_policy_find(IMPORT_DEVX_FLOW_TABLE);
	qp = import_policy_find(IMPORT_DEVX_QP);
	for (rep = false; ; rep = true) {
		/* The kernel ran it: the id is the object's. */
		CHECK_EQ(import_policy_verdict(fc, 0, rep), 0);
		CHECK_EQ(import_policy_verdict(ft, 0, rep), 0);
		CHECK_EQ(import_policy_verdict(fc, EREMOTEIO, rep), 0);
		CHECK_EQ(import_policy_verdict(ft, EREMOTEIO, rep), 0);
		/* No such handle. */
		CHECK_EQ(import_policy_verdict(fc, ENOENT, rep), ENOENT);
		CHECK_EQ(import_policy_verdict(ft, ENOENT, rep), ENOENT);
		/* A query that needs nothing the blob lacks: a refusal. */
		CHECK_EQ(import_policy_verdict(fc, EINVAL, rep), ENOENT);
		CHECK_EQ(import_policy_verdict(qp, EINVAL, rep), ENOENT);
		CHECK_EQ(import_policy_verdict(fc, EIO, rep), EIO);
		CHECK_EQ(import_policy_verdict(qp, ENOMEM, rep), ENOMEM);
		if (rep)
			break;
	}
	/* >= 5.18: firmware failures are EREMOTEIO, EINVAL the kernel's. */
	CHECK_EQ(import_policy_verdict(ft, EINVAL, true), ENOENT);
	CHECK_EQ(import_policy_verdict(ft, EIO, true), EIO);
	/* Older: EINVAL (or EIO...) may be the firmware's: undecided. */
	CHECK_EQ(import_policy_verdict(ft, EINVAL, false), IMPORT_UNDECIDED);
	CHECK_EQ(import_policy_verdict(ft, EIO, false), IMPORT_UNDECIDED);
}

/* set_devx_obj_info()'s types, from the creator's opcode and obj_type. */
static void test_type_of(void)
{
	CHECK_EQ(import_policy_type_of(PRM_OP_ALLOC_FLOW_COUNTER, 0),
		 IMPORT_DEVX_FLOW_COUNTER);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_QP, 0), IMPORT_DEVX_QP);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_TIR, 0),
		 IMPORT_DEVX_TIR);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_FLOW_TABLE, 0),
		 IMPORT_DEVX_FLOW_TABLE);
	CHECK_EQ(import_policy_type_of(PRM_OP_SET_FLOW_TABLE_ENTRY, 0),
		 IMPORT_DEVX_FLOW_TABLE_ENTRY);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_GENERAL_OBJECT,
				       PRM_OBJ_TYPE_FLOW_METER),
		 IMPORT_DEVX_FLOW_METER);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_GENERAL_OBJECT,
				       PRM_OBJ_TYPE_ASO_CT),
		 IMPORT_DEVX_ASO_CT);
	/* a general object libmlx5 does not type, a PD, a TIS: untyped */
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_GENERAL_OBJECT, 0x7777),
		 IMPORT_DEVX_UNTYPED);
	CHECK_EQ(import_policy_type_of(PRM_OP_ALLOC_PD, 0),
		 IMPORT_DEVX_UNTYPED);
	CHECK_EQ(import_policy_type_of(PRM_OP_CREATE_TIS, 0),
		 IMPORT_DEVX_UNTYPED);
	/* obj_type only counts for CREATE_GENERAL_OBJECT */
	CHECK_EQ(import_policy_type_of(PRM_OP_ALLOC_FLOW_COUNTER,
				       PRM_OBJ_TYPE_FLOW_METER),
		 IMPORT_DEVX_FLOW_COUNTER);
}

/*
 * The verbs file id judged for every kind: on a kernel that reports it
 * (a non-zero importing id) equal is 0 with nothing more to ask, another
 * file EXDEV, a blob without one EPROTO; on a kernel that does not (0),
 * a blob without one is left to the table (IMPORT_UNDECIDED), one with
 * one EXDEV.
 */
static void test_file(void)
{
	static const enum blob_kind kinds[] = {
		BLOB_KIND_DEVX_OBJ, BLOB_KIND_DEVX_UMEM, BLOB_KIND_VAR,
	};
	struct blob b = { .version = BLOB_FORMAT_VERSION };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		b.kind = kinds[i];
		b.file_id = 77;
		CHECK_EQ(import_policy_file(&b, 77), 0);
		CHECK_EQ(import_policy_file(&b, 78), EXDEV);
		CHECK_EQ(import_policy_file(&b, UINT64_MAX), EXDEV);
		CHECK_EQ(import_policy_file(&b, 0), EXDEV);
		b.file_id = UINT64_MAX;
		CHECK_EQ(import_policy_file(&b, UINT64_MAX), 0);
		CHECK_EQ(import_policy_file(&b, 1), EXDEV);
		b.file_id = 0;
		CHECK_EQ(import_policy_file(&b, 77), EPROTO);
		CHECK_EQ(import_policy_file(&b, 0), IMPORT_UNDECIDED);
	}
}

/* The fields libmlx5 cannot have recorded otherwise: EINVAL. */
static void test_bounds(void)
{
	struct blob b = { .version = BLOB_FORMAT_VERSION,
			  .kind = BLOB_KIND_DEVX_OBJ };

	CHECK_EQ(import_policy_bounds(&b), 0);
	b.obj.log_obj_range = IMPORT_LOG_OBJ_RANGE_MAX;
	CHECK_EQ(import_policy_bounds(&b), 0);
	b.obj.log_obj_range = IMPORT_LOG_OBJ_RANGE_MAX + 1;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	b.obj.log_obj_range = 0xff;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	b.obj.log_obj_range = 0;
	b.obj.type = IMPORT_DEVX_ASO_CT;
	CHECK_EQ(import_policy_bounds(&b), 0);
	b.obj.type = IMPORT_DEVX_ASO_CT + 1;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	b.obj.type = UINT32_MAX;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	/* a QP or TIR number has 24 bits */
	b.obj.type = IMPORT_DEVX_QP;
	b.obj.object_id = 0xffffff;
	CHECK_EQ(import_policy_bounds(&b), 0);
	b.obj.object_id = 0x1000000;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	b.obj.type = IMPORT_DEVX_TIR;
	CHECK_EQ(import_policy_bounds(&b), EINVAL);
	/* a general object's id has 32: any */
	b.obj.type = IMPORT_DEVX_FLOW_METER;
	b.obj.object_id = UINT32_MAX;
	CHECK_EQ(import_policy_bounds(&b), 0);
	/* untyped: nothing to bound the id by */
	b.obj.type = IMPORT_DEVX_UNTYPED;
	CHECK_EQ(import_policy_bounds(&b), 0);
	/* UMEM and VAR fields have no bound */
	memset(&b, 0xff, sizeof(b));
	b.kind = BLOB_KIND_VAR;
	CHECK_EQ(import_policy_bounds(&b), 0);
	b.kind = BLOB_KIND_DEVX_UMEM;
	CHECK_EQ(import_policy_bounds(&b), 0);
}

static bool field_is(const char *got, const char *name)
{
	return got && !strcmp(got, name);
}

/* The field import_policy_bounds() refuses, by name, in its order. */
static void test_out_of_bounds(void)
{
	struct blob b = { .version = BLOB_FORMAT_VERSION,
			  .kind = BLOB_KIND_DEVX_OBJ };

	CHECK(import_policy_out_of_bounds(&b) == NULL);
	b.obj.type = IMPORT_DEVX_ASO_CT + 1;
	b.obj.log_obj_range = IMPORT_LOG_OBJ_RANGE_MAX + 1;
	CHECK(field_is(import_policy_out_of_bounds(&b), "type"));
	b.obj.type = IMPORT_DEVX_QP;
	b.obj.object_id = 0x1000000;
	CHECK(field_is(import_policy_out_of_bounds(&b), "log_obj_range"));
	b.obj.log_obj_range = 0;
	CHECK(field_is(import_policy_out_of_bounds(&b), "object_id"));
	b.kind = BLOB_KIND_VAR;
	CHECK(import_policy_out_of_bounds(&b) == NULL);
}

static void test_no_file_id(void)
{
	struct blob b = { .version = BLOB_FORMAT_VERSION, .file_id = 1 };

	CHECK(!import_policy_no_file_id(&b));
	b.file_id = 0;
	CHECK(import_policy_no_file_id(&b));
}

/* An encoded blob, changed and judged as import does without a kernel. */
static int decode_with(uint32_t type, uint32_t id, uint8_t range)
{
	struct blob b = { .version = BLOB_FORMAT_VERSION, .file_id = 9,
			  .kind = BLOB_KIND_DEVX_OBJ, .handle = 3 };
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob out;

	b.obj.type = type;
	b.obj.object_id = id;
	b.obj.log_obj_range = range;
	if (!blob_encode(&b, buf))
		return -1;
	return import_policy_decode(buf, sizeof(buf), 0, &out);
}

static void test_decode(void)
{
	unsigned char buf[BLOB_MAX_SIZE] = { 0 };
	struct blob out;

	CHECK_EQ(decode_with(IMPORT_DEVX_FLOW_COUNTER, 0x800012, 2), 0);
	CHECK_EQ(decode_with(IMPORT_DEVX_ASO_CT + 1, 1, 0), EINVAL);
	CHECK_EQ(decode_with(IMPORT_DEVX_FLOW_COUNTER, 1, 32), EINVAL);
	CHECK_EQ(decode_with(IMPORT_DEVX_FLOW_COUNTER, 1, 31), 0);
	CHECK_EQ(decode_with(IMPORT_DEVX_QP, 0xffffff, 0), 0);
	CHECK_EQ(decode_with(IMPORT_DEVX_QP, 0x1000000, 0), EINVAL);
	/* the codec's verdict first: no magic */
	CHECK_EQ(import_policy_decode(buf, sizeof(buf), 0, &out), EINVAL);
	memcpy(buf, BLOB_MAGIC, 4);
	buf[4] = 1;	/* format 1 */
	CHECK_EQ(import_policy_decode(buf, sizeof(buf), 0, &out), EPROTO);
}

int main(void)
{
	test_rows();
	test_verdicts();
	test_type_of();
	test_file();
	test_bounds();
	test_out_of_bounds();
	test_no_file_id();
	test_decode();
	return check_done(NAME);
}
