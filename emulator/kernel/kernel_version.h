/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The Linux release the kernel model answers as (mlx5-emu run
 * --kernel=VERSION, default 6.12 with the linux/ series).  The launcher
 * hands it to the daemon and to the command in MLX5_EMU_KERNEL.  The
 * model departs from its 6.12 answers only where a rule names the
 * release that changed it (emu_kernel_before()).
 */
#ifndef MLX5_EMU_KERNEL_VERSION_H
#define MLX5_EMU_KERNEL_VERSION_H

#include <stdbool.h>

#define EMU_KERNEL_ENV "MLX5_EMU_KERNEL"
#define EMU_KERNEL_DEFAULT "6.12"
/* MAJOR.MINOR as one comparable number */
#define EMU_KV(maj, min) ((unsigned int)(maj) << 8 | (unsigned int)(min))

/* the oldest release accepted: older ones differ in more than is modelled */
#define EMU_KERNEL_OLDEST "5.4"
#define EMU_KERNEL_OLDEST_KV EMU_KV(5, 4)

/*
 * "MAJOR.MINOR" (no more, no less) as EMU_KV(); -1 when malformed or
 * older than EMU_KERNEL_OLDEST.
 */
int emu_kernel_parse(const char *s);
/* The release the model answers as: MLX5_EMU_KERNEL, read once. */
unsigned int emu_kernel_version(void);

static inline bool emu_kernel_before(unsigned int maj, unsigned int min)
{
	return emu_kernel_version() < EMU_KV(maj, min);
}

#endif
