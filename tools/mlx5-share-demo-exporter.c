// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The exporting process: opens the device, creates the objects, exports
 * them, hands its command fd and the blobs to the importer, and destroys
 * the objects once the importer has let go of them.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mlx5-share-demo.h"

#define ROLE "exporter"

struct exporter {
	const struct demo_opts *opts;
	struct demo_tally t;
	struct ibv_context *ctx;
	uint64_t guid;
	char device[64];
	struct demo_obj *objs;
	unsigned long n;		/* objects created */
	unsigned long per_kind[DEMO_NUM_KINDS];
	bool verbose;
};

static struct ibv_device *pick_device(struct ibv_device **list, int n,
				      const char *name)
{
	for (int i = 0; i < n; i++) {
		if (name ? !strcmp(ibv_get_device_name(list[i]), name) :
			   mlx5dv_is_supported(list[i]))
			return list[i];
	}
	return NULL;
}

/* Returns 0, or DEMO_EXIT_USAGE when there is no device to open. */
static int open_device(struct exporter *x)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device **list, *dev;
	char guid[32];
	double t0 = demo_now_ms();
	int n = 0;

	list = ibv_get_device_list(&n);
	dev = list ? pick_device(list, n, x->opts->device) : NULL;
	if (!dev) {
		report_error("no %s device%s%s", x->opts->device ? "RDMA" :
			     "mlx5", x->opts->device ? " named " : "",
			     x->opts->device ? x->opts->device : "");
		if (list)
			ibv_free_device_list(list);
		return DEMO_EXIT_USAGE;
	}
	snprintf(x->device, sizeof(x->device), "%s", ibv_get_device_name(dev));
	x->guid = be64toh(ibv_get_device_guid(dev));
	x->ctx = mlx5dv_open_device(dev, &attr);
	ibv_free_device_list(list);
	if (!x->ctx) {
		report_error("cannot open %s with DEVX: %s", x->device,
			     strerror(errno));
		return DEMO_EXIT_USAGE;
	}
	format_guid(x->guid, guid, sizeof(guid));
	report_note("using %s device %s, node GUID %s",
		    x->opts->emulated ? "the emulated (mlx5-emu)" : "the real",
		    x->device, guid);
	report_step(ROLE, demo_now_ms() - t0, "open %s with DEVX: cmd_fd %d",
		    x->device, x->ctx->cmd_fd);
	return 0;
}

/* On hardware, the flow meter and the VAR are optional features. */
static bool optional_here(const struct exporter *x, enum demo_kind kind)
{
	return !x->opts->emulated &&
	       (kind == DEMO_GENERAL_OBJ || kind == DEMO_VAR);
}

static void create_objects(struct exporter *x, unsigned long total)
{
	double t0 = demo_now_ms();

	for (unsigned long i = 0; i < total; i++) {
		struct demo_obj *o = &x->objs[x->n];
		char why[160];
		double t1 = demo_now_ms();
		int err;

		memset(o, 0, sizeof(*o));
		o->kind = demo_kind_of(i, total);
		o->index = x->per_kind[o->kind];
		err = demo_create(x->ctx, o, why, sizeof(why));
		if (err && optional_here(x, o->kind)) {
			report_note("%s not available on %s (%s): not shared",
				    demo_kind_name(o->kind), x->device, why);
			continue;
		}
		if (x->verbose || err)
			report_check(&x->t, !err, ROLE, demo_now_ms() - t1,
				     "create %s #%u: %s",
				     demo_kind_name(o->kind), o->index, why);
		else
			x->t.passed++;
		report_progress(ROLE, "create", i + 1, total);
		if (err)
			continue;
		x->per_kind[o->kind]++;
		x->n++;
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0,
			    "create %lu objects: %lu flow counters, %lu flow "
			    "meter, %lu UMEM, %lu VAR", x->n,
			    x->per_kind[DEMO_FLOW_COUNTER],
			    x->per_kind[DEMO_GENERAL_OBJ],
			    x->per_kind[DEMO_UMEM], x->per_kind[DEMO_VAR]);
}

static int save_blob(const char *dir, const struct demo_obj *o,
		     unsigned long n)
{
	char path[4096];
	size_t size = blob_size(demo_blob_kind(o->kind));
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s-%lu.blob", dir,
		 demo_kind_file(o->kind), n);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	if (write(fd, o->blob, size) != (ssize_t)size)
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* What the blob says must be what the exporter knows of the object. */
static int check_blob(const struct exporter *x, struct demo_obj *o)
{
	struct blob b;
	uint32_t id;
	int err;

	err = blob_decode(o->blob, sizeof(o->blob), demo_blob_kind(o->kind),
			  &b);
	if (err)
		return err;
	switch (b.kind) {
	case BLOB_KIND_DEVX_UMEM:
		id = b.umem.umem_id;
		break;
	case BLOB_KIND_VAR:
		id = b.var.page_id;
		break;
	default:
		id = b.obj.object_id;
		break;
	}
	o->handle = b.handle;	/* first in every kind */
	return id == o->id && b.node_guid == x->guid ? 0 : EBADMSG;
}

static void export_objects(struct exporter *x)
{
	unsigned long saved[4] = {};
	uint32_t lo = UINT32_MAX, hi = 0;
	double t0 = demo_now_ms();

	if (x->opts->save_dir && mkdir(x->opts->save_dir, 0755) &&
	    errno != EEXIST)
		report_error("cannot create %s: %s", x->opts->save_dir,
			     strerror(errno));

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		double t1 = demo_now_ms();
		int err = demo_export(o);

		if (!err)
			err = check_blob(x, o);
		if (o->handle < lo)
			lo = o->handle;
		if (o->handle > hi)
			hi = o->handle;
		if (x->verbose)
			report_check(&x->t, !err, ROLE, demo_now_ms() - t1,
				     "export %s #%u: handle %u, id 0x%x -> "
				     "%zu-byte blob%s%s",
				     demo_kind_name(o->kind),
				     o->index, o->handle, o->id,
				     blob_size(demo_blob_kind(o->kind)),
				     err ? ": " : "", err ? strerror(err) : "");
		else
			report_quiet_check(&x->t, !err, ROLE,
					   "export %s #%u: %s",
					   demo_kind_name(o->kind), o->index,
					   strerror(err));
		if (x->opts->save_dir && !err) {
			enum blob_kind k = demo_blob_kind(o->kind);

			err = save_blob(x->opts->save_dir, o, saved[k]);
			if (!err)
				saved[k]++;
			report_quiet_check(&x->t, !err, ROLE,
					   "save blob of %s #%u in %s: %s",
					   demo_kind_name(o->kind), o->index,
					   x->opts->save_dir, strerror(err));
		}
		report_progress(ROLE, "export", i + 1, x->n);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0,
			    "export %lu objects: handles %u..%u", x->n,
			    x->n ? lo : 0, hi);
	if (x->opts->save_dir)
		report_step(ROLE, -1, "%lu blobs saved in %s",
			    saved[BLOB_KIND_DEVX_OBJ] +
			    saved[BLOB_KIND_DEVX_UMEM] + saved[BLOB_KIND_VAR],
			    x->opts->save_dir);
}

static int send_all(struct exporter *x, int sock)
{
	static struct wire_msg m;
	double t0 = demo_now_ms();
	int err;

	memset(&m, 0, sizeof(m));
	m.type = WIRE_HELLO;
	m.count = (uint32_t)x->n;
	m.node_guid = x->guid;
	snprintf(m.device, sizeof(m.device), "%s", x->device);
	err = wire_send(sock, &m, x->ctx->cmd_fd);
	for (unsigned long i = 0; !err && i < x->n; i += WIRE_BATCH) {
		memset(&m, 0, sizeof(m));
		m.type = WIRE_BLOBS;
		for (unsigned long j = i; j < x->n && j < i + WIRE_BATCH; j++) {
			struct wire_entry *e = &m.entry[m.count++];

			e->kind = (uint8_t)x->objs[j].kind;
			e->index = x->objs[j].index;
			memcpy(e->blob, x->objs[j].blob, sizeof(e->blob));
		}
		err = wire_send(sock, &m, -1);
	}
	/* Said before the last message, which lets the importer speak. */
	report_check(&x->t, !err, ROLE, demo_now_ms() - t0,
		     "send cmd_fd %d and %lu blobs over the socket%s%s",
		     x->ctx->cmd_fd, x->n, err ? ": " : "",
		     err ? strerror(err) : "");
	if (!err)
		err = wire_send_ctl(sock, WIRE_BLOBS_END, 0, 0);
	return err;
}

/* Waits for one message of the given type; anything else ends the run. */
static int await(struct exporter *x, int sock, enum wire_type type,
		 struct wire_msg *m)
{
	int err = wire_recv(sock, m, NULL);

	if (!err && m->type == type)
		return 0;
	if (!err && m->type == WIRE_ABORT) {
		x->t.passed += m->passed;
		x->t.failed += m->failed;
	}
	report_check(&x->t, false, ROLE, -1, "importer %s",
		     err == EPIPE ? "exited early" :
		     err ? strerror(err) : "gave up");
	return err ? err : ECANCELED;
}

/* The importer changed each flow meter; the exporter's own object must
 * read the change, since both name one firmware object. */
static void verify_changes(struct exporter *x)
{
	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		uint64_t v = 0;
		double t1 = demo_now_ms();
		int err;

		if (o->kind != DEMO_GENERAL_OBJ)
			continue;
		err = demo_read_shared_value(o, &v);
		report_check(&x->t, !err && v == demo_shared_value(o), ROLE,
			     demo_now_ms() - t1, "query %s #%u (handle %u): "
			     "CIR 0x%llx, set by the importer",
			     demo_kind_name(o->kind), o->index, o->handle,
			     (unsigned long long)v);
	}
}

static void destroy_objects(struct exporter *x)
{
	double t0 = demo_now_ms();

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		double t1 = demo_now_ms();
		int err;

		if (!o->devx)
			continue;
		err = demo_destroy(o);
		report_obj(&x->t, x->verbose, !err, ROLE, t1, "destroy", o,
			   strerror(err), " (handle %u)%s%s", o->handle,
			   err ? ": " : "", err ? strerror(err) : "");
		report_progress(ROLE, "destroy", i + 1, x->n);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0, "destroy %lu objects",
			    x->n);
}

static int wait_child(int pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* "997 flow counters, 1 flow meter, 1 UMEM, 1 VAR", kinds present only. */
static void kinds_text(const struct exporter *x, char *out, size_t len)
{
	static const char *const plural[DEMO_NUM_KINDS] = {
		"flow counters", "flow meters", "UMEMs", "VARs",
	};
	size_t used = 0;

	out[0] = 0;
	for (int k = 0; k < DEMO_NUM_KINDS && used < len; k++) {
		unsigned long n = x->per_kind[k];

		if (!n)
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s%lu %s",
					 used ? ", " : "", n, n == 1 ?
					 demo_kind_name((enum demo_kind)k) :
					 plural[k]);
	}
}

static void summary(const struct exporter *x, const struct wire_msg *done,
		    int child_pid)
{
	unsigned int passed = x->t.passed, failed = x->t.failed;
	unsigned int shared = done ? done->count : 0;
	char kinds[160];

	kinds_text(x, kinds, sizeof(kinds));
	printf("\nsummary: %u object%s shared (%s) from pid %d to pid %d on "
	       "%s %s\n", shared, shared == 1 ? "" : "s", kinds,
	       (int)getpid(), child_pid,
	       x->opts->emulated ? "emulated" : "real", x->device);
	printf("summary: checks: %u passed, %u failed (exporter %u/%u, "
	       "importer %u/%u)\n", passed, failed,
	       passed - (done ? done->passed : 0),
	       failed - (done ? done->failed : 0),
	       done ? done->passed : 0, done ? done->failed : 0);
	fflush(stdout);
}

int run_exporter(const struct demo_opts *opts, int sock, int child_pid)
{
	struct exporter x = { .opts = opts };
	unsigned long total = opts->objects ? opts->objects : DEMO_NUM_KINDS;
	struct wire_msg *m = calloc(1, sizeof(*m));
	bool done = false;
	int ret, child;

	x.verbose = report_verbose(total);
	x.objs = calloc(total, sizeof(*x.objs));
	if (!m || !x.objs) {
		report_error("out of memory for %lu objects", total);
		ret = DEMO_EXIT_USAGE;
		goto out;
	}
	ret = open_device(&x);
	if (ret)
		goto out;

	create_objects(&x, total);
	export_objects(&x);
	if (send_all(&x, sock) || await(&x, sock, WIRE_UNIMPORTED, m))
		goto destroy;
	verify_changes(&x);
destroy:
	destroy_objects(&x);
	/* Only now may the importer show that the stale blobs are refused. */
	if (!wire_send_ctl(sock, WIRE_DESTROYED, 0, 0) &&
	    !await(&x, sock, WIRE_DONE, m)) {
		x.t.passed += m->passed;
		x.t.failed += m->failed;
		done = true;
	}
out:
	close(sock);	/* an importer still waiting sees the end */
	child = wait_child(child_pid);
	if (!ret) {
		if (child)
			report_check(&x.t, false, ROLE, -1,
				     "importer pid %d exited with status %d",
				     child_pid, child);
		summary(&x, done ? m : NULL, child_pid);
		ret = x.t.failed ? DEMO_EXIT_CHECK : DEMO_EXIT_OK;
	}
	if (x.ctx)
		ibv_close_device(x.ctx);
	free(x.objs);
	free(m);
	return ret;
}
