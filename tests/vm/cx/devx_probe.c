// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Milestone (c) in the guest: the system's libmlx5 opens the first mlx5
 * device with DEVX, a DEVX general command (QUERY_HCA_CAP, general caps)
 * reaches the firmware and answers the profile the device gives the
 * kernel (InfiniBand port, XRC), and a DEVX object (a PD) is made and
 * destroyed.  Prints what it saw; exits 0 when all of it held.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "devx_objs.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

int main(void)
{
	uint8_t in[PRM_HDR_LEN] = { 0 };
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_LEN] = { 0 };
	const uint8_t *cap = out + PRM_CAP_AREA_BYTE;
	struct mlx5dv_devx_obj *pd;
	struct ibv_context *ctx;
	uint32_t pdn = 0;
	int ret;

	ctx = devx_open(NULL, 0);
	if (!ctx) {
		printf("FAIL: mlx5dv_open_device with DEVX: %s\n",
		       strerror(errno));
		return 1;
	}
	printf("opened %s with DEVX\n", ibv_get_device_name(ctx->device));
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
	if (ret) {
		printf("FAIL: DEVX QUERY_HCA_CAP: %s (status 0x%x)\n",
		       strerror(ret), out[0]);
		return 1;
	}
	printf("QUERY_HCA_CAP: vhca_id %u port_type %u xrc %u\n",
	       prm_get(cap, PRM_CAP_VHCA_ID), prm_get(cap, PRM_CAP_PORT_TYPE),
	       prm_get(cap, PRM_CAP_XRC));
	if (prm_get(cap, PRM_CAP_PORT_TYPE) != 0 ||
	    !prm_get(cap, PRM_CAP_XRC)) {
		printf("FAIL: not the kernel profile (IB port, XRC)\n");
		return 1;
	}
	pd = pd_alloc(ctx, &pdn);
	if (!pd) {
		printf("FAIL: DEVX ALLOC_PD: %s\n", strerror(errno));
		return 1;
	}
	printf("DEVX PD 0x%x\n", pdn);
	ret = mlx5dv_devx_obj_destroy(pd);
	if (ret) {
		printf("FAIL: DEVX destroy of the PD: %s\n", strerror(ret));
		return 1;
	}
	ibv_close_device(ctx);
	printf("PASS: DEVX on the real kernel\n");
	return 0;
}
