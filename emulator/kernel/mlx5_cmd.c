// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>

#include "../firmware/fw.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "emu_device.h"
#include "mlx5_cmd.h"
#include "trace.h"
#include "uverbs.h"

int emu_cmd_do(struct emu_device *dev, void *in, size_t inlen, void *out,
	       size_t outlen)
{
	int ret = emu_fw_exec(dev->fw, in, inlen, out, outlen);

	if (!ret && prm_get(out, PRM_OUT_STATUS))
		ret = -EREMOTEIO;
	/* what the counters show (emu_counters.h) */
	dev->fw_cmds++;
	if (emu_cur_ufile && emu_cur_ufile->dev == dev)
		emu_cur_ufile->fw_cmds++;
	emu_trace_fw(dev, in, inlen, out, outlen, ret);
	return ret;
}

int emu_cmd_exec(struct emu_device *dev, void *in, size_t inlen, void *out,
		 size_t outlen)
{
	int ret = emu_cmd_do(dev, in, inlen, out, outlen);

	if (ret == -EREMOTEIO)
		ret = emu_fw_status_errno(prm_get(out, PRM_OUT_STATUS));
	return ret;
}

uint8_t *emu_cmd_user_queue_in(uint16_t opcode, uint16_t uid, uint64_t addr,
			       uint64_t len, size_t pas_byte, size_t *inlen)
{
	uint64_t npages = emu_user_pages(addr, len, NULL);
	uint8_t *in;

	if (npages > EMU_USER_MAX_PAGES)
		return NULL;
	*inlen = pas_byte + PRM_PAS_ENTRY_LEN * npages;
	in = calloc(1, *inlen);
	if (!in)
		return NULL;
	emu_user_pages(addr, len, in + pas_byte);
	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_HDR_UID, uid);
	return in;
}

int emu_cmd_create(struct emu_device *dev, void *in, size_t inlen,
		   uint32_t *objn)
{
	uint8_t out[PRM_HDR_LEN] = {};
	int ret = emu_cmd_exec(dev, in, inlen, out, sizeof(out));

	if (!ret)
		*objn = prm_get(out, PRM_OUT_OBJN);
	return ret;
}

int emu_cmd_on_obj(struct emu_device *dev, uint16_t opcode, uint16_t uid,
		   uint32_t objn)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_HDR_LEN] = {};

	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_HDR_UID, uid);
	prm_set(in, PRM_IN_OBJN, objn);
	return emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int emu_mlx5_create_uctx(struct emu_device *dev, uint16_t *uid)
{
	uint8_t in[PRM_CREATE_UCTX_IN_LEN] = {}, out[PRM_HDR_LEN] = {};
	int ret;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_UCTX);
	ret = emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret)
		return ret;
	*uid = (uint16_t)prm_get(out, PRM_UCTX_OUT_UID);
	return 0;
}

void emu_mlx5_destroy_uctx(struct emu_device *dev, uint16_t uid)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_HDR_LEN] = {};

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_DESTROY_UCTX);
	prm_set(in, PRM_DESTROY_UCTX_UID, uid);
	emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int emu_mlx5_alloc_pd(struct emu_device *dev, uint16_t uid, uint32_t *pdn)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_HDR_LEN] = {};
	int ret;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_PD);
	prm_set(in, PRM_HDR_UID, uid);
	ret = emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret)
		return ret;
	*pdn = prm_get(out, PRM_PD_OUT);
	return 0;
}

int emu_uobj_fw_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
			enum emu_remove_reason why, uint16_t opcode,
			uint16_t uid, uint32_t objn)
{
	int ret;

	if (uo->users && why == EMU_REMOVE_DESTROY)
		return -EBUSY;
	ret = emu_cmd_on_obj(uf->dev, opcode, uid, objn);
	if (ret && why == EMU_REMOVE_DESTROY)
		return ret;
	free(uo->priv);
	uo->priv = NULL;
	return 0;
}
