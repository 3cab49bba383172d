/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers for the firmware model's tests: build a command mailbox, run
 * it, and read the status, syndrome and fields of the answer.
 */
#ifndef MLX5_EMU_FW_TEST_UTIL_H
#define MLX5_EMU_FW_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "fw.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define TEST_GUID 0x248a0703005e1a2bull

/* A command: input and output mailboxes big enough for every test. */
struct mbox {
	uint8_t in[4096];
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_LEN];
};

static inline void mbox_init(struct mbox *m, uint16_t opcode, uint16_t uid,
			     uint16_t op_mod)
{
	memset(m, 0, sizeof(*m));
	prm_set(m->in, PRM_HDR_OPCODE, opcode);
	prm_set(m->in, PRM_HDR_UID, uid);
	prm_set(m->in, PRM_HDR_OP_MOD, op_mod);
	/* Garbage the firmware must overwrite. */
	memset(m->out, 0xa5, sizeof(m->out));
}

/* Runs the command; returns the PRM status, or 0x100 if exec failed. */
static inline int run_len(struct emu_fw *fw, struct mbox *m, size_t inlen,
			  size_t outlen)
{
	if (emu_fw_exec(fw, m->in, inlen, m->out, outlen))
		return 0x100;
	return prm_get(m->out, PRM_OUT_STATUS);
}

static inline int run(struct emu_fw *fw, struct mbox *m, size_t inlen,
		      size_t outlen)
{
	return run_len(fw, m, inlen, outlen);
}

/* A field (off, width) of a mailbox, by name, and a value it holds. */
struct field_value {
	const char *name;
	unsigned int off, width;
	uint32_t value;
};

/* FIELD(PRM_X, v): PRM_X's (off, width), with its name for messages. */
#define FIELD(f, v) { #f, f, (v) }
/* FIELD_AT(byte, PRM_X, v): PRM_X of the entry byte bytes into the box. */
#define FIELD_AT(byte, f, v) FIELD_AT_(#f, byte, f, v)
#define FIELD_AT_(name, byte, off, width, v)				\
	{ name, (byte) * 8 + (off), width, (v) }
#define FIELD_LIST(...)							\
	(const struct field_value[]){ __VA_ARGS__ },			\
	sizeof((const struct field_value[]){ __VA_ARGS__ }) /		\
		sizeof(struct field_value)

/*
 * CHECK_FIELDS(buf, FIELD(PRM_X, v), ...): a check of each field of buf,
 * a failure naming the field and the caller's line.
 */
#define CHECK_FIELDS(buf, ...)						\
	check_fields(__FILE__, __LINE__, (buf), FIELD_LIST(__VA_ARGS__))

static inline void check_fields(const char *file, int line,
				const uint8_t *buf,
				const struct field_value *f, size_t n)
{
	uint32_t got;
	size_t i;

	for (i = 0; i < n; i++) {
		got = prm_get(buf, f[i].off, f[i].width);
		if (got == f[i].value) {
			check_passed++;
			continue;
		}
		check_failed++;
		fprintf(stderr, "%s:%d: CHECK failed: %s == 0x%x (got 0x%x)\n",
			file, line, f[i].name, f[i].value, got);
	}
}

/* SET_FIELDS(buf, FIELD(PRM_X, v), ...): sets each field of buf. */
#define SET_FIELDS(buf, ...) set_fields((buf), FIELD_LIST(__VA_ARGS__))

static inline void set_fields(uint8_t *buf, const struct field_value *f,
			      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		prm_set(buf, f[i].off, f[i].width, f[i].value);
}

static inline uint32_t syndrome(const struct mbox *m)
{
	return prm_get(m->out, PRM_OUT_SYNDROME);
}

/*
 * A 16-byte command on one object, named by its id in field (off, width);
 * returns the status and, when synd is not NULL, gives the syndrome.
 */
static inline int run_on_id(struct emu_fw *fw, uint16_t opcode, uint16_t uid,
			    unsigned int off, unsigned int width, uint32_t id,
			    uint32_t *synd)
{
	struct mbox m;
	int status;

	mbox_init(&m, opcode, uid, 0);
	prm_set(m.in, off, width, id);
	status = run(fw, &m, PRM_HDR_LEN, PRM_HDR_LEN);
	if (synd)
		*synd = syndrome(&m);
	return status;
}

/* Creates a user context as the kernel does; returns its uid or 0. */
static inline uint16_t make_uctx(struct emu_fw *fw)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_UCTX, 0, 0);
	if (run(fw, &m, PRM_CREATE_UCTX_IN_LEN, 16))
		return 0;
	return prm_get(m.out, PRM_UCTX_OUT_UID);
}

/* A new device with two user contexts, uid and other (REQUIREd). */
static inline struct emu_fw *fw_two_uctx(uint16_t *uid, uint16_t *other)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);

	REQUIRE(fw);
	*uid = make_uctx(fw);
	*other = make_uctx(fw);
	REQUIRE(*uid && *other);
	return fw;
}

static inline int destroy_uctx(struct emu_fw *fw, uint16_t uid)
{
	return run_on_id(fw, PRM_OP_DESTROY_UCTX, 0, PRM_DESTROY_UCTX_UID,
			 uid, NULL);
}

#endif
