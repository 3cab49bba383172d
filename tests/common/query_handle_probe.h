/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's core handle query (UVERBS_METHOD_QUERY_HANDLE,
 * kernel-headers/rdma_uapi_compat.h) asked directly, apart from the
 * library: tests whose expectations differ with it ask here, so that a
 * library that stopped asking it would fail them, and tests that compare
 * the library's answers with the kernel's read the cookie here.  Link
 * the test with rdma_uapi_compat.
 */
#ifndef MLX5_SHARE_TEST_QUERY_HANDLE_PROBE_H
#define MLX5_SHARE_TEST_QUERY_HANDLE_PROBE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "rdma_uapi_compat.h"

/*
 * The cookie of the object of uverbs type object_id under handle in the
 * file behind cmd_fd: 0, or the errno (ENOENT, EINVAL, EPROTONOSUPPORT
 * when the kernel has no such method...).  *valid, when not NULL, gets
 * the output's UVERBS_ATTR_F_VALID_OUTPUT flag.
 */
static inline int query_handle(int cmd_fd, uint32_t handle,
			       uint16_t object_id, uint64_t *cookie,
			       bool *valid)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[3];
	} r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.hdr.length = sizeof(r);
	r.hdr.object_id = UVERBS_OBJECT_DEVICE;
	r.hdr.method_id = UVERBS_METHOD_QUERY_HANDLE;
	r.hdr.num_attrs = 3;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	r.attrs[0].attr_id = UVERBS_ATTR_QUERY_HANDLE_HANDLE;
	r.attrs[0].len = 8;
	r.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[0].data = handle;
	r.attrs[1].attr_id = UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID;
	r.attrs[1].len = 8;
	r.attrs[1].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[1].data = object_id;
	r.attrs[2].attr_id = UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE;
	r.attrs[2].len = sizeof(*cookie);
	r.attrs[2].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[2].data = (uintptr_t)cookie;
	ret = ioctl(cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
	if (valid)
		*valid = r.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT;
	return ret;
}

/*
 * The method with a handle no object has: a kernel that has it answers
 * ENOENT, one without it EPROTONOSUPPORT.
 */
static inline bool query_handle_present(int cmd_fd)
{
	uint64_t cookie;
	int ret = query_handle(cmd_fd, UINT32_MAX - 1, UVERBS_OBJECT_PD,
			       &cookie, NULL);

	return ret != EPROTONOSUPPORT && ret != EOPNOTSUPP && ret != ENOTTY;
}

/*
 * Does the kernel under test have the method?  Under mlx5-emu, what its
 * --query-handles says (MLX5_EMU_QUERY_HANDLES, seen by the command too),
 * so that a library or an emulator that does not speak this method fails
 * the tests instead of being judged as a kernel without it; elsewhere
 * the probe above.
 */
static inline bool query_handle_expected(int cmd_fd)
{
	const char *qh = getenv("MLX5_EMU_QUERY_HANDLES");

	if (getenv("MLX5_EMU_DIR"))
		return !qh || strcmp(qh, "0");
	return query_handle_present(cmd_fd);
}

#endif
