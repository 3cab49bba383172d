// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <string.h>

#include "../firmware/fw.h"
#include "emu_device.h"
#include "mlx5_cmd.h"
#include "trace.h"

uint32_t emu_prm_get(const void *buf, unsigned int bit_off,
		     unsigned int width)
{
	const uint8_t *p = (const uint8_t *)buf + bit_off / 32 * 4;
	uint32_t word = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			(uint32_t)p[2] << 8 | p[3];
	uint32_t mask = width >= 32 ? ~0u : (1u << width) - 1;

	return word >> (32 - bit_off % 32 - width) & mask;
}

void emu_prm_set(void *buf, unsigned int bit_off, unsigned int width,
		 uint32_t val)
{
	uint8_t *p = (uint8_t *)buf + bit_off / 32 * 4;
	unsigned int shift = 32 - bit_off % 32 - width;
	uint32_t mask = (width >= 32 ? ~0u : (1u << width) - 1) << shift;
	uint32_t word = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			(uint32_t)p[2] << 8 | p[3];

	word = (word & ~mask) | (val << shift & mask);
	p[0] = word >> 24;
	p[1] = word >> 16;
	p[2] = word >> 8;
	p[3] = word;
}

int emu_cmd_do(struct emu_device *dev, void *in, size_t inlen, void *out,
	       size_t outlen)
{
	int ret = emu_fw_exec(dev->fw, in, inlen, out, outlen);

	if (!ret && ((uint8_t *)out)[0])
		ret = -EREMOTEIO;
	emu_trace_fw(dev, in, inlen, out, outlen, ret);
	return ret;
}

int emu_cmd_exec(struct emu_device *dev, void *in, size_t inlen, void *out,
		 size_t outlen)
{
	int ret = emu_cmd_do(dev, in, inlen, out, outlen);

	if (ret == -EREMOTEIO)
		ret = emu_fw_status_errno(((uint8_t *)out)[0]);
	return ret;
}

int emu_mlx5_create_uctx(struct emu_device *dev, uint16_t *uid)
{
	uint8_t in[64] = {}, out[16] = {};
	int ret;

	emu_prm_set(in, 0x00, 16, EMU_OP_CREATE_UCTX);
	ret = emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret)
		return ret;
	*uid = (uint16_t)emu_prm_get(out, 0x50, 16);
	return 0;
}

void emu_mlx5_destroy_uctx(struct emu_device *dev, uint16_t uid)
{
	uint8_t in[16] = {}, out[16] = {};

	emu_prm_set(in, 0x00, 16, EMU_OP_DESTROY_UCTX);
	emu_prm_set(in, 0x50, 16, uid);
	emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}

int emu_mlx5_alloc_pd(struct emu_device *dev, uint16_t uid, uint32_t *pdn)
{
	uint8_t in[16] = {}, out[16] = {};
	int ret;

	emu_prm_set(in, 0x00, 16, EMU_OP_ALLOC_PD);
	emu_prm_set(in, 0x10, 16, uid);
	ret = emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret)
		return ret;
	*pdn = emu_prm_get(out, 0x48, 24);
	return 0;
}

int emu_mlx5_dealloc_pd(struct emu_device *dev, uint16_t uid, uint32_t pdn)
{
	uint8_t in[16] = {}, out[16] = {};

	emu_prm_set(in, 0x00, 16, EMU_OP_DEALLOC_PD);
	emu_prm_set(in, 0x10, 16, uid);
	emu_prm_set(in, 0x48, 24, pdn);
	return emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
}
