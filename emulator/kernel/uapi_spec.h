/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The uverbs methods mlx5-emu models, as data: each method lists its
 * attributes the way the kernel's DECLARE_UVERBS_NAMED_METHOD() and
 * UVERBS_ATTR_*() macros declare them (type, direction, size bounds,
 * mandatory, object type and access of handles).  One table serves both
 * sides: the preload library reads it to know which user buffers an
 * ioctl carries (what copy_from_user() would read), and the daemon's
 * generic validator enforces it before a handler runs.
 */
#ifndef MLX5_EMU_UAPI_SPEC_H
#define MLX5_EMU_UAPI_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum emu_attr_type {
	EMU_ATTR_PTR_IN,	/* UVERBS_ATTR_PTR_IN, CONST_IN, FLAGS_IN */
	EMU_ATTR_PTR_OUT,	/* UVERBS_ATTR_PTR_OUT */
	EMU_ATTR_IDR,		/* UVERBS_ATTR_IDR */
	EMU_ATTR_FD,		/* UVERBS_ATTR_FD */
	EMU_ATTR_IDRS_ARRAY,	/* UVERBS_ATTR_IDRS_ARR: u32 handles */
	EMU_ATTR_RAW_FD,	/* UVERBS_ATTR_RAW_FD: an int in data, len 0 */
};

enum emu_access {
	EMU_ACCESS_READ,
	EMU_ACCESS_WRITE,
	EMU_ACCESS_NEW,
	EMU_ACCESS_DESTROY,
};

/*
 * mlx5-emu's own test object, which no kernel has (test_hold.c): HOLD
 * locks the uobject HANDLE names shared (MODE 0) or exclusive (MODE 1)
 * until RELEASE (or the ufile's last close), as a call running
 * concurrently holds it in the kernel.  Driver namespace ids far from
 * mlx5's.
 */
#define EMU_OBJECT_TEST 0x1FE0
enum {
	EMU_METHOD_TEST_HOLD = 0x1000,
	EMU_METHOD_TEST_RELEASE,
};
enum {
	EMU_ATTR_TEST_HANDLE = 0x1000,	/* const: the uobject's handle */
	EMU_ATTR_TEST_MODE,		/* const: 0 shared, 1 exclusive */
};

/* The kernel's UVERBS_IDR_ANY_OBJECT: a handle of any type matches. */
#define EMU_OBJ_ANY 0xFFFF
#define EMU_LEN_MAX 0xFFFF

struct emu_attr_spec {
	uint16_t id;
	uint8_t type;		/* enum emu_attr_type */
	uint8_t access;		/* enum emu_access, IDR/FD only */
	bool mandatory;
	/*
	 * UVERBS_ATTR_STRUCT(): longer than max_len is accepted (an input's
	 * extra bytes must be zero, else EOPNOTSUPP)
	 */
	bool zero_trailing;
	/*
	 * Declared by kernel series v3 only: with mlx5-emu run
	 * --handles=lowest-free (today's kernels) the attribute is unknown
	 */
	bool v3;
	uint16_t min_len;	/* PTR: u.ptr.min_len; IDRS_ARRAY: min count */
	uint16_t max_len;	/* PTR: u.ptr.len; IDRS_ARRAY: max count */
	uint16_t obj_type;	/* IDR/FD/IDRS_ARRAY */
	const char *name;
};

#define EMU_MAX_METHOD_ATTRS 20

struct emu_method_spec {
	uint16_t object_id;
	uint16_t method_id;
	const char *name;
	uint16_t handler;	/* enum emu_handler_id, daemon side */
	uint8_t nattrs;
	struct emu_attr_spec attrs[EMU_MAX_METHOD_ATTRS];
};

struct emu_object_spec {
	uint16_t id;
	const char *name;
	bool is_fd;		/* UVERBS_TYPE_ALLOC_FD */
};

enum emu_handler_id {
	EMU_H_NONE,
	EMU_H_INVOKE_WRITE,
	EMU_H_INFO_HANDLES,
	EMU_H_QUERY_PORT,
	EMU_H_GET_CONTEXT,
	EMU_H_QUERY_CONTEXT,
	EMU_H_QUERY_GID_TABLE,
	EMU_H_QUERY_GID_ENTRY,
	EMU_H_ASYNC_EVENT_ALLOC,
	EMU_H_PD_DESTROY,
	EMU_H_PD_QUERY,
	EMU_H_MR_DESTROY,
	EMU_H_QUERY_MR,
	EMU_H_DEVX_OTHER,
	EMU_H_DEVX_QUERY_UAR,
	EMU_H_DEVX_QUERY_EQN,
	EMU_H_DEVX_OBJ_CREATE,
	EMU_H_DEVX_OBJ_DESTROY,
	EMU_H_DEVX_OBJ_MODIFY,
	EMU_H_DEVX_OBJ_QUERY,
	EMU_H_DEVX_UMEM_REG,
	EMU_H_DEVX_UMEM_DEREG,
	EMU_H_VAR_ALLOC,
	EMU_H_VAR_DESTROY,
	EMU_H_UAR_ALLOC,
	EMU_H_UAR_DESTROY,
	EMU_H_CQ_CREATE,
	EMU_H_CQ_DESTROY,
	EMU_H_QP_CREATE,
	EMU_H_QP_DESTROY,
	EMU_H_SRQ_CREATE,
	EMU_H_SRQ_DESTROY,
	EMU_H_TEST_HOLD,
	EMU_H_TEST_RELEASE,
	EMU_H_EMU_COUNTERS,
	EMU_H_COUNT,
};

/* How many methods the table holds; emu_method_index() is below that. */
unsigned int emu_method_count(void);
unsigned int emu_method_index(const struct emu_method_spec *m);

/* The table's i-th method, i below emu_method_count() (else NULL). */
const struct emu_method_spec *emu_method_at(unsigned int i);

/* NULL when the kernel has no such method (-> EPROTONOSUPPORT). */
const struct emu_method_spec *emu_find_method(uint16_t object_id,
					      uint16_t method_id);
const struct emu_attr_spec *emu_find_attr(const struct emu_method_spec *m,
					  uint16_t attr_id);
/* NULL when the kernel's uapi has no such object type. */
const struct emu_object_spec *emu_find_object(uint16_t object_id);
const char *emu_object_name(uint16_t object_id);

#endif
