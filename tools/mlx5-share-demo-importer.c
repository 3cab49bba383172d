// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The importing process: it never opened the device.  It receives the
 * exporter's command fd, imports the device and every object, reads and
 * changes them, lets go of them, and, once the exporter has destroyed
 * them, shows that their blobs reach nothing: refused (ENOENT) on a
 * kernel without the verbs file id, imported into an object whose first
 * command fails on one with it (kernel series v3).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mlx5-share-demo.h"

#define ROLE "importer"

/* More objects than a demo run can ask for means a broken message. */
#define MAX_OBJECTS 10000000u

struct importer {
	struct demo_tally t;
	struct ibv_context *ctx;
	struct demo_obj *objs;
	unsigned long n;
	unsigned long imported;
	bool verbose;
};

/* The first message: the exporter's device and its command fd. */
static int receive_hello(int sock, struct wire_msg *m, int *fd)
{
	int err = wire_recv(sock, m, fd);

	if (!err && m->type == WIRE_HELLO && *fd >= 0)
		return 0;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	/* An exporter that could not open its device says so itself. */
	return err == EPIPE ? EPIPE : (err ? err : EBADMSG);
}

static int import_device(struct importer *x, int fd, const char *device,
			 uint64_t node_guid)
{
	char guid[32], want[32];
	uint64_t dev_guid;
	double t0 = demo_now_ms();
	int err;

	x->ctx = ibv_import_device(fd);
	if (!x->ctx) {
		err = errno;
		close(fd);
		report_check(&x->t, false, ROLE, demo_now_ms() - t0,
			     "ibv_import_device(fd %d): %s", fd, strerror(err));
		return err;
	}
	dev_guid = be64toh(ibv_get_device_guid(x->ctx->device));
	format_guid(dev_guid, guid, sizeof(guid));
	format_guid(node_guid, want, sizeof(want));
	report_check(&x->t, dev_guid == node_guid &&
		     !strcmp(ibv_get_device_name(x->ctx->device), device),
		     ROLE, demo_now_ms() - t0,
		     "ibv_import_device(fd %d): %s, node GUID %s", fd,
		     ibv_get_device_name(x->ctx->device), guid);
	if (dev_guid != node_guid)
		report_step(ROLE, -1, "(the exporter's device is %s, %s)",
			    device, want);
	return 0;
}

/* Fills one object from its wire entry; the blob tells handle and id. */
static int take_entry(struct demo_obj *o, const struct wire_entry *e)
{
	struct blob b;
	int err;

	memset(o, 0, sizeof(*o));
	if (e->kind >= DEMO_NUM_KINDS)
		return EBADMSG;
	o->kind = e->kind;
	o->index = e->index;
	memcpy(o->blob, e->blob, sizeof(o->blob));
	err = blob_decode(o->blob, sizeof(o->blob), demo_blob_kind(o->kind),
			  &b);
	if (err)
		return err;
	o->handle = b.handle;
	switch (b.kind) {
	case BLOB_KIND_DEVX_UMEM:
		o->id = b.umem.umem_id;
		break;
	case BLOB_KIND_VAR:
		o->id = b.var.page_id;
		break;
	default:
		o->id = b.obj.object_id;
		break;
	}
	return 0;
}

static int receive_blobs(struct importer *x, int sock, struct wire_msg *m,
			 unsigned long total)
{
	double t0 = demo_now_ms();
	int err;

	x->objs = calloc(total ? total : 1, sizeof(*x->objs));
	if (!x->objs)
		return ENOMEM;
	for (;;) {
		err = wire_recv(sock, m, NULL);
		if (err)
			return err;
		if (m->type == WIRE_BLOBS_END)
			break;
		if (m->type != WIRE_BLOBS || m->count > total - x->n)
			return EBADMSG;
		for (uint32_t i = 0; i < m->count; i++) {
			err = take_entry(&x->objs[x->n], &m->entry[i]);
			report_quiet_check(&x->t, !err, ROLE,
					   "blob %lu received: %s", x->n,
					   strerror(err));
			x->n++;
		}
	}
	report_check(&x->t, x->n == total, ROLE, demo_now_ms() - t0,
		     "received a cmd_fd and %lu of %lu blobs", x->n, total);
	return 0;
}

static void import_objects(struct importer *x)
{
	double t0 = demo_now_ms();

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		double t1 = demo_now_ms();
		int err = demo_import(x->ctx, o);

		if (!err)
			x->imported++;
		report_obj(&x->t, x->verbose, !err, ROLE, t1, "import", o,
			   strerror(err), ": handle %u, id 0x%x%s%s",
			   o->handle, o->id, err ? ": " : "",
			   err ? strerror(err) : "");
		report_progress(ROLE, "import", i + 1, x->n);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0,
			    "import %lu objects: %lu imported", x->n,
			    x->imported);
}

static const char *change_verb(enum demo_kind kind)
{
	switch (kind) {
	case DEMO_FLOW_COUNTER:
		return "query and clear";
	case DEMO_VAR:
		return "map";
	default:
		return "modify";
	}
}

static void use_objects(struct importer *x)
{
	double t0 = demo_now_ms();

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		char what[160] = "";
		bool changed;
		double t1 = demo_now_ms();
		int err;

		if (!o->devx)
			continue;
		err = demo_query(o, what, sizeof(what));
		report_obj(&x->t, x->verbose, !err, ROLE, t1, "read", o, what,
			   " (handle %u): %s", o->handle, what);

		t1 = demo_now_ms();
		err = demo_modify(x->ctx, o, &changed, what, sizeof(what));
		if (changed && x->verbose)
			report_check(&x->t, !err, ROLE, demo_now_ms() - t1,
				     "%s %s #%u: %s", change_verb(o->kind),
				     demo_kind_name(o->kind), o->index, what);
		else if (changed)
			report_quiet_check(&x->t, !err, ROLE, "%s %s #%u: %s",
					   change_verb(o->kind),
					   demo_kind_name(o->kind), o->index,
					   what);
		report_progress(ROLE, "use", i + 1, x->n);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0,
			    "read and change %lu objects through DEVX",
			    x->imported);
}

static void unimport_objects(struct importer *x)
{
	double t0 = demo_now_ms();

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		double t1 = demo_now_ms();

		if (!o->devx)
			continue;
		demo_unimport(o);
		if (x->verbose)
			report_step(ROLE, demo_now_ms() - t1,
				    "unimport %s #%u (handle %u)",
				    demo_kind_name(o->kind), o->index,
				    o->handle);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0, "unimport %lu objects",
			    x->imported);
}

/*
 * The first kernel command through a stale imported object: a DEVX
 * object's query, a UMEM's dereg (libmlx5 keeps the struct when the
 * kernel refuses; *freed when it did not), a VAR's mapping.  0 or the
 * kernel's errno.
 */
static int stale_command(struct ibv_context *ctx, struct demo_obj *o,
			 bool *freed)
{
	char what[160];
	void *p;

	*freed = false;
	switch (o->kind) {
	case DEMO_UMEM:
		*freed = !mlx5dv_devx_umem_dereg(o->umem);
		return *freed ? 0 : errno;
	case DEMO_VAR:
		p = mmap(NULL, o->var->length, PROT_READ | PROT_WRITE,
			 MAP_SHARED, ctx->cmd_fd, o->var->mmap_off);
		if (p == MAP_FAILED)
			return errno;
		munmap(p, o->var->length);
		return 0;
	default:
		return demo_query(o, what, sizeof(what));
	}
}

/*
 * After destroy, every blob names a handle that is no longer live: on a
 * kernel without the verbs file id import asks and refuses it (ENOENT);
 * on one with it import asks nothing (the kernel gives the handle to no
 * other object) and the object's first command fails instead.
 */
static void import_stale(struct importer *x)
{
	double t0 = demo_now_ms();
	unsigned long refused = 0, unreached = 0;

	for (unsigned long i = 0; i < x->n; i++) {
		struct demo_obj *o = &x->objs[i];
		double t1 = demo_now_ms();
		int err = demo_import(x->ctx, o), cmd = 0;
		bool freed = false;

		if (!err) {
			cmd = stale_command(x->ctx, o, &freed);
			if (!freed)
				demo_unimport(o);
		}
		if (err == ENOENT)
			refused++;
		if (!err && cmd)
			unreached++;
		report_obj(&x->t, x->verbose, err == ENOENT || (!err && cmd),
			   ROLE, t1, "import stale", o,
			   err ? errname(err) : cmd ? errname(cmd) : "reached",
			   " (handle %u): %s%s", o->handle,
			   err ? "refused with " :
			   cmd ? "accepted, its first command failed with " :
			   "accepted, and its first command worked",
			   err ? errname(err) : cmd ? errname(cmd) : "");
		report_progress(ROLE, "stale", i + 1, x->n);
	}
	if (!x->verbose)
		report_step(ROLE, demo_now_ms() - t0,
			    "import %lu stale blobs: %lu refused with ENOENT, "
			    "%lu accepted reaching nothing", x->n, refused,
			    unreached);
}

int run_importer(int sock)
{
	struct importer x = {};
	struct wire_msg *m = calloc(1, sizeof(*m));
	char device[sizeof(m->device)];
	uint64_t node_guid;
	int fd = -1, err;

	if (!m)
		return DEMO_EXIT_CHECK;
	err = receive_hello(sock, m, &fd);
	if (err == EPIPE) {
		free(m);
		return DEMO_EXIT_CHECK;	/* the exporter has said why */
	}
	if (!err) {
		unsigned long total = m->count;

		memcpy(device, m->device, sizeof(device));
		node_guid = m->node_guid;
		x.verbose = report_verbose(total);
		/* The device is imported once every blob is in, so that
		 * the exporter's line for the sending comes first. */
		err = total > MAX_OBJECTS ? EBADMSG :
		      receive_blobs(&x, sock, m, total);
		if (err) {
			report_check(&x.t, false, ROLE, -1,
				     "receive blobs: %s", strerror(err));
			close(fd);
		} else {
			err = import_device(&x, fd, device, node_guid);
		}
	}
	if (err) {
		wire_send_ctl(sock, WIRE_ABORT, x.t.passed, x.t.failed);
		goto out;
	}

	import_objects(&x);
	use_objects(&x);
	unimport_objects(&x);
	err = wire_send_ctl(sock, WIRE_UNIMPORTED, 0, 0);
	if (!err)
		err = wire_recv(sock, m, NULL);
	if (err || m->type != WIRE_DESTROYED) {
		report_check(&x.t, false, ROLE, -1, "exporter %s",
			     err == EPIPE ? "exited early" : "gave up");
		goto out;
	}
	import_stale(&x);
	m->type = WIRE_DONE;
	m->count = (uint32_t)x.imported;
	m->passed = x.t.passed;
	m->failed = x.t.failed;
	wire_send(sock, m, -1);
out:
	if (x.ctx)
		ibv_close_device(x.ctx);
	free(x.objs);
	free(m);
	return x.t.failed || err ? DEMO_EXIT_CHECK : DEMO_EXIT_OK;
}
