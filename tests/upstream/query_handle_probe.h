/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The upstream tests' question to the kernel (or mlx5-emu), asked apart
 * from the libraries under test: does it have the core handle query,
 * UVERBS_METHOD_QUERY_HANDLE (ids: kernel-headers/rdma_uapi_compat.h)?
 */
#ifndef MLX5_SHARE_TEST_QUERY_HANDLE_PROBE_H
#define MLX5_SHARE_TEST_QUERY_HANDLE_PROBE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "rdma_uapi_compat.h"

/*
 * Does the kernel behind cmd_fd have UVERBS_METHOD_QUERY_HANDLE?  Asked
 * of a handle no object has: ENOENT with it, EPROTONOSUPPORT without.
 */
static inline bool query_handle_present(int cmd_fd)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[3];
	} r;
	uint64_t cookie;

	memset(&r, 0, sizeof(r));
	r.hdr.length = sizeof(r);
	r.hdr.object_id = UVERBS_OBJECT_DEVICE;
	r.hdr.method_id = UVERBS_METHOD_QUERY_HANDLE;
	r.hdr.num_attrs = 3;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	r.attrs[0].attr_id = UVERBS_ATTR_QUERY_HANDLE_HANDLE;
	r.attrs[0].len = sizeof(uint64_t);
	r.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[0].data = UINT32_MAX - 1;
	r.attrs[1].attr_id = UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID;
	r.attrs[1].len = sizeof(uint64_t);
	r.attrs[1].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[1].data = MLX5_IB_OBJECT_DEVX_OBJ;
	r.attrs[2].attr_id = UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE;
	r.attrs[2].len = sizeof(cookie);
	r.attrs[2].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[2].data = (uintptr_t)&cookie;
	if (!ioctl(cmd_fd, RDMA_VERBS_IOCTL, &r.hdr))
		return true;
	return errno != EPROTONOSUPPORT && errno != EOPNOTSUPP &&
	       errno != ENOTTY;
}

#endif
