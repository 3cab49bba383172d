/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel uapi constants mlx5-share uses that older rdma/ headers lack.
 *
 * The system's kernel headers (Debian's and Ubuntu's linux-libc-dev)
 * follow the distribution's kernel, not its rdma-core: Ubuntu 22.04 ships
 * rdma-core 39 with Linux 5.15 headers, which predate the constants below.
 * Each is defined here, from its value in the kernel's ABI, only when the
 * headers in use lack it: kernel-headers/CMakeLists.txt compiles a use of
 * each one and defines HAVE_<NAME> when that works, so a header that has
 * the constant always wins.  MLX5_SHARE_UAPI_<NAME> holds this file's
 * value either way, for the test that compares it with the system's.
 *
 * The values: uverbs ids of a driver's namespace are
 * (1 << UVERBS_ID_NS_SHIFT) + n, n counting from 0 in the order the
 * kernel's enum lists them.
 */
#ifndef MLX5_SHARE_RDMA_UAPI_COMPAT_H
#define MLX5_SHARE_RDMA_UAPI_COMPAT_H

#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#define MLX5_SHARE_UAPI_DRIVER_ID(n) ((1U << UVERBS_ID_NS_SHIFT) + (n))

/*
 * enum mlx5_ib_objects: DEVX, DEVX_OBJ, DEVX_UMEM, FLOW_MATCHER,
 * DEVX_ASYNC_CMD_FD, DEVX_ASYNC_EVENT_FD, VAR, PP, UAR, STEERING_ANCHOR.
 */
#define MLX5_SHARE_UAPI_MLX5_IB_OBJECT_STEERING_ANCHOR \
	MLX5_SHARE_UAPI_DRIVER_ID(9)
#ifndef HAVE_MLX5_IB_OBJECT_STEERING_ANCHOR
#define MLX5_IB_OBJECT_STEERING_ANCHOR \
	MLX5_SHARE_UAPI_MLX5_IB_OBJECT_STEERING_ANCHOR
#endif

/*
 * enum mlx5_ib_devx_umem_reg_attrs: HANDLE, ADDR, LEN, ACCESS, OUT_ID,
 * PGSZ_BITMAP, DMABUF_FD.
 */
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD \
	MLX5_SHARE_UAPI_DRIVER_ID(6)
#ifndef HAVE_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD
#define MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD
#endif

/*
 * The verbs file's id (kernel series v3; no released kernel has it yet).
 * UVERBS_METHOD_QUERY_CONTEXT writes it, a u64, when the caller passes the
 * optional output attribute: an id no other verbs file opened in this
 * boot had or has.  A kernel that writes it also never gives a handle
 * number of a file to a second object (a stale handle reaches nothing).
 * Older kernels ignore the optional attribute: userspace tells by the
 * UVERBS_ATTR_F_VALID_OUTPUT flag the kernel sets on written outputs.
 *
 * enum uverbs_attrs_query_context_attr_ids: NUM_COMP_VECTORS,
 * CORE_SUPPORT (0, 1 on Linux 5.x to 7.3), then FILE_ID.
 */
#define MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID 2
#ifndef HAVE_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID
#define UVERBS_ATTR_QUERY_CONTEXT_FILE_ID \
	MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_CONTEXT_FILE_ID
#endif

#endif
