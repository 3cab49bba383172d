// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The method table.  Each entry mirrors one kernel declaration; the
 * comment on it names the kernel file.  Size bounds follow the kernel's
 * macros: UVERBS_ATTR_TYPE(t) is min = max = sizeof(t),
 * UVERBS_ATTR_MIN_SIZE(n) is min = n, max = U16_MAX,
 * UVERBS_ATTR_STRUCT(t, last) is min = offsetofend(t, last), max = sizeof
 * and longer with zeros after it (zero_trailing),
 * UVERBS_ATTR_CONST_IN is a PTR_IN of exactly 8 bytes and
 * UVERBS_ATTR_FLAGS_IN a PTR_IN of 4 to 8 bytes.
 */
#include <stddef.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include "rdma_uapi_compat.h"	/* <rdma/mlx5_user_ioctl_cmds.h> */

#include "emu_counters.h"
#include "uapi_spec.h"

/* the name is the id as written, before an id macro expands */
#define A_PTR(_id, _name, _type, _min, _max, _mand)                         \
	{ .id = (_id), .type = (_type), .mandatory = (_mand),               \
	  .min_len = (_min), .max_len = (_max), .name = (_name) }
#define A_IN(_id, _min, _max, _mand)                                        \
	A_PTR(_id, #_id, EMU_ATTR_PTR_IN, _min, _max, _mand)
#define A_OUT(_id, _min, _max, _mand)                                       \
	A_PTR(_id, #_id, EMU_ATTR_PTR_OUT, _min, _max, _mand)
/* UVERBS_ATTR_TYPE(t): exactly a t */
#define A_IN_TYPE(_id, _t, _mand) A_IN(_id, sizeof(_t), sizeof(_t), _mand)
#define A_OUT_TYPE(_id, _t, _mand) A_OUT(_id, sizeof(_t), sizeof(_t), _mand)
/*
 * UVERBS_ATTR_STRUCT(t, last): from the end of last to a whole t, or
 * longer with zeros after it
 */
#define A_STRUCT(_id, _type, _t, _last, _mand)                              \
	{ .id = (_id), .type = (_type), .mandatory = (_mand),               \
	  .zero_trailing = true,                                            \
	  .min_len = offsetof(_t, _last) + sizeof(((_t *)0)->_last),        \
	  .max_len = sizeof(_t), .name = #_id }
#define A_IN_STRUCT(_id, _t, _last, _mand)                                  \
	A_STRUCT(_id, EMU_ATTR_PTR_IN, _t, _last, _mand)
#define A_OUT_STRUCT(_id, _t, _last, _mand)                                 \
	A_STRUCT(_id, EMU_ATTR_PTR_OUT, _t, _last, _mand)
#define A_CONST(_id, _mand) A_IN(_id, 8, 8, _mand)
/* an optional output only kernel series v3 declares: a u64 */
#define A_OUT_U64_V3(_id)                                                   \
	{ .id = (_id), .type = EMU_ATTR_PTR_OUT, .v3 = true,                \
	  .min_len = 8, .max_len = 8, .name = #_id }
#define A_FLAGS(_id, _mand) A_IN(_id, 4, 8, _mand)
/* an object attribute: a handle (IDR) or a file descriptor (FD) */
#define A_OBJ(_id, _name, _type, _mand, _obj, _acc)                         \
	{ .id = (_id), .type = (_type), .mandatory = (_mand),               \
	  .obj_type = (_obj), .access = (_acc), .name = (_name) }
#define A_IDR(_id, _obj, _acc)                                              \
	A_OBJ(_id, #_id, EMU_ATTR_IDR, true, _obj, _acc)
#define A_FD(_id, _obj, _acc)                                               \
	A_OBJ(_id, #_id, EMU_ATTR_FD, true, _obj, _acc)
#define A_IDR_OPT(_id, _obj, _acc)                                          \
	A_OBJ(_id, #_id, EMU_ATTR_IDR, false, _obj, _acc)
#define A_FD_OPT(_id, _obj, _acc)                                           \
	A_OBJ(_id, #_id, EMU_ATTR_FD, false, _obj, _acc)
/* UVERBS_ATTR_RAW_FD(), optional: a file descriptor the handler resolves */
#define A_RAW_FD(_id)                                                       \
	{ .id = (_id), .type = EMU_ATTR_RAW_FD, .name = #_id }
/* UVERBS_ATTR_UHW(): the driver's udata, both optional */
#define A_UHW                                                               \
	A_IN(UVERBS_ATTR_UHW_IN, 0, EMU_LEN_MAX, false),                    \
	A_OUT(UVERBS_ATTR_UHW_OUT, 0, EMU_LEN_MAX, false)

#define METHOD_N(_obj, _meth, _name, _h, ...)                              \
	{ .object_id = (_obj), .method_id = (_meth), .name = (_name),       \
	  .handler = (_h),                                                  \
	  .nattrs = sizeof((struct emu_attr_spec[]){ __VA_ARGS__ }) /       \
		    sizeof(struct emu_attr_spec),                           \
	  .attrs = { __VA_ARGS__ } }
#define METHOD(_obj, _meth, _h, ...)                                        \
	METHOD_N(_obj, _meth, #_meth, _h, __VA_ARGS__)

/*
 * The destroy of a CQ, QP or SRQ: the handle, and the response that
 * counts the events the object saw
 */
#define DESTROY_WITH_EVENTS(_o, _l)                                         \
	METHOD(UVERBS_OBJECT_##_o, UVERBS_METHOD_##_o##_DESTROY,            \
	       EMU_H_##_o##_DESTROY,                                        \
	       A_IDR(UVERBS_ATTR_DESTROY_##_o##_HANDLE, UVERBS_OBJECT_##_o, \
		     EMU_ACCESS_DESTROY),                                   \
	       A_OUT_TYPE(UVERBS_ATTR_DESTROY_##_o##_RESP,                  \
			  struct ib_uverbs_destroy_##_l##_resp, true))

/* What the VAR and UAR allocs answer, and their destroys (mlx5 main.c) */
#define PAGE_OBJ_ANSWERS(_o)                                                \
	A_OUT(MLX5_IB_ATTR_##_o##_OBJ_ALLOC_PAGE_ID, 4, 4, true),           \
	A_OUT(MLX5_IB_ATTR_##_o##_OBJ_ALLOC_MMAP_LENGTH, 4, 4, true),       \
	A_OUT(MLX5_IB_ATTR_##_o##_OBJ_ALLOC_MMAP_OFFSET, 8, 8, true)
#define PAGE_OBJ_DESTROY(_o)                                                \
	METHOD(MLX5_IB_OBJECT_##_o, MLX5_IB_METHOD_##_o##_OBJ_DESTROY,      \
	       EMU_H_##_o##_DESTROY,                                        \
	       A_IDR(MLX5_IB_ATTR_##_o##_OBJ_DESTROY_HANDLE,                \
		     MLX5_IB_OBJECT_##_o, EMU_ACCESS_DESTROY))

/* mlx5_ifc general_obj_in_cmd_hdr / general_obj_out_cmd_hdr */
#define DEVX_IN_HDR 16
#define DEVX_OUT_HDR 16

static const struct emu_method_spec methods[] = {
	/* core/uverbs_std_types_device.c */
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE,
	       EMU_H_INVOKE_WRITE,
	       A_CONST(UVERBS_ATTR_WRITE_CMD, true),
	       A_IN(UVERBS_ATTR_CORE_IN, 4, EMU_LEN_MAX, false),
	       A_OUT(UVERBS_ATTR_CORE_OUT, 0, EMU_LEN_MAX, false), A_UHW),
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES,
	       EMU_H_INFO_HANDLES,
	       A_CONST(UVERBS_ATTR_INFO_OBJECT_ID, true),
	       A_OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, 4, false),
	       A_OUT(UVERBS_ATTR_INFO_HANDLES_LIST, 4, EMU_LEN_MAX, false)),
	/*
	 * up to active_speed_ex in 6.12's header, which the system's older
	 * one leaves in reserved: the same bytes
	 */
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
	       EMU_H_QUERY_PORT,
	       A_CONST(UVERBS_ATTR_QUERY_PORT_PORT_NUM, true),
	       A_OUT_STRUCT(UVERBS_ATTR_QUERY_PORT_RESP,
			    struct ib_uverbs_query_port_resp_ex, reserved,
			    true)),
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
	       EMU_H_GET_CONTEXT,
	       A_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4, 4, false),
	       A_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, 8, false),
	       A_UHW),
	/* plus mlx5 main.c's driver attribute chained onto it */
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT,
	       EMU_H_QUERY_CONTEXT,
	       A_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, 4, 4, false),
	       A_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, 8, 8, false),
	       /* series v3: UVERBS_ATTR_TYPE(u64), UA_OPTIONAL */
	       A_OUT_U64_V3(UVERBS_ATTR_QUERY_CONTEXT_FILE_ID),
	       A_OUT_STRUCT(MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
			    struct mlx5_ib_alloc_ucontext_resp,
			    dump_fill_mkey, true)),
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE,
	       EMU_H_QUERY_GID_TABLE,
	       A_CONST(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, true),
	       A_FLAGS(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, false),
	       A_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 0,
		     EMU_LEN_MAX, true),
	       A_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, 8,
		     true)),
	METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY,
	       EMU_H_QUERY_GID_ENTRY,
	       A_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, true),
	       A_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, true),
	       A_FLAGS(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, true),
	       A_OUT_STRUCT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
			    struct ib_uverbs_gid_entry, netdev_ifindex, true)),
	/* core/uverbs_std_types_async_fd.c */
	METHOD(UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC,
	       EMU_H_ASYNC_EVENT_ALLOC,
	       A_FD(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
		    UVERBS_OBJECT_ASYNC_EVENT, EMU_ACCESS_NEW)),
	/* core/uverbs_std_types.c */
	METHOD(UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, EMU_H_PD_DESTROY,
	       A_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, UVERBS_OBJECT_PD,
		     EMU_ACCESS_DESTROY)),
	/* hw/mlx5/std_types.c, chained onto the core's PD: what import asks */
	METHOD(UVERBS_OBJECT_PD, MLX5_IB_METHOD_PD_QUERY, EMU_H_PD_QUERY,
	       A_IDR(MLX5_IB_ATTR_QUERY_PD_HANDLE, UVERBS_OBJECT_PD,
		     EMU_ACCESS_READ),
	       A_OUT_TYPE(MLX5_IB_ATTR_QUERY_PD_RESP_PDN, uint32_t, true)),
	/* core/uverbs_std_types_mr.c */
	METHOD(UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, EMU_H_MR_DESTROY,
	       A_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, UVERBS_OBJECT_MR,
		     EMU_ACCESS_DESTROY)),
	METHOD(UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, EMU_H_QUERY_MR,
	       A_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, UVERBS_OBJECT_MR,
		     EMU_ACCESS_READ),
	       A_OUT_TYPE(UVERBS_ATTR_QUERY_MR_RESP_RKEY, uint32_t, true),
	       A_OUT_TYPE(UVERBS_ATTR_QUERY_MR_RESP_LKEY, uint32_t, true),
	       A_OUT_TYPE(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, uint64_t, true),
	       A_OUT_TYPE(UVERBS_ATTR_QUERY_MR_RESP_IOVA, uint64_t, false)),
	/* core/uverbs_std_types_cq.c */
	METHOD(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, EMU_H_CQ_CREATE,
	       A_IDR(UVERBS_ATTR_CREATE_CQ_HANDLE, UVERBS_OBJECT_CQ,
		     EMU_ACCESS_NEW),
	       A_IN(UVERBS_ATTR_CREATE_CQ_CQE, 4, 4, true),
	       A_IN(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, 8, true),
	       A_FD_OPT(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
			UVERBS_OBJECT_COMP_CHANNEL, EMU_ACCESS_READ),
	       A_IN(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, 4, true),
	       A_FLAGS(UVERBS_ATTR_CREATE_CQ_FLAGS, false),
	       A_OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, 4, true),
	       A_FD_OPT(UVERBS_ATTR_CREATE_CQ_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, EMU_ACCESS_READ),
	       A_UHW),
	DESTROY_WITH_EVENTS(CQ, cq),
	/* core/uverbs_std_types_qp.c */
	METHOD(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, EMU_H_QP_CREATE,
	       A_IDR(UVERBS_ATTR_CREATE_QP_HANDLE, UVERBS_OBJECT_QP,
		     EMU_ACCESS_NEW),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, UVERBS_OBJECT_XRCD,
			 EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_PD_HANDLE, UVERBS_OBJECT_PD,
			 EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			 EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
			 UVERBS_OBJECT_CQ, EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE,
			 UVERBS_OBJECT_CQ, EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE,
			 UVERBS_OBJECT_RWQ_IND_TBL, EMU_ACCESS_READ),
	       A_IN(UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 8, true),
	       A_IN_STRUCT(UVERBS_ATTR_CREATE_QP_CAP,
			   struct ib_uverbs_qp_cap, max_inline_data, true),
	       A_CONST(UVERBS_ATTR_CREATE_QP_TYPE, true),
	       A_FLAGS(UVERBS_ATTR_CREATE_QP_FLAGS, false),
	       A_IN(UVERBS_ATTR_CREATE_QP_SOURCE_QPN, 4, 4, false),
	       A_FD_OPT(UVERBS_ATTR_CREATE_QP_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, EMU_ACCESS_READ),
	       A_OUT_STRUCT(UVERBS_ATTR_CREATE_QP_RESP_CAP,
			    struct ib_uverbs_qp_cap, max_inline_data, true),
	       A_OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, 4, true),
	       A_UHW),
	DESTROY_WITH_EVENTS(QP, qp),
	/* core/uverbs_std_types_srq.c */
	METHOD(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, EMU_H_SRQ_CREATE,
	       A_IDR(UVERBS_ATTR_CREATE_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
		     EMU_ACCESS_NEW),
	       A_IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, UVERBS_OBJECT_PD,
		     EMU_ACCESS_READ),
	       A_CONST(UVERBS_ATTR_CREATE_SRQ_TYPE, true),
	       A_IN(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 8, 8, true),
	       A_IN(UVERBS_ATTR_CREATE_SRQ_MAX_WR, 4, 4, true),
	       A_IN(UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 4, 4, true),
	       A_IN(UVERBS_ATTR_CREATE_SRQ_LIMIT, 4, 4, true),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE,
			 UVERBS_OBJECT_XRCD, EMU_ACCESS_READ),
	       A_IDR_OPT(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 EMU_ACCESS_READ),
	       A_IN(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, 4, 4, false),
	       A_FD_OPT(UVERBS_ATTR_CREATE_SRQ_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, EMU_ACCESS_READ),
	       A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4, 4, true),
	       A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4, 4, true),
	       A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4, 4, false),
	       A_UHW),
	DESTROY_WITH_EVENTS(SRQ, srq),
	/* hw/mlx5/devx.c */
	METHOD(MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER,
	       EMU_H_DEVX_OTHER,
	       A_IN(MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, DEVX_IN_HDR, EMU_LEN_MAX,
		    true),
	       A_OUT(MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, DEVX_OUT_HDR,
		     EMU_LEN_MAX, true)),
	METHOD(MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_UAR,
	       EMU_H_DEVX_QUERY_UAR,
	       A_IN(MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX, 4, 4, true),
	       A_OUT(MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX, 4, 4, true)),
	METHOD(MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_QUERY_EQN,
	       EMU_H_DEVX_QUERY_EQN,
	       A_IN(MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, 4, 4, true),
	       A_OUT(MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, 4, 4, true)),
	METHOD(MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE,
	       EMU_H_DEVX_OBJ_CREATE,
	       A_IDR(MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE,
		     MLX5_IB_OBJECT_DEVX_OBJ, EMU_ACCESS_NEW),
	       A_IN(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, DEVX_IN_HDR,
		    EMU_LEN_MAX, true),
	       A_OUT(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, DEVX_OUT_HDR,
		     EMU_LEN_MAX, true)),
	METHOD(MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY,
	       EMU_H_DEVX_OBJ_DESTROY,
	       A_IDR(MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE,
		     MLX5_IB_OBJECT_DEVX_OBJ, EMU_ACCESS_DESTROY)),
	/* the handle shared, as a query's: concurrent modifies all run */
	METHOD(MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_MODIFY,
	       EMU_H_DEVX_OBJ_MODIFY,
	       A_IDR(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE, EMU_OBJ_ANY,
		     EMU_ACCESS_READ),
	       A_IN(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN, DEVX_IN_HDR,
		    EMU_LEN_MAX, true),
	       A_OUT(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT, DEVX_OUT_HDR,
		     EMU_LEN_MAX, true)),
	METHOD(MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_QUERY,
	       EMU_H_DEVX_OBJ_QUERY,
	       A_IDR(MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, EMU_OBJ_ANY,
		     EMU_ACCESS_READ),
	       A_IN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, DEVX_IN_HDR,
		    EMU_LEN_MAX, true),
	       A_OUT(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, DEVX_OUT_HDR,
		     EMU_LEN_MAX, true)),
	METHOD(MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_REG,
	       EMU_H_DEVX_UMEM_REG,
	       A_IDR(MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE,
		     MLX5_IB_OBJECT_DEVX_UMEM, EMU_ACCESS_NEW),
	       A_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, 8, 8, true),
	       A_IN(MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, 8, 8, true),
	       A_RAW_FD(MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD),
	       A_FLAGS(MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, false),
	       A_CONST(MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP, false),
	       A_OUT(MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, 4, 4, true)),
	METHOD(MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_DEREG,
	       EMU_H_DEVX_UMEM_DEREG,
	       A_IDR(MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE,
		     MLX5_IB_OBJECT_DEVX_UMEM, EMU_ACCESS_DESTROY)),
	/* hw/mlx5/main.c */
	METHOD(MLX5_IB_OBJECT_VAR, MLX5_IB_METHOD_VAR_OBJ_ALLOC,
	       EMU_H_VAR_ALLOC,
	       A_IDR(MLX5_IB_ATTR_VAR_OBJ_ALLOC_HANDLE, MLX5_IB_OBJECT_VAR,
		     EMU_ACCESS_NEW),
	       PAGE_OBJ_ANSWERS(VAR)),
	PAGE_OBJ_DESTROY(VAR),
	METHOD(MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC,
	       EMU_H_UAR_ALLOC,
	       A_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, MLX5_IB_OBJECT_UAR,
		     EMU_ACCESS_NEW),
	       A_CONST(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, true),
	       PAGE_OBJ_ANSWERS(UAR)),
	PAGE_OBJ_DESTROY(UAR),
	/* mlx5-emu's test object (uapi_spec.h), no kernel's */
	METHOD(EMU_OBJECT_TEST, EMU_METHOD_TEST_HOLD, EMU_H_TEST_HOLD,
	       A_CONST(EMU_ATTR_TEST_HANDLE, true),
	       A_CONST(EMU_ATTR_TEST_MODE, true)),
	METHOD(EMU_OBJECT_TEST, EMU_METHOD_TEST_RELEASE, EMU_H_TEST_RELEASE,
	       A_CONST(EMU_ATTR_TEST_HANDLE, true)),
	/* mlx5-emu's own: the counters (emu_counters.h) */
	METHOD(EMU_OBJECT_EMU, EMU_METHOD_COUNTERS, EMU_H_EMU_COUNTERS,
	       A_IN(EMU_ATTR_COUNTERS_METHOD, 4, 4, false),
	       A_OUT(EMU_ATTR_COUNTERS_OUT, 8, EMU_LEN_MAX, true)),
};

/* the name is the id's tail; an FD object is UVERBS_TYPE_ALLOC_FD */
#define CORE_OBJ(_n) { UVERBS_OBJECT_##_n, #_n, false }
#define CORE_FD_OBJ(_n) { UVERBS_OBJECT_##_n, #_n, true }
#define MLX5_OBJ(_n) { MLX5_IB_OBJECT_##_n, "MLX5_" #_n, false }
#define MLX5_FD_OBJ(_n) { MLX5_IB_OBJECT_##_n, "MLX5_" #_n, true }

/*
 * The object types an mlx5 device's uapi tree holds (uverbs_uapi.c builds
 * it from the core and the mlx5 definitions).  INFO_HANDLES accepts any of
 * them, including those whose methods are not modelled here.
 */
static const struct emu_object_spec objects[] = {
	CORE_OBJ(DEVICE),
	CORE_OBJ(PD),
	CORE_FD_OBJ(COMP_CHANNEL),
	CORE_OBJ(CQ),
	CORE_OBJ(QP),
	CORE_OBJ(SRQ),
	CORE_OBJ(AH),
	CORE_OBJ(MR),
	CORE_OBJ(MW),
	CORE_OBJ(FLOW),
	CORE_OBJ(XRCD),
	CORE_OBJ(RWQ_IND_TBL),
	CORE_OBJ(WQ),
	CORE_OBJ(FLOW_ACTION),
	CORE_OBJ(DM),
	CORE_OBJ(COUNTERS),
	CORE_FD_OBJ(ASYNC_EVENT),
	MLX5_OBJ(DEVX),
	MLX5_OBJ(DEVX_OBJ),
	MLX5_OBJ(DEVX_UMEM),
	MLX5_OBJ(FLOW_MATCHER),
	MLX5_FD_OBJ(DEVX_ASYNC_CMD_FD),
	MLX5_FD_OBJ(DEVX_ASYNC_EVENT_FD),
	MLX5_OBJ(VAR),
	MLX5_OBJ(PP),
	MLX5_OBJ(UAR),
	MLX5_OBJ(STEERING_ANCHOR),
};

unsigned int emu_method_count(void)
{
	return sizeof(methods) / sizeof(methods[0]);
}

unsigned int emu_method_index(const struct emu_method_spec *m)
{
	return (unsigned int)(m - methods);
}

const struct emu_method_spec *emu_method_at(unsigned int i)
{
	return i < emu_method_count() ? &methods[i] : NULL;
}

const struct emu_method_spec *emu_find_method(uint16_t object_id,
					      uint16_t method_id)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].object_id == object_id &&
		    methods[i].method_id == method_id)
			return &methods[i];
	return NULL;
}

const struct emu_attr_spec *emu_find_attr(const struct emu_method_spec *m,
					  uint16_t attr_id)
{
	unsigned int i;

	for (i = 0; i < m->nattrs; i++)
		if (m->attrs[i].id == attr_id)
			return &m->attrs[i];
	return NULL;
}

const struct emu_object_spec *emu_find_object(uint16_t object_id)
{
	size_t i;

	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (objects[i].id == object_id)
			return &objects[i];
	return NULL;
}

const char *emu_object_name(uint16_t object_id)
{
	const struct emu_object_spec *o = emu_find_object(object_id);

	if (object_id == EMU_OBJECT_EMU)
		return "MLX5_EMU_COUNTERS";
	return o ? o->name : "?";
}
