// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The clock info page (MLX5_IB_MMAP_CLOCK_INFO, struct mlx5_ib_clock_info
 * version 1) that mlx5_core's clock code keeps for userspace: the
 * cyclecounter (mult, shift, mask) of the device frequency and one
 * (cycles, nsec) point.  The emulated free running counter stays at 0,
 * so one point written when the device appears is the kernel's last
 * update for good: a timestamp of 0 is that moment.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rdma/mlx5-abi.h>

#include "prm_layout.h"
#include "uverbs.h"

/* mlx5_timecounter_init(): a 41-bit counter */
#define CLOCK_MASK_BITS 41
/* small enough that mult fits 32 bits for any frequency above 1 MHz */
#define CLOCK_SHIFT 23

int emu_clock_info_init(struct emu_device *dev)
{
	struct mlx5_ib_clock_info ci = {};
	uint32_t khz = emu_cap_gen(dev, PRM_CAP_DEVICE_FREQ_KHZ);
	struct timespec now;
	int fd;

	if (!khz)
		return -EINVAL;
	fd = memfd_create("mlx5-emu-clock-info", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	clock_gettime(CLOCK_REALTIME, &now);
	ci.nsec = (uint64_t)now.tv_sec * 1000000000ull + now.tv_nsec;
	ci.cycles = 0;
	ci.shift = CLOCK_SHIFT;
	/* clocksource_khz2mult() */
	ci.mult = (uint32_t)(((1000000ull << CLOCK_SHIFT) + khz / 2) / khz);
	ci.mask = (1ull << CLOCK_MASK_BITS) - 1;
	/* the counter wraps after mask cycles; the kernel updates at 1/3 */
	ci.overflow_period = (ci.mask / 3 * ci.mult) >> CLOCK_SHIFT;
	if (ftruncate(fd, sysconf(_SC_PAGESIZE)) ||
	    pwrite(fd, &ci, sizeof(ci), 0) != sizeof(ci)) {
		close(fd);
		return -EIO;
	}
	dev->clock_info_fd = fd;
	return 0;
}
