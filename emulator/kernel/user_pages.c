// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The page list the kernel hands the firmware for user memory a verbs CQ
 * or QP lives in (ib_umem_get() pins it, mlx5_ib_populate_pas() lists
 * it).  The model pins nothing: the firmware never touches the memory,
 * so the list only has to have the right length; its bus addresses are
 * made up from the user address, as DEVX UMEM registration makes them.
 */
#include "prm_bits.h"
#include "prm_layout.h"
#include "uverbs.h"

#define EMU_PAGE_SHIFT 12
#define EMU_BUS_BASE 0x100000000ull

uint64_t emu_user_pages(uint64_t addr, uint64_t len, uint8_t *pas)
{
	uint64_t first = addr >> EMU_PAGE_SHIFT;
	uint64_t mask = (1ull << EMU_PAGE_SHIFT) - 1;
	uint64_t n, i;

	if (!len)
		return 0;
	n = ((addr & mask) + len + mask) >> EMU_PAGE_SHIFT;
	for (i = 0; pas && i < n; i++)
		prm_set64(pas + PRM_PAS_ENTRY_LEN * i, PRM_PAS_ADDR,
			  EMU_BUS_BASE + ((first + i) << EMU_PAGE_SHIFT));
	return n;
}
