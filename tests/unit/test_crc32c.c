// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The two CRC-32C paths agree: the SSE4.2 instruction path (where this
 * CPU has it) and the table, forced with crc32c_force_portable(), give
 * the same value for the same bytes, at every length and alignment that
 * matters to an eight-bytes-at-a-time loop, and the known check value;
 * crc32c_words() and crc32c_words_inline() over words are
 * crc32c_update() over their little-endian bytes, on both paths, at
 * every word count up to a blob's and past it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "check.h"
#include "crc32c.h"

#define NAME "unit_crc32c"

static uint32_t crc(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}

int main(void)
{
	unsigned char buf[512 + 8];
	uint32_t hw, sw, blob_hw;
	size_t len, off, i;
	unsigned int seed = 12345;
	bool have_hw;

	for (i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = seed >> 16;
	}

	have_hw = crc32c_hw_in_use();
	printf("%s: hardware CRC-32C %s\n", NAME,
	       have_hw ? "in use" : "not available: comparing the table "
	       "with itself");
	CHECK_EQ(crc("123456789", 9), 0xe3069283u);
	crc32c_force_portable(true);
	CHECK(!crc32c_hw_in_use());
	CHECK_EQ(crc("123456789", 9), 0xe3069283u);
	crc32c_force_portable(false);
	CHECK_EQ(crc32c_hw_in_use(), have_hw);

	for (off = 0; off < 8; off++) {
		for (len = 0; len <= 512; len++) {
			crc32c_force_portable(false);
			hw = crc(buf + off, len);
			crc32c_force_portable(true);
			sw = crc(buf + off, len);
			if (hw != sw) {
				CHECK_EQ(hw, sw);
				fprintf(stderr, "off %zu len %zu\n", off, len);
			}
		}
	}
	/* Continuing a CRC across calls is the same as one pass. */
	crc32c_force_portable(false);
	hw = ~crc32c_update(crc32c_update(~0u, buf, 13), buf + 13, 51);
	CHECK_EQ(hw, crc(buf, 64));

	/* Words: the numbers whose little-endian bytes buf holds. */
	for (len = 0; len <= 16; len++) {
		uint64_t w[16];

		for (i = 0; i < len; i++) {
			w[i] = 0;
			for (off = 0; off < 8; off++)
				w[i] |= (uint64_t)buf[8 * i + off] << (8 * off);
		}
		for (off = 0; off < 2; off++) {
			crc32c_force_portable(off);
			if (crc32c_words(~0u, w, len) !=
			    crc32c_update(~0u, buf, 8 * len) ||
			    crc32c_words_inline(~0u, w, len) !=
			    crc32c_update(~0u, buf, 8 * len)) {
				CHECK(!"crc32c_words differs from the bytes'");
				fprintf(stderr, "words %zu portable %zu\n",
					len, off);
			}
		}
	}

	/* The blob checksum, both ways. */
	crc32c_force_portable(false);
	blob_hw = blob_checksum(buf, BLOB_DEVX_OBJ_SIZE);
	crc32c_force_portable(true);
	CHECK_EQ(blob_checksum(buf, BLOB_DEVX_OBJ_SIZE), blob_hw);
	crc32c_force_portable(false);
	return check_done(NAME);
}
