/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The id of a context's verbs file, which a blob carries (blob.h): asked
 * of the kernel once per context with UVERBS_METHOD_QUERY_CONTEXT and its
 * optional output UVERBS_ATTR_QUERY_CONTEXT_FILE_ID
 * (kernel-headers/rdma_uapi_compat.h).  A kernel that writes it (kernel
 * series v3) gives every open of a verbs file an id no other file of the
 * boot had, and never gives a handle number of a file to a second object:
 * a blob's (boot id, file id, handle) names that one object or, once it
 * is destroyed, nothing.  Older kernels skip the optional attribute and
 * leave it unwritten (no UVERBS_ATTR_F_VALID_OUTPUT): the id is then 0.
 *
 * Cached per context, as the vhca_id is per device (device_id.h) and the
 * boot id per process (boot_id.h): only an answer is kept, a failed query
 * (ENOMEM, EINTR...) fails the call that needed it and is asked again by
 * the next.  An answer is the id or "none" (0: the kernel ran the query
 * without writing it, or has no QUERY_CONTEXT at all, uverbs_no_method.h).
 *
 * Kept in the context's entry of ctx_cache.h, which says why a context
 * cannot find another's, even one freed and allocated again at the same
 * address with the same descriptor numbers.  A new context has no entry:
 * one query.
 */
#ifndef MLX5_SHARE_FILE_ID_H
#define MLX5_SHARE_FILE_ID_H

#include <stdint.h>
#include <infiniband/verbs.h>

/*
 * Sets *id to the id of ctx's verbs file (0: the kernel reports none).
 * Returns 0, EOPNOTSUPP when ctx has no command fd (VFIO mode: no verbs
 * file), EPROTO when the kernel wrote 0 (an id is never 0), or the
 * query's errno (*id untouched).  Never changes errno.
 */
int file_id_get(struct ibv_context *ctx, uint64_t *id);

#ifdef MLX5_SHARE_TEST_HOOKS
/* Test builds only: how many QUERY_CONTEXT calls the process made. */
unsigned long file_id_test_queries(void);
#endif

#endif
