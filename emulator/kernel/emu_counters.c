// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-emu's own counters method (emu_counters.h): what a file's ioctls
 * cost, for tests that must show it.
 */
#include <stdint.h>

#include "emu_counters.h"
#include "uverbs.h"

/* EMU_METHOD_COUNTERS: the caller's ufile's counts, and its device's */
int emu_h_emu_counters(struct emu_bundle *b)
{
	struct emu_counters c = {
		.ioctls = b->uf->ioctls,
		.fw_cmds = b->uf->fw_cmds,
		.dev_fw_cmds = b->dev->fw_cmds,
	};
	uint32_t which;

	if (!emu_copy_from(b, EMU_ATTR_COUNTERS_METHOD, &which,
			   sizeof(which))) {
		const struct emu_method_spec *m =
			emu_find_method(which >> 16, which & 0xffff);

		if (m)
			c.method_ioctls =
				b->uf->method_ioctls[emu_method_index(m)];
	}
	return emu_copy_to(b, EMU_ATTR_COUNTERS_OUT, &c, sizeof(c));
}
