// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_METHOD_QUERY_HANDLE through the raw ioctl builder
 * (handle_query.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "uverbs_no_method.h"
#include "handle_query.h"
#include "rdma_uapi_compat.h"
#include "uverbs_ioctl.h"

/* Set once the kernel said it has no such method; never cleared. */
static atomic_bool absent;

bool handle_query_known_absent(void)
{
	return atomic_load_explicit(&absent, memory_order_relaxed);
}

#ifdef MLX5_SHARE_TEST_HOOKS
void handle_query_test_reset(void)
{
	atomic_store_explicit(&absent, false, memory_order_relaxed);
}
#endif

uint16_t handle_query_object_id(enum blob_kind kind)
{
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return MLX5_IB_OBJECT_DEVX_OBJ;
	case BLOB_KIND_DEVX_UMEM:
		return MLX5_IB_OBJECT_DEVX_UMEM;
	case BLOB_KIND_VAR:
		return MLX5_IB_OBJECT_VAR;
	}
	return 0;
}

int handle_query(int fd, uint32_t handle, uint16_t object_id,
		 uint64_t *cookie)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_HANDLE, 3);
	struct ib_uverbs_attr *out_attr;
	int saved = errno, ret;

	if (handle_query_known_absent())
		return HANDLE_QUERY_ABSENT;
	*cookie = 0;
	fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_HANDLE, handle);
	fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, object_id);
	out_attr = fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE,
				cookie, sizeof(*cookie));
	ret = uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
	switch (ret) {
	case 0:
		if (!uverbs_attr_written(out_attr) || !*cookie)
			ret = EPROTO;
		break;
	case EPROTONOSUPPORT:	/* the framework's: kept (handle_query.h) */
		atomic_store_explicit(&absent, true, memory_order_relaxed);
		break;
	}
	if (uverbs_no_method(ret))
		ret = HANDLE_QUERY_ABSENT;
	errno = saved;
	return ret;
}
