/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One emulated mlx5 device: what the kernel's struct mlx5_ib_dev holds
 * that the model needs (identity, firmware, resource numbering).
 */
#ifndef MLX5_EMU_DEVICE_H
#define MLX5_EMU_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu_ibdev.h"

struct emu_fw;
struct emu_mmap_entry;

#define EMU_NUM_COMP_VECTORS 4
#define EMU_NUM_VAR_PAGES 64
#define EMU_NUM_UAR_PAGES 256

struct emu_device {
	unsigned int index;		/* mlx5_<index>, uverbs<index> */
	uint64_t node_guid;		/* host order */
	uint64_t sys_image_guid;
	struct emu_fw *fw;
	uint16_t whitelist_uid;		/* mlx5_ib_devx_init(), 0: none */
	/* mmap entries removed while mapped, of any ufile (mmap_entry.c) */
	struct emu_mmap_entry *mmaps_removed;
	bool var_used[EMU_NUM_VAR_PAGES];
	bool uar_used[EMU_NUM_UAR_PAGES];
	int clock_fd;			/* memfd of the core clock page */
	int clock_info_fd;		/* memfd of the clock info page */
	/*
	 * Kernel series v3: a ufile never gives a handle number or an mmap
	 * offset twice and QUERY_CONTEXT answers FILE_ID (mlx5-emu run
	 * --handles=unique); false: every released kernel, lowest free
	 * number and offset first
	 */
	bool unique_handles;
	/* the first handle number of each ufile in unique mode (0) */
	uint32_t first_handle;
	uint64_t fw_cmds;		/* firmware commands run, for anyone */
	/* mlx5_ib_dev.mkey_var: the low byte of the next user MR's key */
	uint8_t mkey_var;
};

/* Set by mlx5-emu run --handles=: "unique" (the default), "lowest-free" */
#define EMU_HANDLES_ENV "MLX5_EMU_HANDLES"
/*
 * A test seam, no kernel's setting: in unique mode every ufile's first
 * handle number (decimal, 0 to 2^31), so that a test reaches the end of
 * the range (ENOSPC) in a few creates.
 */
#define EMU_FIRST_HANDLE_ENV "MLX5_EMU_TEST_FIRST_HANDLE"
/* Set by mlx5-emu run --fw-ids=lowest-free: "lowest-free". */
#define EMU_FW_IDS_ENV "MLX5_EMU_FW_IDS"

int emu_device_init(struct emu_device *dev, unsigned int index);

#endif
