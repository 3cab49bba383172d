/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The verbs file's id (UVERBS_ATTR_QUERY_CONTEXT_FILE_ID of
 * UVERBS_METHOD_QUERY_CONTEXT, kernel series v3,
 * kernel-headers/rdma_uapi_compat.h) asked directly, apart from the
 * library: tests whose expectations differ with it ask here, so that a
 * library that stopped asking it would fail them, and tests that compare
 * a blob's file id with the kernel's read it here.  Link the test with
 * rdma_uapi_compat.
 */
#ifndef MLX5_SHARE_TEST_FILE_ID_PROBE_H
#define MLX5_SHARE_TEST_FILE_ID_PROBE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "rdma_uapi_compat.h"

/*
 * QUERY_CONTEXT on cmd_fd with the optional FILE_ID output: 0 or the
 * errno.  *id gets the id when the kernel wrote it, else 0; *valid, when
 * not NULL, whether it did (UVERBS_ATTR_F_VALID_OUTPUT).
 */
static inline int probe_file_id(int cmd_fd, uint64_t *id, bool *valid)
{
	struct mlx5_ib_alloc_ucontext_resp uctx;
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[2];
	} r;
	uint64_t got = 0;
	bool written;
	int ret;

	memset(&r, 0, sizeof(r));
	r.hdr.length = sizeof(r);
	r.hdr.object_id = UVERBS_OBJECT_DEVICE;
	r.hdr.method_id = UVERBS_METHOD_QUERY_CONTEXT;
	r.hdr.num_attrs = 2;
	r.hdr.driver_id = RDMA_DRIVER_MLX5;
	r.attrs[0].attr_id = MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX;
	r.attrs[0].len = sizeof(uctx);
	r.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	r.attrs[0].data = (uintptr_t)&uctx;
	r.attrs[1].attr_id = UVERBS_ATTR_QUERY_CONTEXT_FILE_ID;
	r.attrs[1].len = sizeof(got);
	r.attrs[1].data = (uintptr_t)&got;
	ret = ioctl(cmd_fd, RDMA_VERBS_IOCTL, &r.hdr) ? errno : 0;
	written = !ret && (r.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	*id = written ? got : 0;
	if (valid)
		*valid = written;
	return ret;
}

/* The id of the verbs file behind cmd_fd, 0 when the kernel has none. */
static inline uint64_t file_id_of(int cmd_fd)
{
	uint64_t id;

	return probe_file_id(cmd_fd, &id, NULL) ? 0 : id;
}

/*
 * Does the kernel under test report the file id?  Under mlx5-emu, what
 * its --handles says (MLX5_EMU_HANDLES, seen by the command too:
 * "lowest-free" is today's kernels, anything else series v3), so that a
 * library or an emulator that does not speak it fails the tests instead
 * of being judged as a kernel without it; elsewhere the probe above.
 */
static inline bool file_id_expected(int cmd_fd)
{
	const char *h = getenv("MLX5_EMU_HANDLES");

	if (getenv("MLX5_EMU_DIR"))
		return !h || strcmp(h, "lowest-free");
	return file_id_of(cmd_fd) != 0;
}

#endif
