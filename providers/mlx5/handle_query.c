// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_METHOD_DEVX_QUERY_HANDLES through the raw ioctl builder
 * (handle_query.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#include "uverbs_no_method.h"
#include "handle_query.h"
#include "rdma_uapi_compat.h"
#include "uverbs_ioctl.h"

_Static_assert(MLX5_IB_DEVX_QUERY_HANDLES_MAX *
	       sizeof(struct mlx5_ib_devx_handle_info) <= UINT16_MAX,
	       "one chunk's answer fits an attribute's u16 length");

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

int handle_query(int fd, const uint32_t *handles, size_t n,
		 struct mlx5_ib_devx_handle_info *info)
{
	UVERBS_DECLARE_CMD(cmd, MLX5_IB_OBJECT_DEVX,
			   MLX5_IB_METHOD_DEVX_QUERY_HANDLES, 2);
	struct ib_uverbs_attr *out_attr;
	int saved = errno, ret;

	if (!n || n > MLX5_IB_DEVX_QUERY_HANDLES_MAX)
		return EINVAL;
	if (handle_query_known_absent())
		return HANDLE_QUERY_ABSENT;
	fill_in_ptr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN, handles,
		    n * sizeof(*handles));
	out_attr = fill_out_ptr(cmd, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT, info,
				n * sizeof(*info));
	ret = uverbs_cmd_execute_busy(fd, RDMA_DRIVER_MLX5, cmd);
	switch (ret) {
	case 0:
		if (!uverbs_attr_written(out_attr))
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
