/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-share-demo: two processes share DEVX objects, a UMEM and a VAR.
 * The exporter creates and exports them and passes its command fd and the
 * blobs over a UNIX socket; the importer imports the device and every
 * object, uses them, unimports; the exporter destroys; the importer shows
 * that the stale blobs are refused.  The files:
 *
 *   mlx5-share-demo.c           options, device choice, mlx5-emu re-exec
 *   mlx5-share-demo-exporter.c  the exporting process
 *   mlx5-share-demo-importer.c  the importing process
 *   mlx5-share-demo-objects.c   each kind of object: create, use, destroy
 *   mlx5-share-demo-wire.c      the socket messages, fd passing
 *   mlx5-share-demo-report.c    step lines, checks, progress, summary
 */
#ifndef MLX5_SHARE_DEMO_H
#define MLX5_SHARE_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include "blob.h"
#include "errname.h"

enum demo_exit { DEMO_EXIT_OK = 0, DEMO_EXIT_CHECK = 1, DEMO_EXIT_USAGE = 2 };

/* What one demo run shares; the first objects are one of each kind. */
enum demo_kind {
	DEMO_FLOW_COUNTER,
	DEMO_GENERAL_OBJ,
	DEMO_UMEM,
	DEMO_VAR,
	DEMO_NUM_KINDS,
};

struct demo_opts {
	const char *device;	/* NULL: the first mlx5 device */
	unsigned long objects;	/* 0: one of each kind */
	const char *save_dir;	/* NULL: blobs are not saved */
	bool emulated;		/* running under mlx5-emu */
};

/* One shared object, as each side holds it. */
struct demo_obj {
	enum demo_kind kind;
	unsigned int index;		/* among the objects of its kind */
	union {
		struct mlx5dv_devx_obj *devx;
		struct mlx5dv_devx_umem *umem;
		struct mlx5dv_var *var;
	};
	uint32_t id;			/* firmware id: counter, object, umem,
					 * VAR page */
	uint32_t handle;		/* as the blob tells it */
	void *umem_buf;			/* exporter: the registered memory */
	uint8_t blob[BLOB_MAX_SIZE];
};

/* --- objects.c: each kind's operations --- */
const char *demo_kind_name(enum demo_kind kind);
const char *demo_kind_file(enum demo_kind kind);
enum blob_kind demo_blob_kind(enum demo_kind kind);
/* The kinds to share for n objects (n == 0: one of each). */
enum demo_kind demo_kind_of(unsigned long i, unsigned long n);
/* Exporter side; each returns 0 or an errno and says what it did in why. */
int demo_create(struct ibv_context *ctx, struct demo_obj *o, char *why,
		size_t whylen);
int demo_export(struct demo_obj *o);
int demo_destroy(struct demo_obj *o);
/* The general object's value as the importer left it, read by the
 * exporter through its own object: the proof that both share one. */
int demo_read_shared_value(struct demo_obj *o, uint64_t *value);
/* Importer side. */
int demo_import(struct ibv_context *ctx, struct demo_obj *o);
void demo_unimport(struct demo_obj *o);
/* Reads the object through DEVX; describes what it saw in what. */
int demo_query(struct demo_obj *o, char *what, size_t whatlen);
/* Changes the object where its type allows; 0 with *changed false when it
 * has nothing to change. */
int demo_modify(struct ibv_context *ctx, struct demo_obj *o, bool *changed,
		char *what, size_t whatlen);
/* The value the importer writes into a general object. */
uint64_t demo_shared_value(const struct demo_obj *o);

/* --- wire.c: the socket between exporter and importer --- */
enum wire_type {
	WIRE_HELLO = 1,		/* carries the command fd */
	WIRE_BLOBS,
	WIRE_BLOBS_END,
	WIRE_UNIMPORTED,
	WIRE_DESTROYED,
	WIRE_DONE,		/* the importer's tally */
	WIRE_ABORT,		/* either side gives up */
};

#define WIRE_BATCH 48

struct wire_entry {
	uint8_t kind;		/* enum demo_kind */
	uint8_t reserved[3];
	uint32_t index;
	uint8_t blob[BLOB_MAX_SIZE];
};

struct wire_msg {
	uint32_t type;
	uint32_t count;		/* entries, or objects in HELLO */
	uint32_t passed, failed;
	uint64_t node_guid;
	char device[64];
	struct wire_entry entry[WIRE_BATCH];
};

/* fd < 0: none.  Both return 0 or an errno (EPIPE for a closed peer). */
int wire_send(int sock, const struct wire_msg *m, int fd);
int wire_recv(int sock, struct wire_msg *m, int *fd);
/* Sends a message that carries no entries. */
int wire_send_ctl(int sock, enum wire_type type, uint32_t passed,
		  uint32_t failed);

/* --- report.c: what the user reads --- */
struct demo_tally {
	unsigned int passed, failed;
};

double demo_now_ms(void);
/* One step: role, what was done, and the time it took. */
void report_step(const char *role, double ms, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A step that is also a check; returns ok. */
bool report_check(struct demo_tally *t, bool ok, const char *role, double ms,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Counts a check without a line of its own (large runs); a failure is
 * still printed, up to a limit. */
bool report_quiet_check(struct demo_tally *t, bool ok, const char *role,
			const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* report_quiet_check() of "VERB KIND #N (handle H): WHAT" for object o. */
bool report_quiet_obj(struct demo_tally *t, bool ok, const char *role,
		      const char *verb, const struct demo_obj *o,
		      const char *what);
/*
 * Object o's check in a phase begun at t1: verbose, a line of its own,
 * "VERB KIND #N" and then fmt; else report_quiet_obj(..., what).
 */
bool report_obj(struct demo_tally *t, bool verbose, bool ok,
		const char *role, double t1, const char *verb,
		const struct demo_obj *o, const char *what, const char *fmt,
		...) __attribute__((format(printf, 9, 10)));
/* Whether runs of n objects print one line per object. */
bool report_verbose(unsigned long n);
/* Progress of a long phase: a bar on a terminal, a line per tenth else. */
void report_progress(const char *role, const char *phase, unsigned long done,
		     unsigned long total);
void report_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void format_guid(uint64_t guid, char *out, size_t outlen);


/* --- the two sides --- */
int run_exporter(const struct demo_opts *opts, int sock, int child_pid);
int run_importer(int sock);

#endif
