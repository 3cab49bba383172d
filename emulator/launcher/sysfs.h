/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef MLX5_EMU_SYSFS_H
#define MLX5_EMU_SYSFS_H

/*
 * Writes <root>/class/infiniband_verbs and <root>/class/infiniband for
 * ndev mlx5 devices: what libibverbs reads through $SYSFS_PATH when RDMA
 * netlink is unavailable.  0 or -errno.
 */
int emu_sysfs_create(const char *root, unsigned int ndev);

#endif
