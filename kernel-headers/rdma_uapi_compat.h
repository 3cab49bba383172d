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
#include <rdma/mlx5_user_ioctl_cmds.h>
/* A kernel with the handle query has its struct and limit here. */
#include <rdma/mlx5_user_ioctl_verbs.h>

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

/*
 * The DEVX handle query (the Linux series in linux/; no released kernel
 * has it yet).  MLX5_IB_METHOD_DEVX_QUERY_HANDLES of MLX5_IB_OBJECT_DEVX
 * takes an array of uverbs handles of the caller's file
 * (UVERBS_IDR_ANY_OBJECT, read access: each object is held shared for the
 * call) and answers, per handle and in the same order, one
 * struct mlx5_ib_devx_handle_info, with no firmware command.  A dead
 * handle fails the call with ENOENT, a handle that is not a DEVX object,
 * UMEM or VAR with EINVAL, an object held exclusive (being modified or
 * destroyed) with EBUSY, an output shorter than n answers with EINVAL; at
 * most MLX5_IB_DEVX_QUERY_HANDLES_MAX handles a call.  The create methods
 * of the three kinds take an optional output attribute (u64) that
 * receives the new object's serial; a kernel without the series ignores
 * it (not mandatory) and leaves it without UVERBS_ATTR_F_VALID_OUTPUT.
 *
 * enum mlx5_ib_devx_methods: OTHER, QUERY_UAR, QUERY_EQN, SUBSCRIBE_EVENT,
 * QUERY_HANDLES.
 */
#define MLX5_SHARE_UAPI_MLX5_IB_METHOD_DEVX_QUERY_HANDLES \
	MLX5_SHARE_UAPI_DRIVER_ID(4)
/* enum mlx5_ib_devx_query_handles_attrs: IN, OUT. */
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN \
	MLX5_SHARE_UAPI_DRIVER_ID(0)
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT \
	MLX5_SHARE_UAPI_DRIVER_ID(1)
/* enum mlx5_ib_devx_obj_create_attrs: HANDLE, CMD_IN, CMD_OUT, SERIAL. */
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL \
	MLX5_SHARE_UAPI_DRIVER_ID(3)
/*
 * enum mlx5_ib_devx_umem_reg_attrs: HANDLE, ADDR, LEN, ACCESS, OUT_ID,
 * PGSZ_BITMAP, DMABUF_FD, SERIAL.
 */
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL \
	MLX5_SHARE_UAPI_DRIVER_ID(7)
/*
 * enum mlx5_ib_var_alloc_attrs: HANDLE, MMAP_OFFSET, MMAP_LENGTH, PAGE_ID,
 * FLAGS, SERIAL.
 */
#define MLX5_SHARE_UAPI_MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL \
	MLX5_SHARE_UAPI_DRIVER_ID(5)
/* rdma/mlx5_user_ioctl_verbs.h: the limit and enum mlx5_ib_devx_handle_kind */
#define MLX5_SHARE_UAPI_MLX5_IB_DEVX_QUERY_HANDLES_MAX 2048
#define MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_OBJ 1
#define MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_UMEM 2
#define MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_VAR 3

#ifndef HAVE_MLX5_IB_METHOD_DEVX_QUERY_HANDLES
#define MLX5_IB_METHOD_DEVX_QUERY_HANDLES \
	MLX5_SHARE_UAPI_MLX5_IB_METHOD_DEVX_QUERY_HANDLES
#define MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN
#define MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT
#define MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_OBJ_CREATE_SERIAL
#define MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_DEVX_UMEM_REG_SERIAL
#define MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL \
	MLX5_SHARE_UAPI_MLX5_IB_ATTR_VAR_OBJ_ALLOC_SERIAL

/* What the series adds to rdma/mlx5_user_ioctl_verbs.h. */
#define MLX5_IB_DEVX_QUERY_HANDLES_MAX \
	MLX5_SHARE_UAPI_MLX5_IB_DEVX_QUERY_HANDLES_MAX

enum mlx5_ib_devx_handle_kind {
	MLX5_IB_DEVX_HANDLE_KIND_OBJ =
		MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_OBJ,
	MLX5_IB_DEVX_HANDLE_KIND_UMEM =
		MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_UMEM,
	MLX5_IB_DEVX_HANDLE_KIND_VAR =
		MLX5_SHARE_UAPI_MLX5_IB_DEVX_HANDLE_KIND_VAR,
};

/*
 * serial: stamped at create from a per-device 64-bit counter that starts
 * at 1 and never goes back, so no later object shares it.  obj_id: the
 * firmware object id the object was created with (DEVX object: the id
 * devx_is_valid_obj_id() compares; UMEM: the umem id; VAR: the page
 * index).  opcode and obj_type: a DEVX object's creator opcode and, for
 * CREATE_GENERAL_OBJECT, its general object type; 0 for UMEMs and VARs.
 * reserved: 0.
 */
struct mlx5_ib_devx_handle_info {
	__aligned_u64 serial;
	__u32 kind;
	__u32 obj_id;
	__u16 opcode;
	__u16 obj_type;
	__u32 reserved;
};
#endif

#endif
