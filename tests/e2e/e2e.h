/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the end-to-end tests share: choosing where they run (under
 * mlx5-emu, or with --hw on a real mlx5 device), opening devices with
 * DEVX, the two DEVX objects they share (a flow counter and a flow meter
 * general object) as PRM mailboxes, export blobs, and re-running the test
 * binary as a second process.
 */
#ifndef E2E_H
#define E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <infiniband/mlx5dv.h>

#include "devx_objs.h"

/*
 * Parses the common options (--hw, --role R, --sock N).  With --hw, a
 * machine without a real mlx5 device (or running under mlx5-emu) makes
 * the test print "SKIPPED: name: ..." and exit 77.
 */
void e2e_init(int argc, char **argv, const char *name);
bool e2e_on_hw(void);
/* The --role this process was started with, or NULL for the main one. */
const char *e2e_role(void);
/* The --sock fd this process was started with, or -1. */
int e2e_sock(void);

/* mlx5 devices present (at most 16). */
int e2e_num_devices(void);
/* Opens the index-th mlx5 device with DEVX; exits the test on failure. */
struct ibv_context *e2e_open(int index);
/*
 * Opens devices 0 and 1, which must share one node GUID (mlx5-emu run
 * --same-guid): the test is skipped when they do not.
 */
void e2e_open_same_guid(struct ibv_context **ctx0,
			struct ibv_context **ctx1);
/* e2e_init() of a test with no roles, then e2e_open(0). */
struct ibv_context *e2e_start(int argc, char **argv, const char *name);
/*
 * e2e_init() of a test with a second role: started as that role, exits
 * with role_main()'s result; else returns e2e_open(0).
 */
struct ibv_context *e2e_start_roles(int argc, char **argv, const char *name,
				    int (*role_main)(void));

/*
 * Starts this same program again as --role role with one end of a fresh
 * SOCK_SEQPACKET socketpair as --sock; returns the pid and sets *sock to
 * the other end.
 */
pid_t e2e_spawn(const char *role, int *sock);
/*
 * Starts the program at path with args (argv[0] first, NULL-terminated)
 * and then "--sock N", N one end of a fresh SOCK_SEQPACKET socketpair;
 * returns the pid and sets *sock to the other end.
 */
pid_t e2e_spawn_program(const char *path, const char *const *args,
			int *sock);
/* Waits for pid; returns its exit status, or 128 + signal. */
int e2e_wait(pid_t pid);
/*
 * Lock-step between the two roles: one message of the single byte step
 * (REQUIREd sent), and the next such step received, 0 at end of stream.
 */
void e2e_send_step(int sock, char step);
char e2e_wait_step(int sock);

/*
 * A flow meter in ctx (meter_create()); on hardware without flow meters
 * the test reports itself skipped.
 */
struct mlx5dv_devx_obj *e2e_meter(struct ibv_context *ctx, uint32_t *id);
/* The flow counter and flow meter a sharing scenario hands over. */
struct e2e_pair {
	struct mlx5dv_devx_obj *fc, *meter;
	uint32_t fc_id, meter_id;
};
/* Makes them in ctx (the meter with e2e_meter()) and exports both. */
void e2e_pair_make(struct ibv_context *ctx, struct e2e_pair *p,
		   uint8_t *fc_blob, uint8_t *meter_blob);
/* The importing side: both objects from their blobs (or the test stops). */
void e2e_pair_import(struct ibv_context *ctx, struct e2e_pair *p,
		     uint8_t *fc_blob, uint8_t *meter_blob);
/* Can device 0 create a flow meter? */
bool e2e_meter_supported(void);

enum { E2E_BLOB_MAX = 256 };
/* mlx5dv_get_export_sizes()'s DEVX object blob size. */
size_t e2e_obj_blob_size(void);
/* Exports obj into blob[E2E_BLOB_MAX]; exits the test on failure. */
void e2e_export(struct mlx5dv_devx_obj *obj, uint8_t *blob);
/* A flow counter in ctx (REQUIREd), its id in *id, exported to blob. */
struct mlx5dv_devx_obj *e2e_fc_exported(struct ibv_context *ctx,
					uint32_t *id, uint8_t *blob);
/*
 * CHECKs that blob imports in ctx and that the import answers the query
 * of flow counter id; unimports it.
 */
void e2e_check_fc_import(struct ibv_context *ctx, uint8_t *blob,
			 uint32_t id);
/*
 * Does ctx's kernel report the verbs file id (series v3: a destroyed
 * object's handle is never given again, and import asks nothing)?  As
 * file_id_probe.h's file_id_expected().
 */
bool e2e_file_ids(struct ibv_context *ctx);
/*
 * CHECKs that the DEVX object blob of a destroyed object reaches nothing
 * in ctx: without the file id import refuses it with ENOENT; with it
 * import asks nothing and the object's first command (a query) fails
 * with ENOENT.  Unimports what it imported.
 */
void e2e_check_gone(struct ibv_context *ctx, uint8_t *blob);
/* The handle and object id a DEVX object blob carries. */
uint32_t e2e_blob_handle(const uint8_t *blob);
uint32_t e2e_blob_object_id(const uint8_t *blob);

/*
 * Live DEVX object handles in ctx's ufile, from INFO_HANDLES; -1 when the
 * kernel cannot tell.
 */
long e2e_live_devx_objs(struct ibv_context *ctx);

#endif
