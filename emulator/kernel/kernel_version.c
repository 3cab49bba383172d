// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>

#include "kernel_version.h"

int emu_kernel_parse(const char *s)
{
	unsigned long maj, min;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	maj = strtoul(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -1;
	min = strtoul(end + 1, &end, 10);
	if (*end || maj > 99 || min > 255)
		return -1;
	if (EMU_KV(maj, min) < EMU_KERNEL_OLDEST_KV)
		return -1;
	return (int)EMU_KV(maj, min);
}

unsigned int emu_kernel_version(void)
{
	static int version;

	if (!version) {
		version = emu_kernel_parse(getenv(EMU_KERNEL_ENV));
		if (version < 0)
			version = emu_kernel_parse(EMU_KERNEL_DEFAULT);
	}
	return (unsigned int)version;
}
