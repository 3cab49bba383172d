/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-emu firmware model: the PRM command interface of one emulated
 * mlx5 device.  The kernel model hands it command mailboxes exactly as
 * the kernel's mlx5_cmd_exec() hands them to real firmware (big-endian
 * PRM layouts, opcode at in[0..1], uid at in[2..3]), and it answers with
 * an output mailbox whose status (out[0]) and syndrome (out[4..7]) are
 * set as real firmware sets them.
 */
#ifndef MLX5_EMU_FW_H
#define MLX5_EMU_FW_H

#include <stddef.h>
#include <stdint.h>

struct emu_fw;

/* One device's firmware; node_guid seeds its identity (caps, vport). */
struct emu_fw *emu_fw_new(uint64_t node_guid);
void emu_fw_free(struct emu_fw *fw);

/*
 * Runs one command.  Returns 0 when the command reached the firmware (the
 * PRM status in out may still be non-zero: that is the firmware's answer,
 * which the kernel passes back to user space as it is), or a negative
 * errno for what the kernel's command layer itself rejects (an input
 * shorter than the command header: -EINVAL; an output shorter than 16
 * bytes: -EINVAL).  Thread-safe: serialises on a lock of its own.
 */
int emu_fw_exec(struct emu_fw *fw, const void *in, size_t inlen,
		void *out, size_t outlen);

/* PRM status values the model uses (mlx5_ifc / PRM "Command Status"). */
enum {
	EMU_FW_STATUS_OK = 0x0,
	EMU_FW_STATUS_INT_ERR = 0x1,
	EMU_FW_STATUS_BAD_OP = 0x2,
	EMU_FW_STATUS_BAD_PARAM = 0x3,
	EMU_FW_STATUS_BAD_SYS_STATE = 0x4,
	EMU_FW_STATUS_BAD_RES = 0x5,
	EMU_FW_STATUS_RES_BUSY = 0x6,
	EMU_FW_STATUS_EXCEED_LIM = 0x8,
	EMU_FW_STATUS_BAD_RES_STATE = 0x9,
	EMU_FW_STATUS_BAD_INDEX = 0xa,
	EMU_FW_STATUS_NO_RESOURCES = 0xf,
	EMU_FW_STATUS_BAD_INPUT_LEN = 0x50,
	EMU_FW_STATUS_BAD_OUTPUT_LEN = 0x51,
};

#endif
