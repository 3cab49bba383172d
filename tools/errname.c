// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdio.h>
#include <string.h>

#include "errname.h"

const char *errname(int err)
{
	static char buf[16];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}
