// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * upstream_vfio_context: export and import on a context of a VFIO device
 * behave as in libmlx5 63/64 (a VFIO context has no verbs file, so there
 * is no file id to record or compare): export returns 0, import gives
 * the object the data names; and neither reads the context as the verbs
 * context (struct mlx5_context) it is not.
 *
 * A VFIO context (struct mlx5_vfio_context) is much smaller than a
 * struct mlx5_context, so a field of the latter read through to_mctx()
 * lies far past its end.  Here the context is one page followed by
 * 4 MiB that may not be read: such a read ends the test with SIGSEGV
 * instead of going unnoticed.
 *
 * The device is a real libmlx5 VFIO device (mlx5dv_get_vfio_device_list),
 * found through a PCI function faked in a scratch directory: this
 * program's open(), stat() and readlink() take the place of libc's and
 * send the paths of /sys/bus/pci/devices/FAKE_PCI (and /dev/vfio/42)
 * there.  No VFIO, no
 * hardware and no emulator are needed.
 *
 * usage: vfio_context   (built against the patched rdma-core tree)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <infiniband/mlx5dv.h>

#define FAKE_PCI "0000:7f:00.0"
#define SYS_PREFIX "/sys/bus/pci/devices/" FAKE_PCI
#define VFIO_GROUP "/dev/vfio/42"

static char fake_dir[64];
static int failures;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",         \
				__FILE__, __LINE__, #cond);                  \
			failures++;                                          \
		}                                                            \
	} while (0)

/*
 * path, or its place in fake_dir when it is under SYS_PREFIX; the group's
 * VFIO device node (only stat()ed until the device is opened) is
 * fake_dir itself.
 */
static const char *redirect(const char *path, char *buf, size_t len)
{
	size_t n = strlen(SYS_PREFIX);

	if (fake_dir[0] && !strcmp(path, VFIO_GROUP))
		return fake_dir;
	if (!fake_dir[0] || strncmp(path, SYS_PREFIX, n))
		return path;
	snprintf(buf, len, "%s%s", fake_dir, path + n);
	return buf;
}

static int open_at(const char *path, int flags, va_list ap)
{
	char buf[256];
	mode_t mode = (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;

	return syscall(SYS_openat, AT_FDCWD, redirect(path, buf, sizeof(buf)),
		       flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_at(path, flags, ap);
	va_end(ap);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_at(path, flags, ap);
	va_end(ap);
	return fd;
}

int stat(const char *path, struct stat *st)
{
	char buf[256];

	return fstatat(AT_FDCWD, redirect(path, buf, sizeof(buf)), st, 0);
}

int stat64(const char *path, struct stat64 *st)
{
	char buf[256];

	return fstatat64(AT_FDCWD, redirect(path, buf, sizeof(buf)), st, 0);
}

ssize_t readlink(const char *path, char *out, size_t len)
{
	char buf[256];

	return syscall(SYS_readlinkat, AT_FDCWD,
		       redirect(path, buf, sizeof(buf)), out, len);
}

static void put_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void remove_fake(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/vendor", fake_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/device", fake_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/iommu_group", fake_dir);
	unlink(path);
	rmdir(fake_dir);
}

/* A ConnectX-5 function in IOMMU group 42. */
static void make_fake_pci(void)
{
	char path[256];

	snprintf(fake_dir, sizeof(fake_dir), "/tmp/vfio_context.XXXXXX");
	if (!mkdtemp(fake_dir)) {
		perror("mkdtemp");
		exit(1);
	}
	atexit(remove_fake);
	put_file("vendor", "0x15b3\n");
	put_file("device", "0x1017\n");
	snprintf(path, sizeof(path), "%s/iommu_group", fake_dir);
	if (symlink("../../../kernel/iommu_groups/42", path)) {
		perror("symlink");
		exit(1);
	}
}

/*
 * A context of device: its first page readable (and zero but for the
 * device and a command fd of -1), the 4 MiB after it not.
 */
static struct ibv_context *fake_context(struct ibv_device *device)
{
	size_t page = sysconf(_SC_PAGESIZE), guard = 4u << 20;
	struct ibv_context *ctx;
	char *p;

	p = mmap(NULL, page + guard, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p + page, guard, PROT_NONE)) {
		perror("mmap");
		exit(1);
	}
	ctx = (struct ibv_context *)p;
	ctx->device = device;
	ctx->cmd_fd = -1;
	return ctx;
}

/* libmlx5's private structs, as far as export reads them. */
struct devx_obj_mirror {
	struct ibv_context *context;
	uint32_t handle;
	uint32_t type;
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
	void *priv;
};

struct devx_umem_mirror {
	struct mlx5dv_devx_umem dv_devx_umem;
	struct ibv_context *context;
	uint32_t handle;
	void *addr;
	size_t size;
};

struct var_mirror {
	struct mlx5dv_var dv_var;
	struct ibv_context *context;
	uint32_t handle;
};

int main(void)
{
	struct mlx5dv_vfio_context_attr attr = { .pci_name = FAKE_PCI };
	struct devx_obj_mirror obj = { .handle = 1 };
	struct devx_umem_mirror umem = { .handle = 1 };
	struct var_mirror var = { .handle = 1 };
	unsigned char data[4096] = { 0 };
	struct devx_obj_mirror *imp_obj;
	struct mlx5dv_devx_umem *imp_umem;
	struct mlx5dv_var *imp_var;
	struct ibv_device **list;
	struct ibv_context *ctx;

	make_fake_pci();
	list = mlx5dv_get_vfio_device_list(&attr);
	if (!list || !list[0]) {
		printf("SKIPPED: upstream_vfio_context: no VFIO device list "
		       "for the faked PCI function (errno %d)\n", errno);
		return 77;
	}
	ctx = fake_context(list[0]);

	obj.context = ctx;
	obj.object_id = 7;
	CHECK(mlx5dv_devx_obj_export((struct mlx5dv_devx_obj *)&obj,
				     data) == 0);
	imp_obj = (struct devx_obj_mirror *)mlx5dv_devx_obj_import(ctx, data);
	CHECK(imp_obj && imp_obj->handle == 1 && imp_obj->object_id == 7 &&
	      imp_obj->context == ctx);
	if (imp_obj)
		mlx5dv_devx_obj_unimport((struct mlx5dv_devx_obj *)imp_obj);

	umem.context = ctx;
	umem.dv_devx_umem.umem_id = 8;
	CHECK(mlx5dv_devx_umem_export(&umem.dv_devx_umem, data) == 0);
	imp_umem = mlx5dv_devx_umem_import(ctx, data);
	CHECK(imp_umem && imp_umem->umem_id == 8);
	if (imp_umem)
		mlx5dv_devx_umem_unimport(imp_umem);

	var.context = ctx;
	var.dv_var.page_id = 9;
	CHECK(mlx5dv_var_export(&var.dv_var, data) == 0);
	imp_var = mlx5dv_var_import(ctx, data);
	CHECK(imp_var && imp_var->page_id == 9);
	if (imp_var)
		mlx5dv_var_unimport(imp_var);

	if (failures) {
		printf("FAIL: upstream_vfio_context: %d failed checks\n",
		       failures);
		return 1;
	}
	printf("PASS: upstream_vfio_context: export and import on a VFIO "
	       "context work as in libmlx5 63/64, without reading it as a "
	       "verbs context\n");
	return 0;
}
