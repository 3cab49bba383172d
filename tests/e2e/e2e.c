// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "fdpass.h"
#include "file_id_probe.h"
#include "info_handles.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

static const char *test_name = "e2e";
static bool on_hw;
static const char *role;
static int role_sock = -1;
static char *self_argv0;
/* Our own program, resolved once: valgrind answers readlink for its client
 * but would exec itself for "/proc/self/exe". */
static char self_path[4096];

static bool under_emulator(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return getenv("MLX5_EMU_DIR") || (pre && strstr(pre, "emu"));
}

static bool is_mlx5(struct ibv_device *dev)
{
	return !strncmp(ibv_get_device_name(dev), "mlx5", 4) &&
	       mlx5dv_is_supported(dev);
}

int e2e_num_devices(void)
{
	struct ibv_device **list;
	int n, i, count = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return 0;
	for (i = 0; i < n; i++)
		count += is_mlx5(list[i]);
	ibv_free_device_list(list);
	return count;
}

void e2e_init(int argc, char **argv, const char *name)
{
	ssize_t n;
	int i;

	test_name = name;
	self_argv0 = argv[0];
	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (n > 0)
		self_path[n] = 0;
	else
		snprintf(self_path, sizeof(self_path), "%s", argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--hw"))
			on_hw = true;
		else if (!strcmp(argv[i], "--role") && i + 1 < argc)
			role = argv[++i];
		else if (!strcmp(argv[i], "--sock") && i + 1 < argc)
			role_sock = atoi(argv[++i]);
	}
	if (on_hw && !role && (under_emulator() || !e2e_num_devices()))
		check_skip(name, "no mlx5 device on this machine");
	/* A peer that died must show as EPIPE, not kill the test. */
	signal(SIGPIPE, SIG_IGN);
}

bool e2e_on_hw(void)
{
	return on_hw;
}

const char *e2e_role(void)
{
	return role;
}

int e2e_sock(void)
{
	return role_sock;
}

void e2e_send_step(int sock, char step)
{
	REQUIRE(fdpass_send(sock, -1, &step, 1) == 0);
}

char e2e_wait_step(int sock)
{
	char step;

	if (fdpass_recv(sock, NULL, &step, 1) <= 0)
		return 0;
	return step;
}

struct ibv_context *e2e_start(int argc, char **argv, const char *name)
{
	e2e_init(argc, argv, name);
	return e2e_open(0);
}

struct ibv_context *e2e_start_roles(int argc, char **argv, const char *name,
				    int (*role_main)(void))
{
	e2e_init(argc, argv, name);
	if (role)
		exit(role_main());
	return e2e_open(0);
}

struct ibv_context *e2e_open(int index)
{
	struct ibv_context *ctx = devx_open(NULL, index);

	if (!ctx)
		fprintf(stderr, "%s: cannot open mlx5 device #%d with DEVX\n",
			test_name, index);
	REQUIRE(ctx);
	return ctx;
}

void e2e_open_same_guid(struct ibv_context **ctx0,
			struct ibv_context **ctx1)
{
	*ctx0 = e2e_open(0);
	*ctx1 = e2e_open(1);
	if (ibv_get_device_guid((*ctx0)->device) !=
	    ibv_get_device_guid((*ctx1)->device))
		check_skip(test_name, "the two devices have distinct node "
			   "GUIDs (run under mlx5-emu run --same-guid)");
}

pid_t e2e_spawn_program(const char *path, const char *const *args,
			int *sock)
{
	const char *argv[8];
	char fdstr[16];
	size_t n = 0;
	int sv[2];
	pid_t pid;

	for (; *args; args++) {
		REQUIRE(n < sizeof(argv) / sizeof(argv[0]) - 3);
		argv[n++] = *args;
	}
	argv[n++] = "--sock";
	argv[n++] = fdstr;
	argv[n] = NULL;
	REQUIRE(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		/* Only the child's end survives exec, and nothing of ours. */
		fcntl(sv[1], F_SETFD, 0);
		snprintf(fdstr, sizeof(fdstr), "%d", sv[1]);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	close(sv[1]);
	*sock = sv[0];
	return pid;
}

pid_t e2e_spawn(const char *child_role, int *sock)
{
	const char *args[5];
	size_t n = 0;

	args[n++] = self_argv0;
	if (on_hw)
		args[n++] = "--hw";
	args[n++] = "--role";
	args[n++] = child_role;
	args[n] = NULL;
	return e2e_spawn_program(self_path, args, sock);
}

int e2e_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

struct mlx5dv_devx_obj *e2e_meter(struct ibv_context *ctx, uint32_t *id)
{
	struct mlx5dv_devx_obj *meter = meter_create(ctx, id);

	if (!meter && on_hw)
		check_skip(test_name, "this NIC has no flow meter object");
	REQUIRE(meter);
	return meter;
}

void e2e_pair_make(struct ibv_context *ctx, struct e2e_pair *p,
		   uint8_t *fc_blob, uint8_t *meter_blob)
{
	p->fc = fc_alloc(ctx, &p->fc_id);
	REQUIRE(p->fc);
	p->meter = e2e_meter(ctx, &p->meter_id);
	e2e_export(p->fc, fc_blob);
	e2e_export(p->meter, meter_blob);
}

void e2e_pair_import(struct ibv_context *ctx, struct e2e_pair *p,
		     uint8_t *fc_blob, uint8_t *meter_blob)
{
	p->fc_id = e2e_blob_object_id(fc_blob);
	p->meter_id = e2e_blob_object_id(meter_blob);
	p->fc = mlx5dv_devx_obj_import(ctx, fc_blob);
	REQUIRE(p->fc);
	p->meter = mlx5dv_devx_obj_import(ctx, meter_blob);
	REQUIRE(p->meter);
}

bool e2e_meter_supported(void)
{
	struct ibv_context *ctx = e2e_open(0);
	struct mlx5dv_devx_obj *obj;
	uint32_t id;

	obj = meter_create(ctx, &id);
	if (obj)
		mlx5dv_devx_obj_destroy(obj);
	ibv_close_device(ctx);
	return obj;
}

size_t e2e_obj_blob_size(void)
{
	struct mlx5dv_export_sizes sizes;

	mlx5dv_get_export_sizes(&sizes);
	return sizes.devx_obj_attrs_size;
}

void e2e_export(struct mlx5dv_devx_obj *obj, uint8_t *blob)
{
	int ret;

	REQUIRE(e2e_obj_blob_size() <= E2E_BLOB_MAX);
	memset(blob, 0, E2E_BLOB_MAX);
	ret = mlx5dv_devx_obj_export(obj, blob);
	if (ret)
		fprintf(stderr, "%s: export failed: %s\n", test_name,
			strerror(ret));
	REQUIRE(ret == 0);
}

struct mlx5dv_devx_obj *e2e_fc_exported(struct ibv_context *ctx,
					uint32_t *id, uint8_t *blob)
{
	struct mlx5dv_devx_obj *fc = fc_alloc(ctx, id);

	REQUIRE(fc);
	e2e_export(fc, blob);
	return fc;
}

void e2e_check_fc_import(struct ibv_context *ctx, uint8_t *blob,
			 uint32_t id)
{
	uint8_t out[PRM_QUERY_FC_OUT_LEN];
	struct mlx5dv_devx_obj *imp;

	imp = mlx5dv_devx_obj_import(ctx, blob);
	CHECK(imp != NULL);
	if (imp) {
		CHECK_EQ(fc_query(imp, id, out), 0);
		mlx5dv_devx_obj_unimport(imp);
	}
}

bool e2e_file_ids(struct ibv_context *ctx)
{
	return file_id_expected(ctx->cmd_fd);
}

void e2e_check_gone(struct ibv_context *ctx, uint8_t *blob)
{
	uint32_t in[4] = { 0 }, out[4];
	struct mlx5dv_devx_obj *imp;

	if (!e2e_file_ids(ctx)) {
		CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, blob), ENOENT);
		return;
	}
	imp = mlx5dv_devx_obj_import(ctx, blob);
	CHECK(imp != NULL);
	if (!imp)
		return;
	CHECK_EQ(mlx5dv_devx_obj_query(imp, in, sizeof(in), out,
				       sizeof(out)), ENOENT);
	mlx5dv_devx_obj_unimport(imp);
}

uint32_t e2e_blob_handle(const uint8_t *blob)
{
	struct blob b;

	REQUIRE(blob_decode(blob, E2E_BLOB_MAX, BLOB_KIND_DEVX_OBJ, &b) == 0);
	return b.handle;
}

uint32_t e2e_blob_object_id(const uint8_t *blob)
{
	struct blob b;

	REQUIRE(blob_decode(blob, E2E_BLOB_MAX, BLOB_KIND_DEVX_OBJ, &b) == 0);
	return b.obj.object_id;
}

long e2e_live_devx_objs(struct ibv_context *ctx)
{
	uint32_t *handles = NULL;
	size_t n = 0;

	if (info_handles_list(ctx->cmd_fd, RDMA_DRIVER_MLX5,
			      MLX5_IB_OBJECT_DEVX_OBJ, &handles, &n))
		return -1;
	free(handles);
	return (long)n;
}
