// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The per-device identity cache (device_id.h).  Entries are immutable
 * once published and pushed on a lock-free list, so the export path reads
 * one atomic pointer and compares three fields; entries live until the
 * library is unloaded (one per device the process ever used).
 */
#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>

#include "device_id.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

struct device_entry {
	struct device_entry *next;
	const struct ibv_device *device;
	int index;			/* ibv_get_device_index() */
	char name[IBV_SYSFS_NAME_MAX];
	struct blob_device id;
};

static _Atomic(struct device_entry *) entries;

static bool same_device(const struct device_entry *e,
			const struct ibv_device *dev, int index)
{
	return e->device == dev && e->index == index &&
	       !strncmp(e->name, dev->name, sizeof(e->name));
}

static struct device_entry *lookup(const struct ibv_device *dev, int index)
{
	struct device_entry *e;

	for (e = atomic_load_explicit(&entries, memory_order_acquire); e;
	     e = e->next)
		if (same_device(e, dev, index))
			return e;
	return NULL;
}

/* The function's vhca_id; false when the device does not answer. */
static bool query_vhca_id(struct ibv_context *ctx, uint16_t *vhca_id)
{
	uint8_t in[PRM_QUERY_HCA_CAP_IN_LEN] = { 0 };
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_LEN] = { 0 };

	/* No command fd: libmlx5's VFIO mode, nothing to ask through. */
	if (ctx->cmd_fd < 0)
		return false;
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	if (mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out)) ||
	    prm_get(out, PRM_OUT_STATUS))
		return false;
	*vhca_id = prm_get(out + PRM_CAP_AREA_BYTE, PRM_CAP_VHCA_ID);
	return true;
}

static void publish(struct device_entry *e)
{
	struct device_entry *head = atomic_load_explicit(&entries,
							 memory_order_relaxed);

	do {
		e->next = head;
	} while (!atomic_compare_exchange_weak_explicit(&entries, &head, e,
							memory_order_release,
							memory_order_relaxed));
}

int device_id_get(struct ibv_context *ctx, struct blob_device *id)
{
	const struct ibv_device *dev;
	struct device_entry *e;
	int saved = errno;
	int index;

	if (!ctx || !ctx->device)
		return EINVAL;
	dev = ctx->device;
	index = ibv_get_device_index(ctx->device);
	e = lookup(dev, index);
	if (e) {
		*id = e->id;
		return 0;
	}

	id->node_guid = be64toh(ibv_get_device_guid(ctx->device));
	id->has_vhca_id = query_vhca_id(ctx, &id->vhca_id);
	if (!id->has_vhca_id)
		id->vhca_id = 0;
	errno = saved;
	if (!id->has_vhca_id)
		return 0;	/* not cached: asked again next time */

	e = calloc(1, sizeof(*e));
	if (e) {
		e->device = dev;
		e->index = index;
		memcpy(e->name, dev->name, sizeof(e->name));
		e->id = *id;
		publish(e);
	}
	errno = saved;
	return 0;
}

/* The cache goes with the library (dlclose, process exit). */
__attribute__((destructor)) static void device_id_free(void)
{
	struct device_entry *e = atomic_exchange(&entries, NULL), *next;

	for (; e; e = next) {
		next = e->next;
		free(e);
	}
}
