// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_device.h"
#include "kernel_version.h"
#include "../firmware/fw.h"
#include "mlx5_cmd.h"
#include "uverbs.h"

int emu_device_init(struct emu_device *dev, unsigned int index)
{
	const char *qh = getenv(EMU_QUERY_HANDLES_ENV);
	const char *ids = getenv(EMU_FW_IDS_ENV);
	const char *handles = getenv(EMU_HANDLES_ENV);
	const char *first = getenv(EMU_FIRST_HANDLE_ENV);

	memset(dev, 0, sizeof(*dev));
	dev->index = index;
	/* Linux 6.12 with the core handle query, unless told otherwise */
	dev->query_handles = !qh || strcmp(qh, "0");
	/*
	 * kernel series v3 (on 6.12, the default release), unless told
	 * today's kernels; an older release is a released kernel
	 */
	if (handles)
		dev->unique_handles = strcmp(handles, "lowest-free") != 0;
	else
		dev->unique_handles = !emu_kernel_before(6, 12);
	if (first && *first) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(first, &end, 10);
		if (errno || *end || v > (unsigned long)INT_MAX + 1)
			return -EINVAL;
		dev->first_handle = (uint32_t)v;
	}
	dev->node_guid = emu_device_guid(index);
	dev->sys_image_guid = dev->node_guid;
	dev->clock_fd = memfd_create("mlx5-emu-clock", MFD_CLOEXEC);
	if (dev->clock_fd < 0)
		return -errno;
	if (ftruncate(dev->clock_fd, sysconf(_SC_PAGESIZE))) {
		close(dev->clock_fd);
		return -errno;
	}
	dev->fw = emu_fw_new(dev->node_guid);
	if (!dev->fw) {
		close(dev->clock_fd);
		return -ENOMEM;
	}
	/* mlx5-emu run --fw-ids=lowest-free */
	if (ids && !strcmp(ids, "lowest-free"))
		emu_fw_set_ids(dev->fw, EMU_FW_IDS_LOWEST_FREE);
	dev->clock_info_fd = -1;
	if (emu_clock_info_init(dev)) {
		emu_fw_free(dev->fw);
		close(dev->clock_fd);
		return -ENOMEM;
	}
	/* mlx5_ib_devx_init(): a uid for whitelisted commands, if any */
	if (emu_mlx5_create_uctx(dev, &dev->whitelist_uid))
		dev->whitelist_uid = 0;
	return 0;
}
