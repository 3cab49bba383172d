// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The emulator's daemon (the emulated kernel) dies in the middle of a
 * run.  Every call that needs it must fail, with an error and within a
 * bounded time, and never hang; calls that need only local state behave
 * as before.  A guard alarm turns a hang into a failure of this test.
 *
 * This is about mlx5-emu (a real kernel does not die under a process);
 * the library's part is that import, export and unimport of an object
 * whose kernel went away neither hang nor crash nor leak.  On a kernel
 * that reports the verbs file id, import and export need only what the
 * context's first export learnt (the file id, the device's identity):
 * they still work, locally, and what they make reaches nothing.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "check.h"
#include "e2e.h"

#define NAME "fault_daemon_killed"

enum { CALL_BOUND_SECONDS = 20 };

/*
 * Each call that needs the daemon runs under its own alarm: a call that
 * hangs kills this test with SIGALRM (a failure) instead of blocking CI.
 */
#define BOUNDED(stmt)                                                      \
	do {                                                               \
		alarm(CALL_BOUND_SECONDS);                                 \
		stmt;                                                      \
		alarm(0);                                                  \
	} while (0)
#define CHECK_BOUNDED(expr) BOUNDED(CHECK(expr))

/*
 * The daemon is the launcher's child, not ours: it is gone once its
 * /proc entry is gone or shows a zombie.
 */
static void wait_gone(pid_t pid)
{
	char path[64], st[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return;
		st[0] = '\0';
		if (!fgets(st, sizeof(st), f))
			st[0] = '\0';
		fclose(f);
		if (strstr(st, ") Z ") || strstr(st, ") X "))
			return;
		usleep(1000);
	}
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc, *imp, *objs[1];
	uint8_t blob[E2E_BLOB_MAX], copy[E2E_BLOB_MAX], out[32];
	struct ibv_context *ctx;
	const char *pid_s;
	void *ptrs[1] = { blob };
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *c2 = NULL;
	struct ibv_device **list;
	uint32_t id, id2;
	int errs[1], ret;
	bool file_ids;
	pid_t daemon;

	e2e_init(argc, argv, NAME);
	pid_s = getenv("MLX5_EMU_DAEMON_PID");
	if (e2e_on_hw() || !pid_s)
		check_skip(NAME, "needs mlx5-emu (MLX5_EMU_DAEMON_PID)");
	daemon = atoi(pid_s);
	REQUIRE(daemon > 1);

	ctx = e2e_open(0);
	fc = fc_alloc(ctx, &id);
	REQUIRE(fc);
	e2e_export(fc, blob);
	imp = mlx5dv_devx_obj_import(ctx, blob);
	REQUIRE(imp);
	file_ids = e2e_file_ids(ctx);

	REQUIRE(kill(daemon, SIGKILL) == 0);
	BOUNDED(wait_gone(daemon));

	/* Everything that needs the kernel fails, in bounded time. */
	CHECK_BOUNDED(fc_query(fc, id, out) != 0);
	CHECK_BOUNDED(fc_query(imp, id, out) != 0);
	CHECK_BOUNDED(fc_alloc(ctx, &id2) == NULL);
	CHECK_BOUNDED(e2e_live_devx_objs(ctx) == -1);
	if (file_ids) {
		/* Nothing to ask: both import, and the query fails. */
		struct mlx5dv_devx_obj *again;

		BOUNDED(again = mlx5dv_devx_obj_import(ctx, blob));
		CHECK(again != NULL);
		if (again) {
			CHECK_BOUNDED(fc_query(again, id, out) != 0);
			mlx5dv_devx_obj_unimport(again);
		}
		CHECK_BOUNDED(mlx5share_devx_obj_import_batch(ctx, ptrs, 1,
							      objs,
							      errs) == 1);
		CHECK(errs[0] == 0 && objs[0] != NULL);
		if (objs[0])
			mlx5dv_devx_obj_unimport(objs[0]);
	} else {
		errno = 0;
		CHECK_BOUNDED(mlx5dv_devx_obj_import(ctx, blob) == NULL);
		CHECK(errno != 0);
		CHECK_BOUNDED(mlx5share_devx_obj_import_batch(ctx, ptrs, 1,
							      objs,
							      errs) == 0);
		CHECK(errs[0] != 0 && objs[0] == NULL);
	}

	/*
	 * Export asks the kernel nothing once the context's first export
	 * learnt its identity: it writes the same blob, in bounded time.
	 * Unimport is local and still works.
	 */
	memcpy(copy, blob, sizeof(copy));
	BOUNDED(ret = mlx5dv_devx_obj_export(fc, blob));
	CHECK_EQ(ret, 0);
	CHECK(!memcmp(copy, blob, sizeof(copy)));
	mlx5dv_devx_obj_unimport(imp);
	/*
	 * Destroy cannot reach the kernel: libmlx5 then keeps the object,
	 * which unimport releases.  Close returns too.
	 */
	BOUNDED(ret = mlx5dv_devx_obj_destroy(fc));
	CHECK(ret != 0);
	if (ret)
		mlx5dv_devx_obj_unimport(fc);
	BOUNDED(ibv_close_device(ctx));

	/* A new open fails cleanly too. */
	list = ibv_get_device_list(NULL);
	if (list && list[0]) {
		BOUNDED(c2 = mlx5dv_open_device(list[0], &attr));
		CHECK(c2 == NULL);
		if (c2)
			ibv_close_device(c2);
	}
	if (list)
		ibv_free_device_list(list);
	return check_done(NAME);
}
