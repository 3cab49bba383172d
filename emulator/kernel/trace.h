/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * MLX5_EMU_TRACE=1: every decoded ioctl and every firmware command on
 * stderr, one line each, prefixed "mlx5-emu:".
 */
#ifndef MLX5_EMU_TRACE_H
#define MLX5_EMU_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct emu_ufile;
struct emu_device;

extern int emu_trace_on;

void emu_trace_init(void);
void emu_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void emu_trace_ioctl(const struct emu_ufile *uf, uint32_t pid,
		     const uint8_t *payload, size_t len, int ret);
void emu_trace_fw(const struct emu_device *dev, const void *in, size_t inlen,
		  const void *out, size_t outlen, int ret);

#endif
