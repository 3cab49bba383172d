// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_verbs.h>

#include "blob.h"
#include "check.h"
#include "file_id_probe.h"
#include "info_handles.h"
#include "umv.h"

struct ibv_context *umv_open(const char *name)
{
	struct ibv_context *ctx = devx_open(name, 0);

	if (!ctx) {
		fprintf(stderr, "cannot open %s with DEVX: %s\n", name,
			strerror(errno));
		exit(1);
	}
	return ctx;
}

int umv_send_step(int sock, char step)
{
	return fdpass_send(sock, -1, &step, 1);
}

bool umv_got_step(int sock, char want)
{
	char step;

	return !fdpass_recv_exact(sock, NULL, &step, 1) && step == want;
}

int umv_var_map(int fd, const struct mlx5dv_var *var)
{
	void *p = mmap(NULL, var->length, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, var->mmap_off);

	if (p == MAP_FAILED)
		return errno;
	/* A doorbell write, as a virtio driver would ring it. */
	*(volatile uint32_t *)p = 0x1;
	munmap(p, var->length);
	return 0;
}

pid_t umv_fork(int (*fn)(int sock), int *sock)
{
	int sv[2];
	pid_t pid;

	REQUIRE(!socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		close(sv[0]);
		_exit(fn(sv[1]));
	}
	close(sv[1]);
	*sock = sv[0];
	return pid;
}

int umv_wait(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

bool umv_listed(struct ibv_context *ctx, uint16_t object_id, uint32_t handle)
{
	bool present = false;
	int ret;

	ret = info_handles_contains(ctx->cmd_fd, RDMA_DRIVER_MLX5, object_id,
				    handle, &present);
	if (ret) {
		fprintf(stderr, "INFO_HANDLES: %s\n", strerror(ret));
		return false;
	}
	return present;
}

uint32_t umv_blob_handle(const void *blob)
{
	struct blob b;

	if (blob_decode(blob, SIZE_MAX, 0, &b))
		return UINT32_MAX;
	return b.handle;
}

void umv_check_umem_gone(struct ibv_context *ctx, void *blob)
{
	struct mlx5dv_devx_umem *imp;

	if (!file_id_expected(ctx->cmd_fd)) {
		CHECK_ERRNO(!mlx5dv_devx_umem_import(ctx, blob), ENOENT);
		return;
	}
	imp = mlx5dv_devx_umem_import(ctx, blob);
	CHECK(imp != NULL);
	if (!imp)
		return;
	/* a dereg the kernel refuses keeps the struct */
	CHECK_EQ(mlx5dv_devx_umem_dereg(imp), ENOENT);
	mlx5dv_devx_umem_unimport(imp);
}

void umv_check_var_gone(struct ibv_context *ctx, void *blob)
{
	struct mlx5dv_var *imp;

	if (!file_id_expected(ctx->cmd_fd)) {
		CHECK_ERRNO(!mlx5dv_var_import(ctx, blob), ENOENT);
		return;
	}
	imp = mlx5dv_var_import(ctx, blob);
	CHECK(imp != NULL);
	if (!imp)
		return;
	CHECK_EQ(umv_var_map(ctx->cmd_fd, imp), EINVAL);
	mlx5dv_var_unimport(imp);
}
