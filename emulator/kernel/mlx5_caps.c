// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_CAP_GEN(): the kernel reads the device's general capabilities
 * once at probe; the model asks its firmware each time, so the numbers
 * the kernel model checks against are the ones the firmware reports.
 */
#include <stdlib.h>

#include "mlx5_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "uverbs.h"

uint32_t emu_cap_gen(struct emu_device *dev, unsigned int off,
		     unsigned int width)
{
	uint8_t in[PRM_HDR_LEN] = {};
	uint8_t *out = calloc(1, PRM_QUERY_HCA_CAP_OUT_LEN);
	uint32_t v = 0;

	if (!out)
		return 0;
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	/* general capabilities, current values */
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	if (!emu_cmd_exec(dev, in, sizeof(in), out, PRM_QUERY_HCA_CAP_OUT_LEN))
		v = prm_get(out + PRM_CAP_AREA_BYTE, off, width);
	free(out);
	return v;
}
