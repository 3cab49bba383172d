// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
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

/* class/infiniband/mlx5_N/ports/P: core/sysfs.c's port attributes */
static int one_port(const char *root, const char *ibdev, unsigned int i,
		    unsigned int port)
{
	static const char *const states[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"
	};
	static const char *const phys[] = {
		"<unknown>", "Sleep", "Polling", "Disabled",
		"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
		"Phy Test"
	};
	struct emu_port_facts p;
	uint64_t guid = emu_device_guid(i);
	char buf[128], g[32];
	int ret = 0;

	if (emu_ibdev_port(i, port, &p) || p.state >= 6 || p.phys_state >= 8)
		return -EINVAL;
#define PORT "class/infiniband/%s/ports/%u/"
	snprintf(buf, sizeof(buf), "%u: %s\n", p.state, states[p.state]);
	ret |= put(root, buf, PORT "state", ibdev, port);
	snprintf(buf, sizeof(buf), "%u: %s\n", p.phys_state,
		 phys[p.phys_state]);
	ret |= put(root, buf, PORT "phys_state", ibdev, port);
	ret |= put(root, p.link_layer == 1 ? "InfiniBand\n" : "Ethernet\n",
		   PORT "link_layer", ibdev, port);
	ret |= put(root, "100 Gb/sec (4X EDR)\n", PORT "rate", ibdev, port);
	snprintf(buf, sizeof(buf), "0x%x\n", p.lid);
	ret |= put(root, buf, PORT "lid", ibdev, port);
	snprintf(buf, sizeof(buf), "0x%x\n", p.sm_lid);
	ret |= put(root, buf, PORT "sm_lid", ibdev, port);
	snprintf(buf, sizeof(buf), "%u\n", p.lmc);
	ret |= put(root, buf, PORT "lid_mask_count", ibdev, port);
	snprintf(buf, sizeof(buf), "0x%08x\n", p.cap_flags);
	ret |= put(root, buf, PORT "cap_mask", ibdev, port);
	/* GID 0: the subnet prefix, then the port GUID */
	guid_str(g, sizeof(g), guid);
	snprintf(buf, sizeof(buf), "%04x:%04x:%04x:%04x:%s",
		 (unsigned int)(p.subnet_prefix >> 48) & 0xffff,
		 (unsigned int)(p.subnet_prefix >> 32) & 0xffff,
		 (unsigned int)(p.subnet_prefix >> 16) & 0xffff,
		 (unsigned int)p.subnet_prefix & 0xffff, g);
	ret |= put(root, buf, PORT "gids/0", ibdev, port);
	ret |= put(root, "IB/RoCE v1\n", PORT "gid_attrs/types/0", ibdev,
		   port);
	ret |= put(root, "0xffff\n", PORT "pkeys/0", ibdev, port);
#undef PORT
	return ret;
}

static int one_device(const char *root, unsigned int i)
{
	uint64_t guid = emu_device_guid(i);
	char buf[128], name[32], uverbs[32];
	unsigned int port;
	int ret = 0;

	emu_ibdev_name(i, name, sizeof(name));
	emu_ibdev_uverbs_name(i, uverbs, sizeof(uverbs));
	/* class/infiniband_verbs/uverbsN: uverbs_main.c's device attributes */
#define UVERBS "class/infiniband_verbs/%s/"
	snprintf(buf, sizeof(buf), "%s\n", name);
	ret |= put(root, buf, UVERBS "ibdev", uverbs);
	snprintf(buf, sizeof(buf), "%u\n", EMU_UVERBS_ABI);
	ret |= put(root, buf, UVERBS "abi_version", uverbs);
	snprintf(buf, sizeof(buf), "%u:%u\n", EMU_UVERBS_MAJOR,
		 EMU_UVERBS_MINOR_BASE + i);
	ret |= put(root, buf, UVERBS "dev", uverbs);
#undef UVERBS

	/* class/infiniband/mlx5_N: core/sysfs.c and mlx5's attributes */
#define IBDEV "class/infiniband/%s/"
	snprintf(buf, sizeof(buf), "%u: CA\n", EMU_NODE_TYPE_CA);
	ret |= put(root, buf, IBDEV "node_type", name);
	guid_str(buf, sizeof(buf), guid);
	ret |= put(root, buf, IBDEV "node_guid", name);
	ret |= put(root, buf, IBDEV "sys_image_guid", name);
	emu_ibdev_fw_str(buf, sizeof(buf) - 1);
	strcat(buf, "\n");
	ret |= put(root, buf, IBDEV "fw_ver", name);
	ret |= put(root, "MT4123\n", IBDEV "hca_type", name);
	ret |= put(root, "0x0\n", IBDEV "hw_rev", name);
	ret |= put(root, "MT_0000000222\n", IBDEV "board_id", name);
	snprintf(buf, sizeof(buf), "mlx5-emu HCA-%u\n", i);
	ret |= put(root, buf, IBDEV "node_desc", name);
	snprintf(buf, sizeof(buf),
		 "pci:v000015B3d0000%04Xsv000015B3sd00000007bc02sc07i00\n",
		 EMU_PCI_DEVICE_ID);
	ret |= put(root, buf, IBDEV "device/modalias", name);
	ret |= put(root, "0x15b3\n", IBDEV "device/vendor", name);
	snprintf(buf, sizeof(buf), "0x%04x\n", EMU_PCI_DEVICE_ID);
	ret |= put(root, buf, IBDEV "device/device", name);
#undef IBDEV
	for (port = 1; port <= EMU_NUM_PORTS; port++)
		ret |= one_port(root, name, i, port);
	return ret ? -EIO : 0;
}

int emu_sysfs_create(const char *root, unsigned int ndev)
{
	char buf[16];
	unsigned int i;
	int ret;

	if (mkdir(root, 0755) && errno != EEXIST)
		return -errno;
	snprintf(buf, sizeof(buf), "%u\n", EMU_UVERBS_CLASS_ABI);
	ret = put(root, buf, "class/infiniband_verbs/abi_version");
	for (i = 0; !ret && i < ndev; i++)
		ret = one_device(root, i);
	return ret;
}

int emu_procfs_create(const char *root)
{
	uint8_t u[16];
	char text[40];
	ssize_t n;

	if (mkdir(root, 0755) && errno != EEXIST)
		return -errno;
	/* random/boot_id: a version 4 UUID, as the kernel draws one */
	do {
		n = getrandom(u, sizeof(u), 0);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(u))
		return n < 0 ? -errno : -EIO;
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
	snprintf(text, sizeof(text),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x\n",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	return put(root, text, "sys/kernel/random/boot_id");
}
