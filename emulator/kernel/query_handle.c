// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Kernel design v2's core handle query (kernel-headers/rdma_uapi_compat.h,
 * UVERBS_METHOD_QUERY_HANDLE) and the cookie it answers: every uobject of
 * every ufile of every emulated function gets one when it is allocated,
 * from one generator for the whole emulated machine, as the kernel's
 * gen_cookie_next() serves the whole system.  The daemon serves every call
 * under one model lock, so one counter stands for the kernel's per-CPU
 * batches: what matters to a caller (never 0, never given twice while the
 * machine runs, unrelated to the device, the ufile or the handle) holds.
 * With mlx5-emu run --query-handles=off the method does not exist
 * (uverbs_ioctl.c answers it as an unknown method).
 *
 * Also mlx5-emu's own counters method (emu_counters.h).
 */
#include <errno.h>
#include <stdint.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include "rdma_uapi_compat.h"

#include "emu_counters.h"
#include "uverbs.h"

/*
 * Starts far from 0 so that no test can mistake a cookie for a handle,
 * an object id or a per-device count.
 */
static uint64_t last_cookie = 0x100000000ull;

uint64_t emu_cookie_next(void)
{
	return ++last_cookie;
}

/*
 * UVERBS_HANDLER(UVERBS_METHOD_QUERY_HANDLE): an object type the device
 * does not know -> EINVAL; no live, committed uobject of that type under
 * the handle in the caller's ufile (never allocated, destroyed, still
 * being created, another type, or a file-descriptor type, which has no
 * handles) -> ENOENT.  The lookup takes no lock: a uobject held shared or
 * exclusive by a call in progress answers as any other, and nothing it
 * does can make a concurrent destroy fail.  No firmware command.
 */
int emu_h_query_handle(struct emu_bundle *b)
{
	const struct emu_object_spec *o;
	struct emu_uobj *uo;
	int64_t handle, object_id;
	int ret;

	ret = emu_get_const(b, UVERBS_ATTR_QUERY_HANDLE_HANDLE, &handle, 0,
			    UINT32_MAX, NULL);
	if (ret)
		return ret;
	ret = emu_get_const(b, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, &object_id,
			    0, UINT16_MAX, NULL);
	if (ret)
		return ret;
	o = emu_find_object((uint16_t)object_id);
	if (!o)
		return -EINVAL;
	uo = emu_uobj_find(b->uf, (uint32_t)handle);
	if (!uo || !uo->committed || uo->type != object_id || o->is_fd)
		return -ENOENT;
	return emu_copy_to(b, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE,
			   &uo->cookie, sizeof(uo->cookie));
}

/* EMU_METHOD_COUNTERS: the caller's ufile's counts, and its device's */
int emu_h_emu_counters(struct emu_bundle *b)
{
	struct emu_counters c = {
		.ioctls = b->uf->ioctls,
		.fw_cmds = b->uf->fw_cmds,
		.dev_fw_cmds = b->dev->fw_cmds,
	};
	uint32_t which;

	if (!emu_copy_from(b, EMU_ATTR_COUNTERS_METHOD, &which,
			   sizeof(which))) {
		const struct emu_method_spec *m =
			emu_find_method(which >> 16, which & 0xffff);

		if (m)
			c.method_ioctls =
				b->uf->method_ioctls[emu_method_index(m)];
	}
	return emu_copy_to(b, EMU_ATTR_COUNTERS_OUT, &c, sizeof(c));
}
