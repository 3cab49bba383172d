/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the DEVX handle query's answer (struct mlx5_ib_devx_handle_info)
 * says in import_policy.h's terms, and which errnos say the kernel has no
 * such method.  The rdma-core series carries these two functions in its
 * obj_export.c (upstream/gen-series.py).
 */
#ifndef MLX5_SHARE_HANDLE_INFO_H
#define MLX5_SHARE_HANDLE_INFO_H

#include <errno.h>
#include <stdbool.h>

#include "import_policy.h"
#include "rdma_uapi_compat.h"

/*
 * An object or method the kernel does not know is EPROTONOSUPPORT; a
 * kernel without ioctl() verbs or a descriptor that is no uverbs file
 * ENOTTY; a driver that will not serve this context EOPNOTSUPP.
 */
static inline bool uverbs_no_method(int err)
{
	return err == EPROTONOSUPPORT || err == EOPNOTSUPP || err == ENOTTY;
}

static inline void
handle_info_from_kernel(struct import_handle_info *k,
			const struct mlx5_ib_devx_handle_info *u)
{
	k->serial = u->serial;
	k->obj_id = u->obj_id;
	k->opcode = u->opcode;
	k->obj_type = u->obj_type;
	switch (u->kind) {
	case MLX5_IB_DEVX_HANDLE_KIND_OBJ:
		k->kind = BLOB_KIND_DEVX_OBJ;
		break;
	case MLX5_IB_DEVX_HANDLE_KIND_UMEM:
		k->kind = BLOB_KIND_DEVX_UMEM;
		break;
	case MLX5_IB_DEVX_HANDLE_KIND_VAR:
		k->kind = BLOB_KIND_VAR;
		break;
	default:
		k->kind = 0;	/* a kind unknown here matches no blob */
	}
}

#endif
