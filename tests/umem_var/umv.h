/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the UMEM and VAR sharing tests: open an emulated device,
 * pass a command fd and a blob to another process (SCM_RIGHTS), ask the
 * kernel which handles are live, read a blob's handle.
 */
#ifndef MLX5_SHARE_TEST_UMV_H
#define MLX5_SHARE_TEST_UMV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "devx_objs.h"
#include "fdpass.h"

/* Bytes for any blob (mlx5dv_get_export_sizes() reports each kind's). */
#define UMV_BLOB_MAX 128

/* Opens the device of this name with DEVX; exits the test if it cannot. */
struct ibv_context *umv_open(const char *name);

/*
 * Forks a child that runs fn(sock) and exits with its return value; the
 * parent gets the other end of a SOCK_SEQPACKET pair in *sock, for
 * fdpass_send() and fdpass_recv_exact() (tests/common/fdpass.h).
 */
pid_t umv_fork(int (*fn)(int sock), int *sock);

/*
 * The importing child's start: counts only its own checks from here (fork
 * copied the parent's), receives the exporter's command fd with a first
 * message of len bytes into buf, and imports the device (or stops).
 * Inline: the counters are the calling test's own (check.h).
 */
static inline struct ibv_context *umv_import_device(int sock, void *buf,
						    size_t len)
{
	struct ibv_context *ctx;
	int fd;

	check_passed = check_failed = 0;
	REQUIRE(!fdpass_recv_exact(sock, &fd, buf, len));
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	return ctx;
}

typedef void (*umv_test)(void);

/*
 * A test program of tests that share the devices mlx5_0 and mlx5_1:
 * opens both into *ctx0 and *ctx1, runs each test of the NULL-terminated
 * list, closes both and reports as check_done(name).
 */
static inline int umv_run(const char *name, struct ibv_context **ctx0,
			  struct ibv_context **ctx1, ...)
{
	umv_test test;
	va_list ap;

	*ctx0 = umv_open("mlx5_0");
	*ctx1 = umv_open("mlx5_1");
	va_start(ap, ctx1);
	while ((test = va_arg(ap, umv_test)))
		test();
	va_end(ap);
	CHECK_EQ(ibv_close_device(*ctx1), 0);
	CHECK_EQ(ibv_close_device(*ctx0), 0);
	return check_done(name);
}

/* Maps the VAR page on fd as an application would; 0 or the errno. */
int umv_var_map(int fd, const struct mlx5dv_var *var);

/* One step of the two processes' lock-step: send it; did the peer's come? */
int umv_send_step(int sock, char step);
bool umv_got_step(int sock, char want);

/* The child's exit status (-1 when it did not exit normally). */
int umv_wait(pid_t pid);

/* Does the kernel list handle as a live object of mlx5 type object_id? */
bool umv_listed(struct ibv_context *ctx, uint16_t object_id, uint32_t handle);

/* The uverbs handle a valid blob carries. */
uint32_t umv_blob_handle(const void *blob);

/*
 * CHECKs that the blob of a deregistered UMEM (freed VAR) reaches nothing
 * in ctx: on a kernel without the verbs file id import refuses it with
 * ENOENT; with it (series v3) import asks nothing and the object's first
 * command fails: a UMEM's dereg with ENOENT, a VAR's mapping with EINVAL
 * (while no later VAR took its offset).  Unimports what it imported.
 */
void umv_check_umem_gone(struct ibv_context *ctx, void *blob);
void umv_check_var_gone(struct ibv_context *ctx, void *blob);

#endif
