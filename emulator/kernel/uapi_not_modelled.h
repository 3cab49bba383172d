/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's uverbs methods and attributes mlx5-emu does not model, each
 * with the reason.  The vm label's table check (tests/vm/uapi_table.sh)
 * accepts a kernel declaration missing from uapi_spec.c only when this
 * list names it, and fails on an entry the kernel no longer declares or
 * the table models; mlx5-emu(1) NOT MODELLED says the same.
 */
#ifndef MLX5_EMU_UAPI_NOT_MODELLED_H
#define MLX5_EMU_UAPI_NOT_MODELLED_H

struct emu_not_modelled {
	/* a method's id name, or METHOD/ATTRIBUTE for one attribute */
	const char *name;
	const char *reason;
};

extern const struct emu_not_modelled emu_not_modelled[];
extern const unsigned int emu_not_modelled_count;

#endif
