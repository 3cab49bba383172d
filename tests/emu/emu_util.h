/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers for the mlx5-emu tests: the DEVX contexts the tests open, and a
 * raw RDMA_VERBS_IOCTL builder for the kernel rules libmlx5 never
 * exercises (bad handles, INFO_HANDLES...).  The DEVX objects they make
 * come from tests/common/devx_objs.h.
 */
#ifndef MLX5_EMU_TEST_UTIL_H
#define MLX5_EMU_TEST_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "check.h"
#include "devx_objs.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

/*
 * The driver data of an mlx5 QP create: 8 send and 8 receive WQEs (a
 * receive stride of 16 bytes) at buf, the doorbell record at db, the UAR
 * page given by index.
 */
static inline struct mlx5_ib_create_qp emu_qp_driver_data(const void *buf,
							  const void *db)
{
	struct mlx5_ib_create_qp c = {
		.buf_addr = (uintptr_t)buf,
		.db_addr = (uintptr_t)db,
		.sq_wqe_count = 8,
		.rq_wqe_count = 8,
		.rq_wqe_shift = 4,
		.flags = MLX5_QP_FLAG_UAR_PAGE_INDEX,
	};

	return c;
}

enum { EMU_THREADS_MAX = 64 };

/* A test's thread: the device it calls, its number, what it saw fail. */
struct emu_worker {
	struct ibv_context *ctx;
	unsigned int index;
	unsigned int failures;
};

/*
 * Runs fn on n workers on ctx, numbered from base, and waits for them;
 * returns the failures they counted, or n when one could not be started
 * (those that were are still waited for).
 */
static inline unsigned int emu_run_workers(struct ibv_context *ctx,
					   unsigned int n, unsigned int base,
					   void *(*fn)(void *))
{
	struct emu_worker w[EMU_THREADS_MAX];
	pthread_t t[EMU_THREADS_MAX];
	unsigned int i, started, failures = 0;

	REQUIRE(n <= EMU_THREADS_MAX);
	for (started = 0; started < n; started++) {
		w[started] = (struct emu_worker){ ctx, base + started, 0 };
		if (pthread_create(&t[started], NULL, fn, &w[started]))
			break;
	}
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		failures += w[i].failures;
	}
	return started == n ? failures : n;
}

/*
 * A raw ioctl: the attrs as given, the header around them.  Returns 0 or
 * the errno, as libibverbs' execute_ioctl() does.
 */
struct emu_raw {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[8];
};

static inline void raw_init(struct emu_raw *r, uint16_t object,
			    uint16_t method)
{
	memset(r, 0, sizeof(*r));
	r->hdr.object_id = object;
	r->hdr.method_id = method;
	r->hdr.driver_id = RDMA_DRIVER_MLX5;
}

static inline struct ib_uverbs_attr *raw_attr(struct emu_raw *r, uint16_t id,
					      uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a = &r->attrs[r->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	return a;
}

static inline int raw_exec(int fd, struct emu_raw *r)
{
	r->hdr.length = sizeof(r->hdr) + r->hdr.num_attrs * sizeof(r->attrs[0]);
	return ioctl(fd, RDMA_VERBS_IOCTL, &r->hdr) ? errno : 0;
}

/*
 * UVERBS_METHOD_INFO_HANDLES: the handles of object type obj_type in the
 * ufile of fd, up to cap of them.  Returns 0 or errno; *total gets
 * TOTAL_HANDLES.
 */
static inline int emu_info_handles(int fd, uint16_t obj_type, uint32_t *list,
				   size_t cap, uint32_t *total)
{
	struct emu_raw r;

	raw_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	raw_attr(&r, UVERBS_ATTR_INFO_OBJECT_ID, 8, obj_type);
	raw_attr(&r, UVERBS_ATTR_INFO_TOTAL_HANDLES, sizeof(*total),
		 (uintptr_t)total);
	raw_attr(&r, UVERBS_ATTR_INFO_HANDLES_LIST,
		 (uint16_t)(cap * sizeof(*list)), (uintptr_t)list);
	return raw_exec(fd, &r);
}

/*
 * MLX5_IB_METHOD_DEVX_OBJ_QUERY of flow counter counter_id through the
 * DEVX object at handle in the ufile of fd, bypassing libmlx5.  Returns 0
 * or the errno.
 */
static inline int emu_raw_counter_query(int fd, uint64_t handle,
					uint32_t counter_id)
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = {}, out[PRM_QUERY_FC_IN_LEN] = {};
	struct emu_raw r;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, counter_id);
	raw_init(&r, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_QUERY);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, 0, handle);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, sizeof(in),
		 (uintptr_t)in);
	raw_attr(&r, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, sizeof(out),
		 (uintptr_t)out);
	return raw_exec(fd, &r);
}

static inline bool handles_contain(const uint32_t *list, uint32_t n,
				   uint32_t h)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (list[i] == h)
			return true;
	return false;
}

/* SKIPPED unless running under mlx5-emu */
static inline void emu_require(const char *name)
{
	if (!getenv("MLX5_EMU_DIR"))
		check_skip(name, "not running under mlx5-emu");
}

/* The emulator daemon's pid; the test is skipped outside mlx5-emu. */
static inline pid_t emu_daemon_pid(const char *name)
{
	const char *pid_s = getenv("MLX5_EMU_DAEMON_PID");
	pid_t pid = pid_s ? (pid_t)atoi(pid_s) : 0;

	if (pid <= 0)
		check_skip(name, "MLX5_EMU_DAEMON_PID not set");
	return pid;
}

/* emu_require(), then device 0 opened with DEVX (or the test stops) */
static inline struct ibv_context *emu_start(const char *name)
{
	struct ibv_context *ctx;

	emu_require(name);
	ctx = devx_open(NULL, 0);
	REQUIRE(ctx);
	return ctx;
}

/* emu_require(), then device 0 opened as plain verbs (or the test stops) */
static inline struct ibv_context *emu_start_verbs(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	int n;

	emu_require(name);
	list = ibv_get_device_list(&n);
	REQUIRE(list && n > 0);
	ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	REQUIRE(ctx);
	return ctx;
}

/*
 * Forks a child that runs child(arg, fd), then _exit(0)s: it reports len
 * bytes through fd and goes on (busy, or paused).  Returns its pid once
 * the parent has read them into buf.
 */
static inline pid_t emu_fork_reporter(void (*child)(void *arg, int fd),
				      void *arg, void *buf, size_t len)
{
	int p[2];
	pid_t pid;

	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		child(arg, p[1]);
		_exit(0);
	}
	close(p[1]);
	REQUIRE(read(p[0], buf, len) == (ssize_t)len);
	close(p[0]);
	return pid;
}

/* Kills pid with SIGKILL; returns its wait status. */
static inline int emu_kill_wait(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	return status;
}

/* emu_fork_reporter(), then emu_kill_wait() of the child. */
static inline int emu_report_and_kill(void (*child)(void *arg, int fd),
				      void *arg, void *buf, size_t len)
{
	return emu_kill_wait(emu_fork_reporter(child, arg, buf, len));
}

#endif
