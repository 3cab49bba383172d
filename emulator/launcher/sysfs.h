/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef MLX5_EMU_SYSFS_H
#define MLX5_EMU_SYSFS_H

/*
 * Writes <root>/class/infiniband_verbs and <root>/class/infiniband for
 * ndev mlx5 devices: what libibverbs reads through $SYSFS_PATH when RDMA
 * netlink is unavailable.  0 or -errno.
 */
int emu_sysfs_create(const char *root, unsigned int ndev);

/*
 * Writes <root>/sys/kernel/random/boot_id: this emulated machine's boot
 * id, a random UUID drawn once per run, which the preload shows as the
 * kernel's /proc/sys/kernel/random/boot_id, so that a fresh mlx5-emu is a
 * fresh boot.  0 or -errno.
 */
int emu_procfs_create(const char *root);

#endif
