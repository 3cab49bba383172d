// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared objects live as long as the ufile, not as long as their creator:
 * after the exporter unimports its own structs and closes its context, the
 * importer (which holds the command fd it received) still sees and uses
 * the exported VAR and UMEM; only the last close of the file destroys
 * them.  The VAR page is the witness: the kernel (and mlx5-emu) hands out
 * the lowest free page, so page P is busy while any process holds the
 * file and is handed out again once the last one closed it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>

#include "check.h"
#include "umv.h"

enum { STEP_IMPORTED = 1, STEP_CLOSED, STEP_FINISH, STEP_DONE };

/* The importer: holds the received fd until told to let go. */
static int importer(int sock)
{
	unsigned char var_blob[UMV_BLOB_MAX], umem_blob[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;
	struct ibv_context *ctx;

	ctx = umv_import_device(sock, var_blob, sizeof(var_blob));
	REQUIRE(!fdpass_recv_exact(sock, NULL, umem_blob, sizeof(umem_blob)));
	var = mlx5dv_var_import(ctx, var_blob);
	REQUIRE(var);
	umem = mlx5dv_devx_umem_import(ctx, umem_blob);
	REQUIRE(umem);
	REQUIRE(!umv_send_step(sock, STEP_IMPORTED));

	/* The exporter has closed its context: the file is still open here. */
	REQUIRE(umv_got_step(sock, STEP_CLOSED));
	CHECK(umv_listed(ctx, MLX5_IB_OBJECT_VAR, umv_blob_handle(var_blob)));
	CHECK(umv_listed(ctx, MLX5_IB_OBJECT_DEVX_UMEM,
			 umv_blob_handle(umem_blob)));
	CHECK_EQ(umv_var_map(ctx->cmd_fd, var), 0);
	mlx5dv_var_unimport(var);
	mlx5dv_devx_umem_unimport(umem);
	REQUIRE(!umv_send_step(sock, STEP_CLOSED));

	/* Let go: this close is the file's last. */
	REQUIRE(umv_got_step(sock, STEP_FINISH));
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("teardown importer");
}

/*
 * Allocates VARs on ctx until page is handed out again: the daemon learns
 * of a close asynchronously, as a real kernel would from another CPU.
 */
static bool page_comes_back(struct ibv_context *ctx, uint32_t page)
{
	const struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	struct mlx5dv_var *var;
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		var = mlx5dv_alloc_var(ctx, 0);
		if (!var)
			return false;
		if (var->page_id == page) {
			mlx5dv_free_var(var);
			return true;
		}
		mlx5dv_free_var(var);
		nanosleep(&pause, NULL);
	}
	return false;
}

int main(void)
{
	unsigned char var_blob[UMV_BLOB_MAX], umem_blob[UMV_BLOB_MAX];
	struct mlx5dv_devx_umem *umem;
	struct ibv_context *exp, *other;
	struct mlx5dv_var *var, *var2;
	uint32_t page;
	int sock;
	pid_t pid;
	void *buf;

	/* Forked first, so the importer inherits no device fd. */
	pid = umv_fork(importer, &sock);

	exp = umv_open("mlx5_0");
	var = mlx5dv_alloc_var(exp, 0);
	REQUIRE(var);
	page = var->page_id;
	REQUIRE(!posix_memalign(&buf, 4096, 4096));
	umem = mlx5dv_devx_umem_reg(exp, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	CHECK_EQ(mlx5dv_var_export(var, var_blob), 0);
	CHECK_EQ(mlx5dv_devx_umem_export(umem, umem_blob), 0);
	REQUIRE(!fdpass_send(sock, exp->cmd_fd, var_blob, sizeof(var_blob)));
	REQUIRE(!fdpass_send(sock, -1, umem_blob, sizeof(umem_blob)));
	REQUIRE(umv_got_step(sock, STEP_IMPORTED));

	/* The exporter lets go of everything, without destroying anything. */
	mlx5dv_var_unimport(var);
	mlx5dv_devx_umem_unimport(umem);
	CHECK_EQ(ibv_close_device(exp), 0);
	REQUIRE(!umv_send_step(sock, STEP_CLOSED));
	REQUIRE(umv_got_step(sock, STEP_CLOSED));

	/* Another file on the same device: page is still taken. */
	other = umv_open("mlx5_0");
	var2 = mlx5dv_alloc_var(other, 0);
	REQUIRE(var2);
	CHECK(var2->page_id != page);
	mlx5dv_free_var(var2);

	REQUIRE(!umv_send_step(sock, STEP_FINISH));
	CHECK_EQ(umv_wait(pid), 0);
	close(sock);

	/* The last close destroyed the VAR (and the UMEM with it). */
	CHECK(page_comes_back(other, page));
	CHECK_EQ(ibv_close_device(other), 0);
	/* The exporter's memory was never the importer's to release. */
	memset(buf, 0, 4096);
	free(buf);
	return check_done("test_teardown");
}
