// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The per-device identity cache (device_id.h).  Entries are immutable
 * once published and pushed on a lock-free list, so the export path reads
 * one atomic pointer and compares one; entries live until the library is
 * unloaded (one per device the process ever used).
 *
 * The key is the struct ibv_device alone, and it cannot alias: each entry
 * holds the device list it was found in (ibv_get_device_list() takes a
 * reference on every device listed, ibv_free_device_list() drops them),
 * so a cached device is never freed and its address never reused by
 * another device while the entry exists.
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
	struct ibv_device **pin;	/* the list holding device */
	struct blob_device id;
};

static _Atomic(struct device_entry *) entries;

static struct device_entry *lookup(const struct ibv_device *dev)
{
	struct device_entry *e;

	for (e = atomic_load_explicit(&entries, memory_order_acquire); e;
	     e = e->next)
		if (e->device == dev)
			return e;
	return NULL;
}

/* A device list holding dev, or NULL (dev is gone, or no memory). */
static struct ibv_device **pin_device(const struct ibv_device *dev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	size_t i;

	for (i = 0; list && list[i]; i++)
		if (list[i] == dev)
			return list;
	if (list)
		ibv_free_device_list(list);
	return NULL;
}

/*
 * The device refuses the vhca_id query: it has none to give, for good,
 * and a blob it exports is bound by node GUID alone (device_id.h).
 */
#define VHCA_REFUSED (-1)

/*
 * How the kernel and the firmware say "this device does not answer
 * QUERY_HCA_CAP", for every kernel rdma-core 39..62 runs on:
 *
 *   EOPNOTSUPP       the context is not mlx5's, or has no DEVX uid and the
 *                    device no whitelist uid (devx.c, devx_get_uid())
 *   EPROTONOSUPPORT  the device registers no DEVX methods (uverbs_ioctl.c
 *                    answers so for a method it does not know)
 *   EINVAL           the kernel refuses the command (devx_is_general_cmd());
 *                    before Linux 5.18 also the firmware's BAD_OP and
 *                    BAD_PARAM, which mlx5_cmd_exec() mapped to EINVAL
 *   EREMOTEIO        since 5.18 (mlx5_cmd_do()): the firmware failed it and
 *                    the out mailbox is copied; BAD_OP (no such command)
 *                    and BAD_PARAM (no such capability) are refusals
 *
 * Any other errno (EMFILE, ENOMEM, EAGAIN, EINTR, EIO, ...) and any other
 * firmware status (EREMOTEIO) is a failure of this one call, not an answer
 * about the device.
 */
static int query_vhca_id(struct ibv_context *ctx, uint16_t *vhca_id)
{
	uint8_t in[PRM_QUERY_HCA_CAP_IN_LEN] = { 0 };
	uint8_t out[PRM_QUERY_HCA_CAP_OUT_LEN] = { 0 };
	unsigned int status;
	int ret;

	/* No command fd: libmlx5's VFIO mode, nothing to ask through. */
	if (ctx->cmd_fd < 0)
		return VHCA_REFUSED;
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_GENERAL << 1 | 1);
	ret = mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out, sizeof(out));
	switch (ret) {
	case 0:
	case EREMOTEIO:
		break;
	case EOPNOTSUPP:
	case EPROTONOSUPPORT:
	case EINVAL:
		return VHCA_REFUSED;
	default:
		return ret > 0 ? ret : EIO;
	}
	status = prm_get(out, PRM_OUT_STATUS);
	if (status == PRM_STATUS_BAD_OP || status == PRM_STATUS_BAD_PARAM)
		return VHCA_REFUSED;
	if (ret || status)
		return EREMOTEIO;
	*vhca_id = prm_get(out + PRM_CAP_AREA_BYTE, PRM_CAP_VHCA_ID);
	return 0;
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
	struct blob_device got = { 0 };
	struct device_entry *e;
	int saved, ret;

	if (!ctx || !ctx->device)
		return EINVAL;
	e = lookup(ctx->device);
	if (e) {
		*id = e->id;
		return 0;
	}

	saved = errno;
	ret = query_vhca_id(ctx, &got.vhca_id);
	if (ret > 0) {
		errno = saved;
		return ret;	/* nothing learnt, nothing kept */
	}
	got.node_guid = be64toh(ibv_get_device_guid(ctx->device));
	got.has_vhca_id = ret == 0;
	/* A refusal is not kept: the device is asked again next time. */
	if (got.has_vhca_id) {
		e = calloc(1, sizeof(*e));
		if (e)
			e->pin = pin_device(ctx->device);
		if (e && e->pin) {
			e->device = ctx->device;
			e->id = got;
			publish(e);
		} else {
			free(e);
		}
	}
	*id = got;
	errno = saved;
	return 0;
}

/* The cache goes with the library (dlclose, process exit). */
__attribute__((destructor)) static void device_id_free(void)
{
	struct device_entry *e = atomic_exchange(&entries, NULL), *next;

	for (; e; e = next) {
		next = e->next;
		ibv_free_device_list(e->pin);
		free(e);
	}
}
