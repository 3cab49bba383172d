// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The vhca_id query failing, under mlx5-emu run --devices 2 --same-guid
 * (two PCI functions, one node GUID, a flow counter at the same handle
 * with the same id in each): a failure of the query is not a refusal.
 *
 * The query (QUERY_HCA_CAP through mlx5dv_devx_general_cmd()) is made to
 * fail by this program's own mlx5dv_devx_general_cmd(), which stands in
 * front of libmlx5's for the whole process (as alloc_track.c's malloc
 * does) and answers a general-capabilities QUERY_HCA_CAP as armed, once,
 * the way the kernel would: an errno, or EREMOTEIO with a firmware status
 * in the out mailbox.
 *
 * For each failure (EMFILE, ENOMEM, EAGAIN, EINTR, EIO, EBUSY, and a
 * firmware status other than "unsupported"), in a fresh process (the
 * identity is cached per process once known):
 *   export   fails with that errno and leaves the blob untouched; the next
 *            export asks again and binds the blob to its function: the
 *            other function refuses it (EXDEV);
 *   import   into the other function fails with that errno (single and
 *            batch); the next import asks again and gets EXDEV.
 * So no blob ever crosses to the other function.  For each refusal (no
 * command fd, EOPNOTSUPP, EPROTONOSUPPORT, EINVAL, firmware BAD_OP and
 * BAD_PARAM) export succeeds with a blob bound by node GUID alone, and
 * the refusal is not cached: the next call asks again.
 *
 * And the case as it happens, without injection: under mlx5-emu a
 * thread's first call on a device opens its channel to the daemon, so an
 * export in a new thread of a process out of descriptors fails the query
 * with EMFILE (a real kernel needs no descriptor for it); the export fails
 * with EMFILE, and once descriptors are free it binds.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/mlx5_share_batch.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "fd_fill.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define NAME "fault_vhca_query"

struct fault {
	const char *name;
	int err;		/* what mlx5dv_devx_general_cmd() returns */
	unsigned int status;	/* with EREMOTEIO: the firmware's status */
	int want;		/* the errno export and import fail with */
};

/* Failures: the call fails with want, nothing is cached. */
static const struct fault failures[] = {
	{ "EMFILE", EMFILE, 0, EMFILE },
	{ "ENOMEM", ENOMEM, 0, ENOMEM },
	{ "EAGAIN", EAGAIN, 0, EAGAIN },
	{ "EINTR", EINTR, 0, EINTR },
	{ "EIO", EIO, 0, EIO },
	{ "EBUSY", EBUSY, 0, EBUSY },
	{ "fw INT_ERR", EREMOTEIO, PRM_STATUS_INT_ERR, EREMOTEIO },
	{ "fw NO_RESOURCES", EREMOTEIO, PRM_STATUS_NO_RESOURCES, EREMOTEIO },
	{ "fw RES_BUSY", EREMOTEIO, PRM_STATUS_RES_BUSY, EREMOTEIO },
};

/*
 * Refusals: the device has no vhca_id to give; bound by node GUID.  err
 * NO_CMD_FD: the context has no command fd (libmlx5's VFIO mode), so the
 * query is not even sent.
 */
#define NO_CMD_FD (-1)

static const struct fault refusals[] = {
	{ "no command fd", NO_CMD_FD, 0, 0 },
	{ "EOPNOTSUPP", EOPNOTSUPP, 0, 0 },
	{ "EPROTONOSUPPORT", EPROTONOSUPPORT, 0, 0 },
	{ "EINVAL", EINVAL, 0, 0 },
	{ "fw BAD_OP", EREMOTEIO, PRM_STATUS_BAD_OP, 0 },
	{ "fw BAD_PARAM", EREMOTEIO, PRM_STATUS_BAD_PARAM, 0 },
};

#define N_FAILURES (sizeof(failures) / sizeof(failures[0]))
#define N_REFUSALS (sizeof(refusals) / sizeof(refusals[0]))

typedef int (*general_cmd_fn)(struct ibv_context *, const void *, size_t,
			      void *, size_t);

static const struct fault *armed;
static unsigned int vhca_queries;	/* general caps queries seen */

static bool is_vhca_query(const void *in, size_t inlen)
{
	return inlen >= PRM_QUERY_HCA_CAP_IN_LEN &&
	       prm_get(in, PRM_HDR_OPCODE) == PRM_OP_QUERY_HCA_CAP &&
	       prm_get(in, PRM_HDR_OP_MOD) == (PRM_CAP_TYPE_GENERAL << 1 | 1);
}

/*
 * Stands in front of libmlx5's for every caller in the process (default
 * visibility: the tests build with -fvisibility=hidden).
 */
__attribute__((visibility("default"))) int
mlx5dv_devx_general_cmd(struct ibv_context *ctx, const void *in,
			size_t inlen, void *out, size_t outlen)
{
	static general_cmd_fn real;
	const struct fault *f = armed;

	if (!real)
		real = (general_cmd_fn)dlsym(RTLD_NEXT,
					     "mlx5dv_devx_general_cmd");
	if (is_vhca_query(in, inlen)) {
		vhca_queries++;
		if (f) {
			armed = NULL;
			memset(out, 0, outlen);
			if (f->err == EREMOTEIO && outlen >= PRM_HDR_LEN) {
				prm_set(out, PRM_OUT_STATUS, f->status);
				prm_set(out, PRM_OUT_SYNDROME, 0x5eed);
			}
			return f->err;
		}
	}
	if (!real)
		return EOPNOTSUPP;
	return real(ctx, in, inlen, out, outlen);
}

static struct ibv_context *ctx0, *ctx1;
static struct mlx5dv_devx_obj *fc0, *fc1;
static uint32_t id0, id1;

static void open_both(void)
{
	e2e_open_same_guid(&ctx0, &ctx1);
	/* Creating asks no identity: neither device is cached yet. */
	fc0 = fc_alloc(ctx0, &id0);
	fc1 = fc_alloc(ctx1, &id1);
	REQUIRE(fc0 && fc1);
}

static void close_both(void)
{
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc0), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc1), 0);
	CHECK_EQ(ibv_close_device(ctx0), 0);
	CHECK_EQ(ibv_close_device(ctx1), 0);
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	while (n--)
		if (*p++ != v)
			return false;
	return true;
}

static void decode(const uint8_t *blob, struct blob *b)
{
	REQUIRE(blob_decode(blob, E2E_BLOB_MAX, BLOB_KIND_DEVX_OBJ, b) == 0);
}

/*
 * The precondition of every case: device 1's counter is an alias of
 * device 0's (same handle, same id), so only the vhca_id tells them apart.
 */
static void check_alias(const uint8_t *blob0)
{
	uint8_t blob1[E2E_BLOB_MAX];

	e2e_export(fc1, blob1);
	REQUIRE(e2e_blob_handle(blob0) == e2e_blob_handle(blob1));
	REQUIRE(e2e_blob_object_id(blob0) == e2e_blob_object_id(blob1));
}

/* The blob of device 0 never imports into device 1. */
static void check_no_crossing(uint8_t *blob0)
{
	void *ptrs[1] = { blob0 };
	struct mlx5dv_devx_obj *objs[1];
	int errs[1];

	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx1, blob0), EXDEV);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx1, ptrs, 1, objs,
						 errs), 0);
	CHECK_EQ(errs[0], EXDEV);
}

/*
 * Exporting fc0 asks for the vhca_id once and binds the blob to device
 * 0's function: the blob imports there, and not into device 1.
 */
static void check_export_binds(uint8_t *blob)
{
	unsigned int asked = vhca_queries;
	struct blob b;

	CHECK_EQ(mlx5dv_devx_obj_export(fc0, blob), 0);
	CHECK_EQ(vhca_queries, asked + 1);
	decode(blob, &b);
	CHECK(b.has_vhca_id);
	check_alias(blob);
	check_no_crossing(blob);
	e2e_check_fc_import(ctx0, blob, id0);
}

static int export_fails(const struct fault *f)
{
	uint8_t blob[E2E_BLOB_MAX];
	unsigned int asked;
	int ret;

	open_both();
	armed = f;
	asked = vhca_queries;
	memset(blob, 0xa5, sizeof(blob));
	errno = 0;
	ret = mlx5dv_devx_obj_export(fc0, blob);
	CHECK_EQ(ret, f->want);
	CHECK_EQ(errno, f->want);
	CHECK_EQ(vhca_queries, asked + 1);
	CHECK(all_bytes(blob, sizeof(blob), 0xa5));	/* untouched */

	/* Nothing was cached: the next export asks again, and binds. */
	check_export_binds(blob);
	close_both();
	return check_done(NAME);
}

static int import_fails(const struct fault *f)
{
	struct mlx5dv_devx_obj *objs[1], *obj;
	uint8_t blob[E2E_BLOB_MAX];
	void *ptrs[1] = { blob };
	unsigned int asked;
	int errs[1];

	open_both();
	e2e_export(fc0, blob);		/* device 0 asked and cached */

	/* Device 1, the importer, has not been asked yet. */
	armed = f;
	asked = vhca_queries;
	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx1, blob);
	CHECK(obj == NULL);
	CHECK_EQ(errno, f->want);
	CHECK_EQ(vhca_queries, asked + 1);
	if (obj)
		mlx5dv_devx_obj_unimport(obj);

	armed = f;
	asked = vhca_queries;
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx1, ptrs, 1, objs, errs),
		 0);
	CHECK(objs[0] == NULL);
	CHECK_EQ(errs[0], f->want);
	CHECK_EQ(vhca_queries, asked + 1);
	mlx5dv_devx_obj_unimport(objs[0]);

	/* Asked again, device 1 answers: the blob is not its own. */
	asked = vhca_queries;
	check_alias(blob);	/* (this export caches device 1) */
	CHECK_EQ(vhca_queries, asked + 1);
	check_no_crossing(blob);
	e2e_check_fc_import(ctx0, blob, id0);
	close_both();
	return check_done(NAME);
}

static int refused(const struct fault *f)
{
	uint8_t blob[E2E_BLOB_MAX];
	unsigned int asked;
	struct blob b;

	open_both();
	asked = vhca_queries;
	if (f->err == NO_CMD_FD) {
		int fd = ctx0->cmd_fd;

		ctx0->cmd_fd = -1;	/* as libmlx5's VFIO contexts have it */
		CHECK_EQ(mlx5dv_devx_obj_export(fc0, blob), 0);
		ctx0->cmd_fd = fd;
		CHECK_EQ(vhca_queries, asked);
	} else {
		armed = f;
		CHECK_EQ(mlx5dv_devx_obj_export(fc0, blob), 0);
		CHECK_EQ(vhca_queries, asked + 1);
	}
	decode(blob, &b);
	CHECK(!b.has_vhca_id);		/* bound by node GUID alone */
	CHECK_EQ(b.vhca_id, 0);
	CHECK_EQ(b.node_guid, be64toh(ibv_get_device_guid(ctx0->device)));

	/* A refusal is not cached either: asked again, device 0 answers. */
	check_export_binds(blob);
	close_both();
	return check_done(NAME);
}

struct export_arg {
	uint8_t *blob;
	int ret, err;
};

static void *export_thread(void *p)
{
	struct export_arg *a = p;

	errno = 0;
	a->ret = mlx5dv_devx_obj_export(fc0, a->blob);
	a->err = errno;
	return NULL;
}

/* Exports fc0 from a new thread (its first call: no channel yet). */
static int export_in_thread(uint8_t *blob, int *err)
{
	struct export_arg a = { .blob = blob };
	pthread_t t;

	REQUIRE(pthread_create(&t, NULL, export_thread, &a) == 0);
	REQUIRE(pthread_join(t, NULL) == 0);
	*err = a.err;
	return a.ret;
}

static int out_of_descriptors(void)
{
	struct fd_fill fill;
	uint8_t blob[E2E_BLOB_MAX];
	struct blob b;
	int err, ret;

	open_both();
	fd_fill(&fill);
	REQUIRE(fill.n < FD_FILL_LIMIT);

	memset(blob, 0xa5, sizeof(blob));
	ret = export_in_thread(blob, &err);
	fd_unfill(&fill);
	if (!ret)
		fprintf(stderr, "%s: the export out of descriptors worked\n",
			NAME);
	CHECK_EQ(ret, EMFILE);
	CHECK_EQ(err, EMFILE);
	CHECK(all_bytes(blob, sizeof(blob), 0xa5));

	/* Descriptors free again: a new thread's export binds. */
	CHECK_EQ(export_in_thread(blob, &err), 0);
	decode(blob, &b);
	CHECK(b.has_vhca_id);
	check_alias(blob);
	check_no_crossing(blob);
	close_both();
	return check_done(NAME);
}

static int role_main(void)
{
	const char *role = e2e_role();
	unsigned long i;
	char *end;

	i = strtoul(strchr(role, ':') + 1, &end, 10);
	if (!strncmp(role, "export:", 7) && i < N_FAILURES)
		return export_fails(&failures[i]);
	if (!strncmp(role, "import:", 7) && i < N_FAILURES)
		return import_fails(&failures[i]);
	if (!strncmp(role, "refused:", 8) && i < N_REFUSALS)
		return refused(&refusals[i]);
	if (!strcmp(role, "nofile:0"))
		return out_of_descriptors();
	fprintf(stderr, "%s: unknown role %s\n", NAME, role);
	return 2;
}

/* One case in a fresh process: the identity cache starts empty. */
static void run_case(const char *what, unsigned long i, const char *name)
{
	char role[32];
	int sock, status;
	pid_t pid;

	snprintf(role, sizeof(role), "%s:%lu", what, i);
	pid = e2e_spawn(role, &sock);
	REQUIRE(pid > 0);
	status = e2e_wait(pid);
	close(sock);
	if (status == 77)
		check_skip(NAME, "the case skipped (see above)");
	if (status)
		fprintf(stderr, "%s: %s %s: exit %d\n", NAME, what, name,
			status);
	CHECK_EQ(status, 0);
}

int main(int argc, char **argv)
{
	unsigned long i;

	e2e_init(argc, argv, NAME);
	if (e2e_role())
		return role_main();
	if (e2e_num_devices() < 2)
		check_skip(NAME, "needs two mlx5 devices");
	for (i = 0; i < N_FAILURES; i++) {
		run_case("export", i, failures[i].name);
		run_case("import", i, failures[i].name);
	}
	for (i = 0; i < N_REFUSALS; i++)
		run_case("refused", i, refusals[i].name);
	run_case("nofile", 0, "a new thread out of descriptors");
	return check_done(NAME);
}
