/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * emu_counters_read(): what a uverbs file has cost so far under mlx5-emu
 * (emulator/kernel/emu_counters.h): its ioctls, in all and of one method,
 * and the firmware commands they ran.  Tests take the difference of two
 * readings around the calls they measure; the reading itself counts for
 * nothing.  Link the test with test_emu_counters.
 */
#ifndef MLX5_SHARE_TEST_EMU_COUNTERS_READ_H
#define MLX5_SHARE_TEST_EMU_COUNTERS_READ_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "emu_counters.h"

/*
 * The counters of the uverbs file cmd_fd (an ibv_context's cmd_fd), with
 * method_ioctls those of method_id of object_id.  0, or the errno: a
 * kernel that is not mlx5-emu has no such method (EPROTONOSUPPORT).
 */
static inline int emu_counters_read(int cmd_fd, uint16_t object_id,
				    uint16_t method_id,
				    struct emu_counters *c)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[2];
	} r;
	uint32_t which = (uint32_t)object_id << 16 | method_id;

	memset(&r, 0, sizeof(r));
	memset(c, 0, sizeof(*c));
	r.hdr.length = sizeof(r);
	r.hdr.object_id = EMU_OBJECT_EMU;
	r.hdr.method_id = EMU_METHOD_COUNTERS;
	r.hdr.num_attrs = 2;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	r.attrs[0].attr_id = EMU_ATTR_COUNTERS_METHOD;
	r.attrs[0].len = sizeof(which);
	memcpy(&r.attrs[0].data, &which, sizeof(which));
	r.attrs[1].attr_id = EMU_ATTR_COUNTERS_OUT;
	r.attrs[1].len = sizeof(*c);
	r.attrs[1].data = (uintptr_t)c;
	r.attrs[1].flags = UVERBS_ATTR_F_MANDATORY;
	return ioctl(cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
}

#endif
