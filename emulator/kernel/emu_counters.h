/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-emu's counters, for tests that must show what a call costs: how
 * many uverbs ioctls a uverbs file received (in all, and of one method)
 * and how many firmware commands they made the device run.  Read with
 * the emulator-only method EMU_METHOD_COUNTERS of EMU_OBJECT_EMU
 * (uapi_spec.h) on the file's descriptor; no kernel has it (a real one
 * answers EPROTONOSUPPORT).  That ioctl itself is not counted.
 */
#ifndef MLX5_EMU_COUNTERS_H
#define MLX5_EMU_COUNTERS_H

#include <stdint.h>

#define EMU_OBJECT_EMU 0x1fee
#define EMU_METHOD_COUNTERS 0x1000

enum {
	/* optional u32: object id << 16 | method id, for method_ioctls */
	EMU_ATTR_COUNTERS_METHOD = 0x1000,
	/* struct emu_counters, or a shorter prefix of it */
	EMU_ATTR_COUNTERS_OUT = 0x1001,
};

struct emu_counters {
	/* every ioctl on the file (any process), failed ones included */
	uint64_t ioctls;
	/* those of the method EMU_ATTR_COUNTERS_METHOD names (else 0) */
	uint64_t method_ioctls;
	/* firmware commands run while serving the file's ioctls */
	uint64_t fw_cmds;
	/* every firmware command the file's device ran, for anyone */
	uint64_t dev_fw_cmds;
};

#endif
