/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Does the kernel behind a command fd have the DEVX handle query
 * (MLX5_IB_METHOD_DEVX_QUERY_HANDLES, kernel-headers/rdma_uapi_compat.h)?
 * Tests whose expectations differ with it ask here, apart from the
 * library, so that a library that stopped asking it would fail them.
 * Link the test with rdma_uapi_compat.
 */
#ifndef MLX5_SHARE_TEST_QUERY_HANDLES_PROBE_H
#define MLX5_SHARE_TEST_QUERY_HANDLES_PROBE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "rdma_uapi_compat.h"

/*
 * The method with one handle no object has: a kernel that has it answers
 * ENOENT, one without it EPROTONOSUPPORT.
 */
static inline bool query_handles_present(int cmd_fd)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[2];
	} r;
	struct mlx5_ib_devx_handle_info info;
	uint32_t handle = UINT32_MAX - 1;

	memset(&r, 0, sizeof(r));
	r.hdr.length = sizeof(r);
	r.hdr.object_id = MLX5_IB_OBJECT_DEVX;
	r.hdr.method_id = MLX5_IB_METHOD_DEVX_QUERY_HANDLES;
	r.hdr.num_attrs = 2;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	r.attrs[0].attr_id = MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN;
	r.attrs[0].len = sizeof(handle);
	r.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	memcpy(&r.attrs[0].data, &handle, sizeof(handle));
	r.attrs[1].attr_id = MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT;
	r.attrs[1].len = sizeof(info);
	r.attrs[1].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[1].data = (uintptr_t)&info;
	if (!ioctl(cmd_fd, RDMA_VERBS_IOCTL, &r.hdr))
		return true;
	return errno != EPROTONOSUPPORT && errno != ENOTTY;
}

#endif
