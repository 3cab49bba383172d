// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-share-inspect: print an export blob field by field and judge it as
 * import would, offline.  The field walk below reads only bytes the file
 * really holds, so that any input, of any length, is safe to show; the
 * verdict itself comes from the library's own judgement of a blob without
 * a kernel (import_policy_decode: the codec and the fields' bounds), so
 * the tool cannot drift from what import does.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "blob.h"
#include "boot_id.h"
#include "errname.h"
#include "import_policy.h"

/* Far more than any blob: enough to tell a blob from a file that is not. */
#define INSPECT_READ_BOUND 4096

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * EXIT_NO_FILE_ID: every offline check passes, but the blob has no verbs
 * file id (import_policy_no_file_id()), which import refuses with EPROTO
 * on a kernel that reports file ids (kernel series v3) and which export
 * writes on every other.  Worst first when files disagree: usage, check
 * failed, no file id, pass.
 */
enum {
	EXIT_PASS = 0,
	EXIT_CHECK_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_NO_FILE_ID = 3,
};

struct input {
	const char *name;
	uint8_t buf[INSPECT_READ_BOUND];
	size_t len;		/* bytes held in buf */
	bool longer;		/* the file has more than INSPECT_READ_BOUND */
};

struct judge {
	int first_errno;	/* errno of the first failed decode check */
	const char *first_name;
	unsigned int failed;
};

static const char *prog = "mlx5-share-inspect";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [--device NAME] FILE...\n"
		"Decode mlx5-share export blobs "
		"(FILE - reads standard input),\n"
		"print every field and judge each check as import would.\n"
		"\n"
		"  -d, --device NAME  also compare the blob's node GUID with\n"
		"                     device NAME's (import fails with EXDEV)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit status: 0 all checks pass, 1 a check failed (one\n"
		"made in another boot: ESTALE), 2 usage\n"
		"or I/O error, 3 all checks pass but a blob has no verbs\n"
		"file id (import refuses it with EPROTO on a kernel that\n"
		"reports file ids).\n", prog);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void format_guid(uint64_t guid, char *out, size_t outlen)
{
	snprintf(out, outlen, "%04x:%04x:%04x:%04x",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return "DEVX object";
	case BLOB_KIND_DEVX_UMEM:
		return "DEVX UMEM";
	case BLOB_KIND_VAR:
		return "VAR";
	default:
		return "unknown";
	}
}

/* The type's name and what import proves, from the import policy. */
static const char *devx_type_name(uint32_t type)
{
	const struct import_policy *p = import_policy_find(type);

	if (p->devx_type != type)
		return "not in libmlx5's enum";
	if (!p->opcode)
		return "not recorded by libmlx5: liveness only";
	return p->name;
}

/* Prints "name  value" when the field's bytes are in the file. */
static bool have(const struct input *in, size_t off, size_t size,
		 const char *field)
{
	if (off + size <= in->len)
		return true;
	printf("  %-16s (missing: the data ends at byte %zu)\n", field,
	       in->len);
	return false;
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", p[i]);
}

static void print_reserved(const struct input *in, size_t off, size_t size)
{
	char label[32];

	snprintf(label, sizeof(label), "reserved@%zu", off);
	if (!have(in, off, size, label))
		return;
	printf("  %-16s ", label);
	print_hex(in->buf + off, size);
	printf("\n");
}

static void print_header(const struct input *in)
{
	const uint8_t *b = in->buf;
	char guid[32];

	if (!in->len) {
		printf("  (empty: not one byte of a blob)\n");
		return;
	}
	if (have(in, 0, 4, "magic")) {
		printf("  %-16s ", "magic");
		print_hex(b, 4);
		printf("  \"");
		for (int i = 0; i < 4; i++)
			putchar(b[i] >= 0x20 && b[i] < 0x7f ? b[i] : '.');
		printf("\"\n");
	}
	if (have(in, 4, 2, "format_version"))
		printf("  %-16s %u\n", "format_version", get16(b + 4));
	if (have(in, 6, 2, "kind"))
		printf("  %-16s %u (%s)\n", "kind", get16(b + 6),
		       kind_name(get16(b + 6)));
	if (have(in, 8, 4, "length"))
		printf("  %-16s %u\n", "length", get32(b + 8));
	if (have(in, 12, 4, "checksum"))
		printf("  %-16s 0x%08x (stored)\n", "checksum",
		       get32(b + 12));
	if (have(in, 16, 8, "node_guid")) {
		format_guid(get64(b + 16), guid, sizeof(guid));
		printf("  %-16s %s\n", "node_guid", guid);
	}
	if (have(in, 24, 2, "vhca_id"))
		printf("  %-16s %u\n", "vhca_id", get16(b + 24));
	if (have(in, 26, 2, "flags"))
		printf("  %-16s 0x%04x%s\n", "flags", get16(b + 26),
		       get16(b + 26) & BLOB_F_VHCA_ID ? " (vhca_id valid)" :
		       " (no vhca_id: node GUID only)");
	print_reserved(in, 28, 4);
	if (have(in, BLOB_BOOT_ID_OFF, BLOB_BOOT_ID_LEN, "boot_id")) {
		char text[BOOT_ID_TEXT_LEN + 1];

		boot_id_format(b + BLOB_BOOT_ID_OFF, text);
		printf("  %-16s %s\n", "boot_id", text);
	}
}

/* A body field printed in hex, when the input has it. */
static void print_x32(const struct input *in, size_t off, const char *name)
{
	if (have(in, off, 4, name))
		printf("  %-16s 0x%08x\n", name, get32(in->buf + off));
}

static void print_x64(const struct input *in, size_t off, const char *name)
{
	if (have(in, off, 8, name))
		printf("  %-16s 0x%016" PRIx64 "\n", name,
		       get64(in->buf + off));
}

static void print_body(const struct input *in, uint32_t kind)
{
	/* The body's fields, by their offsets after the header (blob.h). */
	const size_t h = BLOB_HEADER_SIZE;
	const uint8_t *b = in->buf + h;

	if (have(in, h, 4, "handle"))
		printf("  %-16s %u\n", "handle", get32(b));
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		if (have(in, h + 4, 4, "type"))
			printf("  %-16s %u (%s)\n", "type", get32(b + 4),
			       devx_type_name(get32(b + 4)));
		print_x32(in, h + 8, "object_id");
		if (have(in, h + 12, 1, "log_obj_range"))
			printf("  %-16s %u\n", "log_obj_range", b[12]);
		print_reserved(in, h + 13, 3);
		print_x64(in, h + 16, "rx_icm_addr");
		print_x64(in, h + 24, "file_id");
		break;
	case BLOB_KIND_DEVX_UMEM:
		print_x32(in, h + 4, "umem_id");
		print_x64(in, h + 8, "file_id");
		break;
	case BLOB_KIND_VAR:
		print_x32(in, h + 4, "page_id");
		if (have(in, h + 8, 4, "length"))
			printf("  %-16s %u\n", "var length", get32(b + 8));
		print_reserved(in, h + 12, 4);
		print_x64(in, h + 16, "mmap_off");
		print_x64(in, h + 24, "file_id");
		break;
	default:
		if (in->len > h + 4) {
			size_t n = in->len - h - 4 < 28 ? in->len - h - 4 : 28;

			printf("  %-16s ", "body bytes 4..");
			print_hex(b + 4, n);
			printf("%s\n", in->len > h + 32 ? " ..." : "");
		}
		break;
	}
}

/* One line per check; later checks after a failure are "not reached". */
static void verdict(struct judge *j, const char *check, bool ok, int err,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void verdict(struct judge *j, const char *check, bool ok, int err,
		    const char *fmt, ...)
{
	char detail[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);

	if (ok) {
		printf("  %-16s ok%s%s%s\n", check, *detail ? " (" : "",
		       detail, *detail ? ")" : "");
		return;
	}
	j->failed++;
	if (!j->first_errno) {
		j->first_errno = err;
		j->first_name = check;
		printf("  %-16s bad: %s -> import fails with %s\n", check,
		       detail, errname(err));
	} else {
		printf("  %-16s bad: %s (import stops earlier, at %s)\n",
		       check, detail, j->first_name);
	}
}

static bool zero_bytes(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * The decode checks of blob.h, in its order.  Each is judged on its own,
 * where the bytes allow, so that one bad byte does not hide another.
 */
/* Why an older format is refused (blob.h). */
static const char *old_format_why(uint16_t version)
{
	if (blob_version_known(version) || version > BLOB_FORMAT_VERSION)
		return "";
	if (version == 5)
		return " (format 5's cookie came from a kernel method that "
		       "was withdrawn)";
	return " (older ones have no boot id)";
}

static void judge_decode(const struct input *in, struct judge *j)
{
	const uint8_t *b = in->buf;
	uint32_t kind = in->len >= 8 ? get16(b + 6) : 0;
	size_t want = blob_size((enum blob_kind)kind);
	uint32_t length = in->len >= 12 ? get32(b + 8) : 0;

	if (in->len < 4)
		verdict(j, "magic", false, EINVAL, "only %zu bytes", in->len);
	else
		verdict(j, "magic", !memcmp(b, BLOB_MAGIC, 4), EINVAL, "%s",
			memcmp(b, BLOB_MAGIC, 4) ? "not \"" BLOB_MAGIC "\"" :
			"");

	if (in->len < 6)
		verdict(j, "format_version", false, EINVAL, "missing");
	else
		verdict(j, "format_version",
			blob_version_known(get16(b + 4)), EPROTO,
			"version %u%s%s", get16(b + 4),
			blob_version_known(get16(b + 4)) ? "" :
			", this library reads format " STR(BLOB_FORMAT_VERSION)
			" only", old_format_why(get16(b + 4)));

	if (in->len < 8)
		verdict(j, "kind", false, EINVAL, "missing");
	else if (want)
		verdict(j, "kind", true, 0, "%u, %s", kind, kind_name(kind));
	else
		verdict(j, "kind", false, EINVAL, "unknown kind %u", kind);

	if (in->len < 12)
		verdict(j, "length", false, EINVAL, "missing");
	else if (!want)
		verdict(j, "length", false, EINVAL,
			"%u, no size is known for kind %u", length, kind);
	else if (length != want)
		verdict(j, "length", false, EINVAL,
			"%u, a %s blob is %zu bytes", length, kind_name(kind),
			want);
	else if (in->len < want)
		verdict(j, "length", false, EINVAL,
			"%u, but the data ends at byte %zu (truncated)",
			length, in->len);
	else
		verdict(j, "length", true, 0, "%u", length);

	if (!want || in->len < want || in->len < 16) {
		verdict(j, "checksum", false, EINVAL,
			"cannot be computed without a whole blob");
	} else {
		uint32_t stored = get32(b + 12);
		uint32_t computed = blob_checksum(b, want);

		verdict(j, "checksum", stored == computed, EINVAL,
			"stored 0x%08x, computed 0x%08x", stored, computed);
	}

	if (!want || in->len < want) {
		verdict(j, "reserved bytes", false, EINVAL,
			"cannot be read without a whole blob");
	} else {
		struct blob_span r[BLOB_MAX_SIZE / 2];
		size_t n = blob_body_reserved(kind, get16(b + 4), r,
					      sizeof(r) / sizeof(r[0]));
		size_t i;
		bool zero = zero_bytes(b + 28, 4);
		uint16_t flags = get16(b + 26);

		for (i = 0; i < n; i++)
			zero = zero && zero_bytes(b + r[i].off, r[i].len);
		verdict(j, "reserved bytes", zero, EINVAL, "%s",
			zero ? "" : "not all zero");
		if (flags & ~BLOB_F_VHCA_ID)
			verdict(j, "flags", false, EINVAL,
				"unknown flags 0x%04x", flags);
		else if (!(flags & BLOB_F_VHCA_ID) && get16(b + 24))
			verdict(j, "flags", false, EINVAL,
				"vhca_id %u without its flag", get16(b + 24));
		else
			verdict(j, "flags", true, 0, "%s",
				flags ? "vhca_id valid" : "no vhca_id");
	}
}

/* import_policy_bounds() on a decoded blob, by the field it names. */
static void judge_bounds(const struct blob *b, struct judge *j)
{
	const char *field = import_policy_out_of_bounds(b);
	const struct import_policy *p = import_policy_find(b->obj.type);
	size_t rows;

	import_policy_rows(&rows);
	if (b->kind != BLOB_KIND_DEVX_OBJ)
		verdict(j, "bounds", true, 0, "none for a %s",
			kind_name(b->kind));
	else if (!field)
		verdict(j, "bounds", true, 0, "type, log_obj_range, object_id");
	else if (!strcmp(field, "type"))
		verdict(j, "bounds", false, EINVAL,
			"type %u is not in libmlx5's enum (0 to %zu)",
			b->obj.type, rows - 1);
	else if (!strcmp(field, "log_obj_range"))
		verdict(j, "bounds", false, EINVAL,
			"log_obj_range %u, at most %d", b->obj.log_obj_range,
			IMPORT_LOG_OBJ_RANGE_MAX);
	else
		verdict(j, "bounds", false, EINVAL,
			"object_id 0x%08x is wider than a %s's %u bits",
			b->obj.object_id, p->name, p->id_width);
}

static int device_guid(const char *name, uint64_t *guid)
{
	struct ibv_device **list;
	int n, ret = ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? errno : ENODEV;
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		*guid = be64toh(ibv_get_device_guid(list[i]));
		ret = 0;
		break;
	}
	ibv_free_device_list(list);
	return ret;
}

/*
 * The boot check of import (blob_check_boot()), against the boot the
 * tool runs in: a blob made before a reboot is refused with ESTALE.
 */
static void judge_boot(const struct blob *dec, struct judge *j)
{
	char made[BOOT_ID_TEXT_LEN + 1], now[BOOT_ID_TEXT_LEN + 1];
	uint8_t boot[BLOB_BOOT_ID_LEN];
	int err = boot_id_get(boot);

	if (err) {
		verdict(j, "boot", false, err, "this boot's id cannot be read "
			"from " BOOT_ID_PATH);
		return;
	}
	boot_id_format(dec->boot_id, made);
	boot_id_format(boot, now);
	if (blob_check_boot(dec, boot))
		verdict(j, "boot", false, ESTALE, "made in boot %s, this is "
			"boot %s", made, now);
	else
		verdict(j, "boot", true, 0, "made in this boot");
}

/* Returns EXIT_PASS or EXIT_CHECK_FAILED for one blob already read. */
static int inspect(const struct input *in, const char *device,
		   uint64_t dev_guid)
{
	struct judge j = {};
	struct blob dec;
	uint32_t kind = in->len >= 8 ? get16(in->buf + 6) : 0;
	size_t want = blob_size((enum blob_kind)kind);
	bool too_long = in->longer, no_file_id;
	int codec;

	printf("%s: %zu%s bytes\n", in->name, in->len,
	       in->longer ? "+" : "");
	print_header(in);
	if (in->len > BLOB_HEADER_SIZE || want)
		print_body(in, kind);

	printf(" checks, in import's order:\n");
	if (too_long)
		printf("  %-16s bad: file longer than a blob (more than %d "
		       "bytes); only the start is judged below\n", "size",
		       INSPECT_READ_BOUND);
	else if (want && in->len > want)
		printf("  %-16s ok (%zu bytes after the blob are not part of "
		       "it: import reads only %zu)\n", "size",
		       in->len - want, want);
	judge_decode(in, &j);
	if (!j.failed && !blob_decode(in->buf, in->len, 0, &dec))
		judge_bounds(&dec, &j);
	else
		printf("  %-16s not judged (import stops earlier)\n",
		       "bounds");

	/*
	 * The library's judgement is the authority: had the walk above
	 * missed a rule that import enforces, the two would disagree, and
	 * saying so is better than a verdict the library does not share.
	 */
	codec = import_policy_decode(in->buf, in->len, 0, &dec);
	if (codec != j.first_errno) {
		printf("  %-16s bad: the library's decoder says %s, ",
		       "codec", codec ? errname(codec) : "ok");
		printf("this tool %s\n",
		       j.first_errno ? errname(j.first_errno) : "ok");
		j.failed++;
		if (!j.first_errno || codec) {
			j.first_errno = codec ? codec : EINVAL;
			j.first_name = "codec";
		}
	}

	if (j.failed) {
		printf("  %-16s not judged (import stops earlier)\n",
		       "device");
	} else if (device) {
		char a[32], b[32];

		format_guid(dec.node_guid, a, sizeof(a));
		format_guid(dev_guid, b, sizeof(b));
		verdict(&j, "device", dec.node_guid == dev_guid, EXDEV,
			"blob from %s, %s is %s%s", a, device, b,
			dec.has_vhca_id ? " (node GUID only: import also "
			"compares the vhca_id with the device's)" : "");
	} else {
		printf("  %-16s not judged offline (give --device NAME; "
		       "another device -> EXDEV)\n", "device");
	}
	if (j.failed)
		printf("  %-16s not judged (import stops earlier)\n", "boot");
	else
		judge_boot(&dec, &j);
	no_file_id = !j.failed && import_policy_no_file_id(&dec);
	if (j.failed)
		printf("  %-16s not judged (import stops earlier)\n",
		       "file id");
	else if (no_file_id)
		printf("  %-16s none (file id 0): import fails with EPROTO "
		       "on a kernel that reports file ids, not on one "
		       "without them\n", "file id");
	else
		printf("  %-16s ok (import wants the importing context's "
		       "verbs file to be this one, else EXDEV)\n",
		       "file id");
	if (j.failed)
		printf("  %-16s not judged (import stops earlier)\n",
		       "liveness");
	else if (no_file_id)
		printf("  %-16s not judged offline (import asks the kernel: "
		       "a handle that is not a live object of this kind -> "
		       "ENOENT)\n", "liveness");
	else
		printf("  %-16s not asked by import (the kernel never "
		       "gives the handle to another object: the first "
		       "command fails if it is gone)\n", "liveness");

	if (j.failed)
		printf(" verdict: import fails with %s (%s)\n",
		       errname(j.first_errno), j.first_name);
	else if (too_long)
		printf(" verdict: not a blob file; its first %zu bytes would "
		       "pass import's offline checks\n", want);
	else if (no_file_id)
		printf(" verdict: no file id; import fails with EPROTO on a "
		       "kernel that reports file ids, and on one without "
		       "them accepts it %swhile the object lives\n",
		       device ? "on this device " : "");
	else
		printf(" verdict: good blob; import accepts it %sthrough "
		       "verbs file %" PRIu64 " only\n",
		       device ? "on this device " : "", dec.file_id);
	if (j.failed || too_long)
		return EXIT_CHECK_FAILED;
	return no_file_id ? EXIT_NO_FILE_ID : EXIT_PASS;
}

/* The worse of two exit statuses (EXIT_NO_FILE_ID's comment). */
static int worse(int a, int b)
{
	static const int rank[] = {
		[EXIT_PASS] = 0, [EXIT_NO_FILE_ID] = 1,
		[EXIT_CHECK_FAILED] = 2, [EXIT_USAGE] = 3,
	};

	return rank[a] >= rank[b] ? a : b;
}

/* Reads at most INSPECT_READ_BOUND bytes and notes whether more follow. */
static int read_input(const char *path, struct input *in)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	uint8_t extra;
	ssize_t n;

	in->name = fd ? path : "<stdin>";
	in->len = 0;
	in->longer = false;
	if (fd < 0)
		return errno;
	while (in->len < sizeof(in->buf)) {
		n = read(fd, in->buf + in->len, sizeof(in->buf) - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		in->len += (size_t)n;
	}
	if (n >= 0 && in->len == sizeof(in->buf)) {
		do {
			n = read(fd, &extra, 1);
		} while (n < 0 && errno == EINTR);
		in->longer = n > 0;
	}
	if (n < 0) {
		int err = errno;

		if (fd)
			close(fd);
		return err;
	}
	if (fd)
		close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	static struct input in;
	const char *device = NULL;
	uint64_t dev_guid = 0;
	int opt, status = EXIT_PASS;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_PASS;
		case ':':
			fprintf(stderr, "%s: option '%s' needs a value "
				"(see --help)\n", prog, argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "%s: unknown option '%s' (see "
				"--help)\n", prog, argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no blob file given (see --help)\n", prog);
		return EXIT_USAGE;
	}
	if (device) {
		int err = device_guid(device, &dev_guid);

		if (err) {
			fprintf(stderr, "%s: no RDMA device %s (%s)\n", prog,
				device, strerror(err));
			return EXIT_USAGE;
		}
	}

	for (int i = optind; i < argc; i++) {
		int err = read_input(argv[i], &in);

		if (i > optind)
			printf("\n");
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[i],
				strerror(err));
			status = EXIT_USAGE;
			continue;
		}
		status = worse(status, inspect(&in, device, dev_guid));
	}
	fflush(stdout);
	return status;
}
