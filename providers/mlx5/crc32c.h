/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the blob
 * checksum.  On x86-64 CPUs with SSE4.2 the crc32 instruction computes it
 * eight bytes at a time; elsewhere a table does, a byte at a time.  Which
 * one is decided once per process, on first use.  Both give the same
 * result for the same input (unit_crc32c checks).  Portable: libc only.
 */
#ifndef MLX5_SHARE_CRC32C_H
#define MLX5_SHARE_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Continues a CRC-32C over len bytes: crc is the running value without
 * the final inversion (start with ~0u, invert the result).
 */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

/*
 * crc32c_update() over n eight-byte words, each the number whose
 * little-endian bytes are the data: what a codec that holds a record in
 * registers checksums without laying its bytes out first.
 */
uint32_t crc32c_words(uint32_t crc, const uint64_t *w, size_t n);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32C_INLINE_HW 1
#include <stdatomic.h>

/*
 * True once crc32c_update() has chosen the CPU's crc32 instruction
 * (crc32c.c sets it; nothing else may).
 */
extern atomic_bool crc32c_inline_hw;

/*
 * crc32c_words() with the instruction inline, where the codec's hot
 * paths would otherwise pay a call and a loop for ten instructions.
 * Inline assembly needs no SSE4.2 build option; the flag guards it.
 */
static inline uint32_t crc32c_words_inline(uint32_t crc, const uint64_t *w,
					   size_t n)
{
	uint64_t c = crc;
	size_t i;

	if (!atomic_load_explicit(&crc32c_inline_hw, memory_order_relaxed))
		return crc32c_words(crc, w, n);
	/* A record's n is a constant: ten instructions, no loop. */
#pragma GCC unroll 16
	for (i = 0; i < n; i++)
		__asm__("crc32q %1, %0" : "+r"(c) : "rm"(w[i]));
	return c;
}
#else
static inline uint32_t crc32c_words_inline(uint32_t crc, const uint64_t *w,
					   size_t n)
{
	return crc32c_words(crc, w, n);
}
#endif

/* The table-driven path alone, whatever the CPU. */
uint32_t crc32c_update_portable(uint32_t crc, const void *buf, size_t len);

/* Does crc32c_update() use the CPU's crc32 instruction? */
bool crc32c_hw_in_use(void);

/*
 * Tests only: make crc32c_update() take the portable path (true), or
 * decide by the CPU again (false).
 */
void crc32c_force_portable(bool portable);

#endif
