// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A command fd is its ufile wherever it goes: passed with SCM_RIGHTS to
 * another process (which opens it with ibv_import_device()) or inherited
 * by fork, it reaches the same handles; objects either side makes are
 * visible to both.  A separately opened device file is another ufile.
 */
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_util.h"
#include "fdpass.h"

#define DEVX_OBJ MLX5_IB_OBJECT_DEVX_OBJ

static int send_fd(int sock, int fd)
{
	return fdpass_send(sock, fd, "f", 1);
}

static int recv_fd(int sock)
{
	char b;
	int fd;

	return fdpass_recv_exact(sock, &fd, &b, 1) ? -1 : fd;
}

/* the receiving process; exit status = number of failed checks */
static int importer(int sock, uint32_t handle, uint32_t counter_id)
{
	struct mlx5dv_devx_obj *mine;
	struct ibv_context *ctx;
	uint32_t list[16], total = 0, reply[2];
	int fd;

	fd = recv_fd(sock);
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	CHECK(!strcmp(ibv_get_device_name(ctx->device), "mlx5_0"));
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 16, &total), 0);
	CHECK_EQ(total, 1);
	CHECK_EQ(list[0], handle);
	CHECK_EQ(emu_raw_counter_query(fd, handle, counter_id), 0);
	/* and through libmlx5 on the imported context */
	mine = fc_alloc_bulk(ctx, 0, &reply[1]);
	REQUIRE(mine);
	CHECK_EQ(emu_info_handles(fd, DEVX_OBJ, list, 16, &total), 0);
	CHECK_EQ(total, 2);
	reply[0] = list[0];
	CHECK(write(sock, reply, sizeof(reply)) == sizeof(reply));
	/* wait for the parent to be done with it, then leave it there */
	CHECK(read(sock, reply, 1) == 1);
	free(mine);
	ibv_close_device(ctx);
	return check_failed;
}

int main(void)
{
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx, *other;
	uint32_t id, handle, list[16], total, reply[2];
	int sv[2], status;
	pid_t pid;

	ctx = emu_start("emu_share");
	obj = fc_alloc_bulk(ctx, 0, &id);
	REQUIRE(obj);
	REQUIRE(emu_info_handles(ctx->cmd_fd, DEVX_OBJ, list, 16, &total) == 0);
	REQUIRE(total == 1);
	handle = list[0];

	/* SCM_RIGHTS to an unrelated process image (fork + no inheritance) */
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		/* only the passed fd reaches the ufile */
		close(ctx->cmd_fd);
		_exit(importer(sv[1], handle, id));
	}
	close(sv[1]);
	REQUIRE(send_fd(sv[0], ctx->cmd_fd) == 0);
	REQUIRE(read(sv[0], reply, sizeof(reply)) == sizeof(reply));
	/* the child's object is in our ufile too */
	CHECK_EQ(emu_info_handles(ctx->cmd_fd, DEVX_OBJ, list, 16, &total), 0);
	CHECK_EQ(total, 2);
	CHECK_EQ(list[0], reply[0]);
	CHECK_EQ(emu_raw_counter_query(ctx->cmd_fd, reply[0], reply[1]), 0);
	CHECK(write(sv[0], "k", 1) == 1);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* its close was not the last: everything is still there */
	CHECK_EQ(emu_info_handles(ctx->cmd_fd, DEVX_OBJ, list, 16, &total), 0);
	CHECK_EQ(total, 2);
	{
		struct emu_raw r;

		raw_init(&r, DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_DESTROY);
		raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, 0,
			 reply[0]);
		CHECK_EQ(raw_exec(ctx->cmd_fd, &r), 0);
	}

	/* fork: the inherited fd is the same ufile */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		uint32_t l[4], t = 0;

		if (emu_info_handles(ctx->cmd_fd, DEVX_OBJ, l, 4, &t) ||
		    t != 1 || l[0] != handle ||
		    emu_raw_counter_query(ctx->cmd_fd, handle, id))
			_exit(1);
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* a second open of the device is a different ufile */
	other = devx_open(NULL, 0);
	REQUIRE(other);
	CHECK_EQ(emu_info_handles(other->cmd_fd, DEVX_OBJ, list, 16, &total),
		 0);
	CHECK_EQ(total, 0);
	ibv_close_device(other);

	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	close(sv[0]);
	return check_done("emu_share");
}
