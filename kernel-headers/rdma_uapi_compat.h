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

/*
 * The core handle query (kernel design v2; no released kernel has it
 * yet).  UVERBS_METHOD_QUERY_HANDLE of UVERBS_OBJECT_DEVICE takes one
 * handle of the caller's file and the uverbs object type it should be,
 * and answers the object's cookie: a u64 the uverbs core gives every
 * uobject once, before it is published, from one system-wide generator
 * (never 0, never given twice while the system runs).  No object lock,
 * no firmware command.  No live, committed object of that type under the
 * handle: ENOENT; an object type the device does not know: EINVAL.  A
 * kernel without it answers the method id as an unknown method
 * (EPROTONOSUPPORT, on some paths EOPNOTSUPP).
 *
 * enum uverbs_methods_device: INVOKE_WRITE, INFO_HANDLES, QUERY_PORT,
 * GET_CONTEXT, QUERY_CONTEXT, QUERY_GID_TABLE, QUERY_GID_ENTRY (0..6 on
 * Linux 6.1 and 6.12); newer kernels add methods after them, and the
 * handle query takes 9, the next free id on the newest kernel source the
 * series is based on.  Written as a number since no header lists 7 and 8
 * everywhere.  Its attributes are a core method's: counted from 0.
 */
#define MLX5_SHARE_UAPI_UVERBS_METHOD_QUERY_HANDLE 9
/* enum uverbs_attrs_query_handle_cmd_attr_ids: HANDLE, OBJECT_ID, COOKIE */
#define MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_HANDLE 0
#define MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID 1
#define MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE 2

#ifndef HAVE_UVERBS_METHOD_QUERY_HANDLE
#define UVERBS_METHOD_QUERY_HANDLE MLX5_SHARE_UAPI_UVERBS_METHOD_QUERY_HANDLE
#define UVERBS_ATTR_QUERY_HANDLE_HANDLE \
	MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_HANDLE
#define UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID \
	MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID
#define UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE \
	MLX5_SHARE_UAPI_UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE
#endif

#endif
