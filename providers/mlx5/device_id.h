/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The identity a blob carries for the device of a context: its node GUID
 * and its PCI function's vhca_id (general HCA capabilities, read with
 * QUERY_HCA_CAP through mlx5dv_devx_general_cmd()).
 *
 * Both are properties of the device, not of the context, so they are
 * asked once per device and cached by its struct ibv_device, which the
 * cache keeps referenced (device_id.c): a context freed and another
 * allocated at the same address, on another device, cannot find the first
 * one's entry, because the key never was the context, and a cached device
 * is never freed, so no other device can take its address.
 * A device that refuses the query (no command fd: VFIO mode; no DEVX; a
 * firmware status saying the command or capability is unsupported: the
 * list is query_vhca_id()'s, device_id.c) has no vhca_id: its blobs are
 * bound by node GUID alone, and it is asked again on the next call.  Any
 * other failure of the query is not an answer: the call that needed the
 * identity fails with its errno and nothing is cached.
 */
#ifndef MLX5_SHARE_DEVICE_ID_H
#define MLX5_SHARE_DEVICE_ID_H

#include <infiniband/verbs.h>

#include "blob.h"

/*
 * Fills *id for ctx's device.  Returns 0 (has_vhca_id false when the
 * device refuses the query), EINVAL when ctx has no device, or the
 * query's failure (a positive errno; *id untouched).  Never changes errno.
 */
int device_id_get(struct ibv_context *ctx, struct blob_device *id);

#endif
