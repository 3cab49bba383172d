/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-share-bench's parts: the objects it measures on (bench_objects.c),
 * the model of upstream's implementation it compares with
 * (bench_baseline.c) and the table it prints (bench_report.c).
 */
#ifndef MLX5_SHARE_BENCH_H
#define MLX5_SHARE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/mlx5dv.h>

enum bench_kind {
	BENCH_COUNTER,	/* flow counter: confirmed by its id query */
	BENCH_PD,	/* PD through DEVX: untyped, checked by INFO_HANDLES */
};

/* N live objects of one kind in one context, and room for their copies. */
struct bench_run {
	struct ibv_context *ctx;
	enum bench_kind kind;
	size_t n;
	struct mlx5dv_devx_obj **objs;	/* as created */
	uint32_t *ids;			/* their firmware ids */
	void **blobs;			/* our export records */
	void **base_blobs;		/* the upstream model's records */
	struct mlx5dv_devx_obj **imported;
	int *errs;
	double create_ns;		/* per object */
};

/* One line of the table. */
struct bench_row {
	size_t n;
	double create_ns;
	double export_ns, base_export_ns;
	double import_ns, base_import_ns;
	double batch_ns, batch_total_ns;
	double unimport_ns, base_unimport_ns;
	double query_ns;
	/*
	 * Per object, counted by mlx5-emu over one more pass of each (no
	 * counts: counted false): uverbs ioctls and firmware commands.
	 */
	bool counted;
	double export_calls, export_fw;
	double import_calls, import_fw;
	double batch_calls, batch_fw;
};

/*
 * Creates n objects of kind in ctx and exports nothing yet.  Returns NULL
 * (after saying exactly why, with the firmware's status and syndrome)
 * when the device cannot hold n of them.
 */
struct bench_run *bench_setup(struct ibv_context *ctx, enum bench_kind kind,
			      size_t n);
void bench_teardown(struct bench_run *r);

/* How many kernel round trips query_rounds() times for n objects. */
size_t bench_query_calls(const struct bench_run *r, size_t n);
/*
 * The kernel round trip a validated import of r's kind pays for object i:
 * the counter's QUERY_FLOW_COUNTER, or one INFO_HANDLES listing every
 * live DEVX object.  0 or an errno.
 */
int bench_query(struct bench_run *r, size_t i);

/* Prints what failed and exits. */
void bench_die(const char *what, int err) __attribute__((noreturn));

/* The model of upstream rdma-core's implementation (no kernel query). */
enum { BASE_BLOB_SIZE = 32 };
void base_export(const struct mlx5dv_devx_obj *obj, void *data);
struct mlx5dv_devx_obj *base_import(struct ibv_context *ctx,
				    const void *data);
void base_unimport(struct mlx5dv_devx_obj *obj);

/* file_ids: the kernel reports the verbs file id (import's whole check) */
void bench_print_machine(bool file_ids);
void bench_print(enum bench_kind kind, const struct bench_row *rows, int n,
		 bool file_ids);

#endif
