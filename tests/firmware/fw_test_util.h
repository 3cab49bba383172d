/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers for the firmware model's tests: build a command mailbox, run
 * it, and read the status, syndrome and fields of the answer.
 */
#ifndef MLX5_EMU_FW_TEST_UTIL_H
#define MLX5_EMU_FW_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "fw.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define TEST_GUID 0x248a0703005e1a2bull

/* A command: input and output mailboxes big enough for every test. */
struct mbox {
	uint8_t in[2048];
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

static inline uint32_t syndrome(const struct mbox *m)
{
	return prm_get(m->out, PRM_OUT_SYNDROME);
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

static inline int destroy_uctx(struct emu_fw *fw, uint16_t uid)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_DESTROY_UCTX, 0, 0);
	prm_set(m.in, PRM_DESTROY_UCTX_UID, uid);
	return run(fw, &m, 16, 16);
}

#endif
