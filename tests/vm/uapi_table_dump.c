// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Prints mlx5-emu's method table (emulator/kernel/uapi_spec.c) and its
 * not-modelled list as the rows uapi_table_check.py compares with the
 * kernel's declarations: one line per attribute,
 *   OBJ METHOD ATTR KIND ACCESS MANDATORY ZERO_TRAILING OBJ_TYPE MIN MAX
 *   WHERE
 *   OBJ_NAME METHOD_NAME ATTR_NAME [series|emu-own]
 * (series: an attribute only the linux/ series declares)
 * then "not-modelled NAME REASON" lines.
 */
#include <stdio.h>

#include "emu_counters.h"
#include "uapi_not_modelled.h"
#include "uapi_spec.h"

static const char *const kinds[] = {
	[EMU_ATTR_PTR_IN] = "PTR_IN",
	[EMU_ATTR_PTR_OUT] = "PTR_OUT",
	[EMU_ATTR_IDR] = "IDR",
	[EMU_ATTR_FD] = "FD",
	[EMU_ATTR_IDRS_ARRAY] = "IDRS",
	[EMU_ATTR_RAW_FD] = "RAW_FD",
};

static const char *const accesses[] = {
	[EMU_ACCESS_READ] = "READ",
	[EMU_ACCESS_WRITE] = "WRITE",
	[EMU_ACCESS_NEW] = "NEW",
	[EMU_ACCESS_DESTROY] = "DESTROY",
};

static void print_attr(const struct emu_method_spec *m,
		       const struct emu_attr_spec *a)
{
	bool ptr = a->type == EMU_ATTR_PTR_IN || a->type == EMU_ATTR_PTR_OUT ||
		   a->type == EMU_ATTR_RAW_FD;
	bool own = m->object_id == EMU_OBJECT_TEST ||
		   m->object_id == EMU_OBJECT_EMU;

	printf("%u %u %u %s %s %d %d %u %u %u uapi_spec.c %s %s %s%s\n",
	       m->object_id, m->method_id, a->id, kinds[a->type],
	       ptr ? "-" : accesses[a->access], a->mandatory ? 1 : 0,
	       a->zero_trailing ? 1 : 0,
	       ptr ? 0u : a->obj_type,
	       a->type == EMU_ATTR_IDR || a->type == EMU_ATTR_FD ?
		       0u : a->min_len,
	       a->type == EMU_ATTR_IDR || a->type == EMU_ATTR_FD ?
		       0u : a->max_len,
	       emu_object_name(m->object_id), m->name, a->name,
	       own ? " emu-own" : a->v3 ? " series" : "");
}

int main(void)
{
	unsigned int i, j;

	for (i = 0; i < emu_method_count(); i++) {
		const struct emu_method_spec *m = emu_method_at(i);

		for (j = 0; j < m->nattrs; j++)
			print_attr(m, &m->attrs[j]);
	}
	for (i = 0; i < emu_not_modelled_count; i++)
		printf("not-modelled %s %s\n", emu_not_modelled[i].name,
		       emu_not_modelled[i].reason);
	return 0;
}
