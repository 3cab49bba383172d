/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Access to fields of PRM command mailboxes.  The PRM describes every
 * mailbox as a big-endian bit string; a field is named here by its bit
 * offset from the start of the mailbox and its width in bits, written as
 * one macro that expands to both ("PRM_HDR_OPCODE" -> "0x00, 16"), so a
 * call reads prm_get(in, PRM_HDR_OPCODE).
 *
 * A field of up to 32 bits never crosses a 32-bit word in the PRM, and a
 * 64-bit field starts on a word; the helpers rely on that and on the
 * caller having checked the mailbox length (see prm_fits()).
 */
#ifndef MLX5_PRM_BITS_H
#define MLX5_PRM_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint32_t prm_be32_load(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void prm_be32_store(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint32_t prm_mask(unsigned int width)
{
	return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

/* True when the field lies inside a mailbox of len bytes. */
static inline bool prm_fits(size_t len, unsigned int off, unsigned int width)
{
	return (size_t)off + width <= len * 8;
}

static inline uint32_t prm_get(const void *buf, unsigned int off,
			       unsigned int width)
{
	const uint8_t *word = (const uint8_t *)buf + off / 32 * 4;
	unsigned int shift = 32 - off % 32 - width;

	return prm_be32_load(word) >> shift & prm_mask(width);
}

static inline void prm_set(void *buf, unsigned int off, unsigned int width,
			   uint32_t val)
{
	uint8_t *word = (uint8_t *)buf + off / 32 * 4;
	unsigned int shift = 32 - off % 32 - width;
	uint32_t mask = prm_mask(width) << shift;
	uint32_t old = prm_be32_load(word);

	prm_be32_store(word, (old & ~mask) | (val << shift & mask));
}

static inline uint64_t prm_get64(const void *buf, unsigned int off,
				 unsigned int width)
{
	(void)width;
	return (uint64_t)prm_get(buf, off, 32) << 32 |
	       prm_get(buf, off + 32, 32);
}

static inline void prm_set64(void *buf, unsigned int off, unsigned int width,
			     uint64_t val)
{
	(void)width;
	prm_set(buf, off, 32, val >> 32);
	prm_set(buf, off + 32, 32, (uint32_t)val);
}

/* Reads a field, or 0 when it lies beyond a mailbox of len bytes. */
static inline uint32_t prm_get_in(const void *buf, size_t len,
				  unsigned int off, unsigned int width)
{
	return prm_fits(len, off, width) ? prm_get(buf, off, width) : 0;
}

/* A field's bit offset as a constant expression (for static tables). */
#define PRM_OFF(off_width) PRM_OFF_(off_width)
#define PRM_OFF_(off, width) (off)

/* Byte offset of a field (for the memcpy of whole sub-structures). */
#define PRM_BYTE(off_width) (prm_byte_of(off_width))
static inline size_t prm_byte_of(unsigned int off, unsigned int width)
{
	(void)width;
	return off / 8;
}

#endif
