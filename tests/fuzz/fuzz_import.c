// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer target over the whole public mlx5dv_devx_obj_import() (and
 * the batch import), in-process under mlx5-emu: the real libibverbs and
 * libmlx5, the library's code compiled into this program with ASan, UBSan
 * and coverage, the emulated kernel answering its INFO_HANDLES and id
 * queries.  Run it as `mlx5-emu run -- fuzz_import [libFuzzer args]`.
 *
 * LLVMFuzzerInitialize opens the first device and creates a few objects
 * of each kind of check (flow counters and a flow meter: id query; a PD
 * through DEVX: INFO_HANDLES only).  Each input is then imported twice:
 *
 *  raw         its first 80 bytes (zero-filled), in a heap buffer of
 *              exactly the size import may read;
 *  structured  the same bytes made to pass the blob's own checks (header
 *              fixed unless told not to, reserved bytes cleared, checksum
 *              made right), with, as the input's last two bytes choose,
 *              this device's (or the other device's) GUID, this boot's
 *              id and a live
 *              object's handle, type and id, so that the GUID check, the
 *              live check and the success path are reached.
 *
 * Invariants: only the errno values of the man page come out; a success
 * is a blob that decodes to the same fields and, on a kernel that reports
 * the verbs file id, carries this context's (its handle then names the
 * exported object or nothing; type and id are the exporter's word,
 * mlx5-share(7)), or, without it, names a live handle and, where its
 * type has an id query, that handle's real type and id;
 * the batch import of the same blob gives the same answer; every
 * imported object is unimported.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/mlx5_share_batch.h>

#include "blob.h"
#include "boot_id.h"
#include "devx_objs.h"
#include "layout.h"
#include "import_policy.h"
#include "file_id_probe.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                          \
	do {                                                               \
		fprintf(stderr,                                            \
			"fuzz_import: invariant broken: " __VA_ARGS__);    \
		fputc('\n', stderr);                                       \
		abort();                                                   \
	} while (0)

enum { N_LIVE_MAX = 8 };

/* Flags of the structured mode (the input's last byte). */
#define KEEP_HEADER (1 << 0)	/* leave magic, version, kind, length */
#define SET_GUID (1 << 1)	/* a device's node GUID */
#define SET_HANDLE (1 << 2)	/* a live object's handle */
#define SET_TYPE_ID (1 << 3)	/* a live object's type and id */
#define OTHER_GUID (1 << 4)	/* the other device's GUID, not this one's */

struct live {
	struct mlx5dv_devx_obj *obj;
	struct blob b;		/* what its export says */
};

static struct ibv_context *ctx;
/* How far the inputs got: successes and each errno (printed at exit). */
static unsigned long n_ok, n_einval, n_eproto, n_exdev, n_estale, n_enoent;
static uint8_t boot[BLOB_BOOT_ID_LEN];
static bool file_ids;	/* the kernel reports the verbs file id */
static uint64_t guid, other_guid;
static struct live live[N_LIVE_MAX];
static unsigned int n_live;

static void add_live(struct mlx5dv_devx_obj *obj)
{
	uint8_t buf[BLOB_MAX_SIZE];

	if (!obj)
		return;
	if (mlx5dv_devx_obj_export(obj, buf) ||
	    blob_decode(buf, sizeof(buf), BLOB_KIND_DEVX_OBJ,
			&live[n_live].b))
		FAIL("cannot export a fresh object");
	live[n_live++].obj = obj;
}

static uint64_t device_guid(struct ibv_device *dev)
{
	return be64toh(ibv_get_device_guid(dev));
}

static void print_reach(void)
{
	fprintf(stderr, "fuzz_import: imports: %lu ok, %lu EINVAL, %lu EPROTO, "
		"%lu EXDEV, %lu ESTALE, %lu ENOENT\n", n_ok, n_einval,
		n_eproto, n_exdev, n_estale, n_enoent);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_device **list;
	int n, i;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (mlx5dv_is_supported(list[i]))
			ctx = mlx5dv_open_device(list[i], &attr);
	if (!ctx) {
		fprintf(stderr, "fuzz_import: no mlx5 device: run it as "
			"`mlx5-emu run -- fuzz_import ...`\n");
		exit(1);
	}
	guid = device_guid(ctx->device);
	if (boot_id_get(boot))
		FAIL("no boot id");
	file_ids = file_id_of(ctx->cmd_fd) != 0;
	other_guid = guid ^ 0x100;
	for (i = 0; list && i < n; i++)
		if (device_guid(list[i]) != guid)
			other_guid = device_guid(list[i]);
	ibv_free_device_list(list);

	for (i = 0; i < 3; i++)
		add_live(fc_alloc(ctx, NULL));
	add_live(pd_alloc(ctx, NULL));
	add_live(meter_create(ctx, NULL));
	if (n_live < 4)
		FAIL("could not create the live objects");
	atexit(print_reach);
	return 0;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		*p++ = v;
		v >>= 8;
	}
}

/* The structured mode's blob: passes the blob checks it is told to. */
static void structure(uint8_t *b, uint8_t flags, uint8_t sel)
{
	const struct live *l = &live[sel % n_live];

	if (!(flags & KEEP_HEADER)) {
		memcpy(b, BLOB_MAGIC, 4);
		put_le(b + 4, BLOB_FORMAT_VERSION, 2);
		put_le(b + 6, BLOB_KIND_DEVX_OBJ, 2);
		put_le(b + 8, BLOB_DEVX_OBJ_SIZE, 4);
	}
	memset(b + 24, 0, 8);		/* reserved: fuzz_blob covers them */
	memset(b + BLOB_HEADER_SIZE + 13, 0, 3);
	if (flags & SET_GUID) {
		put_le(b + 16, flags & OTHER_GUID ? other_guid : guid, 8);
		/* and this boot, as the library exported it */
		memcpy(b + BLOB_BOOT_ID_OFF, boot, BLOB_BOOT_ID_LEN);
		/* the function too, as the library exported it */
		if (l->b.has_vhca_id) {
			put_le(b + 24, l->b.vhca_id, 2);
			put_le(b + 26, BLOB_F_VHCA_ID, 2);
		}
		/* and the verbs file */
		put_le(b + BLOB_DEVX_OBJ_SIZE - 8, l->b.file_id, 8);
	}
	if (flags & SET_HANDLE)
		put_le(b + BLOB_HEADER_SIZE, l->b.handle, 4);
	if (flags & SET_TYPE_ID) {
		put_le(b + BLOB_HEADER_SIZE + 4, l->b.obj.type, 4);
		put_le(b + BLOB_HEADER_SIZE + 8, l->b.obj.object_id, 4);
	}
	put_le(b + 12, 0, 4);
	put_le(b + 12, blob_crc32c(b, BLOB_DEVX_OBJ_SIZE), 4);
}

/* The library's table of types whose id a PRM query confirms. */
static bool has_id_query(uint32_t type, uint32_t object_id)
{
	return import_policy_has_query(import_policy_find(type), object_id);
}

/* A success must be a blob that really names a live object. */
static void check_imported(const uint8_t *b, struct mlx5dv_devx_obj *obj)
{
	const struct live *l = NULL;
	struct blob d;
	unsigned int i;

	if (blob_decode(b, BLOB_DEVX_OBJ_SIZE, BLOB_KIND_DEVX_OBJ, &d))
		FAIL("imported a blob that does not decode");
	if (d.node_guid != guid)
		FAIL("imported a blob of another device");
	if (d.has_vhca_id && live[0].b.has_vhca_id &&
	    d.vhca_id != live[0].b.vhca_id)
		FAIL("imported a blob of another PCI function");
	if (obj->context != ctx || obj->handle != d.handle ||
	    obj->type != d.obj.type || obj->object_id != d.obj.object_id ||
	    obj->rx_icm_addr != d.obj.rx_icm_addr ||
	    obj->log_obj_range != d.obj.log_obj_range)
		FAIL("imported object differs from its blob");
	if (file_ids) {
		if (d.file_id != live[0].b.file_id)
			FAIL("imported file id %#llx into file %#llx",
			     (unsigned long long)d.file_id,
			     (unsigned long long)live[0].b.file_id);
		return;
	}
	for (i = 0; i < n_live; i++)
		if (live[i].b.handle == d.handle)
			l = &live[i];
	if (!l)
		FAIL("imported handle %u, which is not live", d.handle);
	if (has_id_query(d.obj.type, d.obj.object_id) &&
	    (l->b.obj.type != d.obj.type ||
	     l->b.obj.object_id != d.obj.object_id))
		FAIL("imported type %u id %u for handle %u (type %u id %u)",
		     d.obj.type, d.obj.object_id, d.handle,
		     l->b.obj.type, l->b.obj.object_id);
}

static int import_checked(const uint8_t *b)
{
	struct mlx5dv_devx_obj *obj, *objs[1];
	void *blobs[1] = { (void *)b };
	int err, errs[1], n;

	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, (void *)b);
	err = obj ? 0 : errno;
	switch (err) {
	case 0:
		check_imported(b, obj);
		mlx5dv_devx_obj_unimport(obj);
		n_ok++;
		break;
	case EINVAL:
		n_einval++;
		break;
	case EPROTO:
		n_eproto++;
		break;
	case EXDEV:
		n_exdev++;
		break;
	case ESTALE:
		n_estale++;
		break;
	case ENOENT:
		n_enoent++;
		break;
	default:
		FAIL("import errno %d outside the man page", err);
	}

	n = mlx5share_devx_obj_import_batch(ctx, blobs, 1, objs, errs);
	if (n != !err || errs[0] != err)
		FAIL("batch gave %d/%d where single import gave %d", n,
		     errs[0], err);
	mlx5dv_devx_obj_unimport(objs[0]);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t flags = size ? data[size - 1] : 0;
	uint8_t sel = size > 1 ? data[size - 2] : 0;
	uint8_t *b = malloc(BLOB_DEVX_OBJ_SIZE);

	if (!b)
		return 0;
	/* Import may read exactly this many bytes, and no more. */
	memset(b, 0, BLOB_DEVX_OBJ_SIZE);
	memcpy(b, data, size < BLOB_DEVX_OBJ_SIZE ? size : BLOB_DEVX_OBJ_SIZE);
	import_checked(b);

	structure(b, flags, sel);
	import_checked(b);
	free(b);
	return 0;
}
