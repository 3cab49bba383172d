// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu_device.h"
#include "sysfs.h"

/* mkdir -p of root/fmt..., then writes the file's content */
static int put(const char *root, const char *content, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	size_t i, rlen;
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	rlen = strlen(root) + 1;
	for (i = rlen; path[i]; i++) {
		if (path[i] != '/')
			continue;
		path[i] = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		path[i] = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	n = (int)strlen(content);
	if (write(fd, content, n) != n) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

static void guid_str(char *buf, size_t len, uint64_t g)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x\n",
		 (unsigned int)(g >> 48) & 0xffff,
		 (unsigned int)(g >> 32) & 0xffff,
		 (unsigned int)(g >> 16) & 0xffff, (unsigned int)g & 0xffff);
}

static int one_device(const char *root, unsigned int i)
{
	uint64_t guid = emu_device_guid(i);
	char buf[128], gid[64];
	int ret = 0;

	/* class/infiniband_verbs/uverbsN: uverbs_main.c's device attributes */
	snprintf(buf, sizeof(buf), "mlx5_%u\n", i);
	ret |= put(root, buf, "class/infiniband_verbs/uverbs%u/ibdev", i);
	ret |= put(root, "1\n", "class/infiniband_verbs/uverbs%u/abi_version",
		   i);
	snprintf(buf, sizeof(buf), "231:%u\n", 192 + i);
	ret |= put(root, buf, "class/infiniband_verbs/uverbs%u/dev", i);

	/* class/infiniband/mlx5_N: core/sysfs.c and mlx5's attributes */
#define IBDEV "class/infiniband/mlx5_%u/"
	ret |= put(root, "1: CA\n", IBDEV "node_type", i);
	guid_str(buf, sizeof(buf), guid);
	ret |= put(root, buf, IBDEV "node_guid", i);
	ret |= put(root, buf, IBDEV "sys_image_guid", i);
	snprintf(buf, sizeof(buf), "%u.%u.%04u\n", EMU_FW_VER_MAJOR,
		 EMU_FW_VER_MINOR, EMU_FW_VER_SUB);
	ret |= put(root, buf, IBDEV "fw_ver", i);
	ret |= put(root, "MT4123\n", IBDEV "hca_type", i);
	ret |= put(root, "0x0\n", IBDEV "hw_rev", i);
	ret |= put(root, "MT_0000000222\n", IBDEV "board_id", i);
	snprintf(buf, sizeof(buf), "mlx5-emu HCA-%u\n", i);
	ret |= put(root, buf, IBDEV "node_desc", i);
	snprintf(buf, sizeof(buf),
		 "pci:v000015B3d0000%04Xsv000015B3sd00000007bc02sc07i00\n",
		 EMU_PCI_DEVICE_ID);
	ret |= put(root, buf, IBDEV "device/modalias", i);
	ret |= put(root, "0x15b3\n", IBDEV "device/vendor", i);
	snprintf(buf, sizeof(buf), "0x%04x\n", EMU_PCI_DEVICE_ID);
	ret |= put(root, buf, IBDEV "device/device", i);

#define PORT IBDEV "ports/1/"
	/* the link is down, as QUERY_PORT says (mlx5-emu(1), No data path) */
	ret |= put(root, "1: DOWN\n", PORT "state", i);
	ret |= put(root, "2: Polling\n", PORT "phys_state", i);
	ret |= put(root, "InfiniBand\n", PORT "link_layer", i);
	ret |= put(root, "100 Gb/sec (4X EDR)\n", PORT "rate", i);
	snprintf(buf, sizeof(buf), "0x%x\n", i + 1);
	ret |= put(root, buf, PORT "lid", i);
	ret |= put(root, "0x1\n", PORT "sm_lid", i);
	ret |= put(root, "0\n", PORT "lid_mask_count", i);
	ret |= put(root, "0x00a90002\n", PORT "cap_mask", i);
	snprintf(gid, sizeof(gid),
		 "fe80:0000:0000:0000:%04x:%04x:%04x:%04x\n",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
	ret |= put(root, gid, PORT "gids/0", i);
	ret |= put(root, "IB/RoCE v1\n", PORT "gid_attrs/types/0", i);
	ret |= put(root, "0xffff\n", PORT "pkeys/0", i);
	return ret ? -EIO : 0;
}

int emu_sysfs_create(const char *root, unsigned int ndev)
{
	unsigned int i;
	int ret;

	if (mkdir(root, 0755) && errno != EEXIST)
		return -errno;
	/* IB_USER_VERBS_ABI_VERSION */
	ret = put(root, "6\n", "class/infiniband_verbs/abi_version");
	for (i = 0; !ret && i < ndev; i++)
		ret = one_device(root, i);
	return ret;
}
