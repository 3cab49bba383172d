/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One emulated mlx5 device: what the kernel's struct mlx5_ib_dev holds
 * that the model needs (identity, firmware, resource numbering).
 */
#ifndef MLX5_EMU_DEVICE_H
#define MLX5_EMU_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

struct emu_fw;

#define EMU_NUM_COMP_VECTORS 4
#define EMU_NUM_VAR_PAGES 64
#define EMU_NUM_UAR_PAGES 256
#define EMU_PCI_DEVICE_ID 0x101b	/* ConnectX-6 */
#define EMU_FW_VER_MAJOR 20
#define EMU_FW_VER_MINOR 31
#define EMU_FW_VER_SUB 1014

struct emu_device {
	unsigned int index;		/* mlx5_<index>, uverbs<index> */
	uint64_t node_guid;		/* host order */
	uint64_t sys_image_guid;
	struct emu_fw *fw;
	uint16_t whitelist_uid;		/* mlx5_ib_devx_init(), 0: none */
	bool var_used[EMU_NUM_VAR_PAGES];
	bool uar_used[EMU_NUM_UAR_PAGES];
	int clock_fd;			/* memfd of the core clock page */
};

/*
 * Set (by mlx5-emu run --same-guid) in the launcher's environment, which
 * the sysfs writer and the daemon share: every device gets device 0's GUID.
 */
#define EMU_SAME_GUID_ENV "MLX5_EMU_SAME_GUID"

/*
 * Node GUIDs are distinct per device, 0x0002c903 00ab cd<index>, unless
 * EMU_SAME_GUID_ENV is set.
 */
uint64_t emu_device_guid(unsigned int index);
int emu_device_init(struct emu_device *dev, unsigned int index);
void emu_device_fini(struct emu_device *dev);

#endif
