/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Lookup in the firmware model's const tables keyed by command opcode
 * (the command table, DEVX's create descriptions, the QP transitions):
 * each entry's first member is its uint16_t opcode.
 */
#ifndef MLX5_EMU_OPCODE_TABLE_H
#define MLX5_EMU_OPCODE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The entry for opcode among n entries of size bytes, or NULL. */
static inline const void *opcode_table_find(const void *table, size_t n,
					    size_t size, uint16_t opcode)
{
	const unsigned char *entry = table;
	uint16_t op;
	size_t i;

	for (i = 0; i < n; i++, entry += size) {
		memcpy(&op, entry, sizeof(op));
		if (op == opcode)
			return entry;
	}
	return NULL;
}

/* opcode_table_find() of an array whose entries begin with .opcode. */
#define OPCODE_TABLE_FIND(array, opcode)                                   \
	opcode_table_find(array, sizeof(array) / sizeof((array)[0]),       \
			  sizeof((array)[0]), opcode)

#endif
