/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Which errnos say the kernel has no such method.  The rdma-core series
 * (upstream/patches, patch 3) reads EPROTONOSUPPORT and EOPNOTSUPP so;
 * ENOTTY cannot reach it there: DEVX objects, UMEMs and VARs exist only
 * on kernels with ioctl() verbs.
 */
#ifndef MLX5_SHARE_UVERBS_NO_METHOD_H
#define MLX5_SHARE_UVERBS_NO_METHOD_H

#include <errno.h>
#include <stdbool.h>

/*
 * An object or method the kernel does not know is EPROTONOSUPPORT; a
 * kernel without ioctl() verbs or a descriptor that is no uverbs file
 * ENOTTY; a driver that will not serve this context EOPNOTSUPP.
 */
static inline bool uverbs_no_method(int err)
{
	return err == EPROTONOSUPPORT || err == EOPNOTSUPP || err == ENOTTY;
}

#endif
