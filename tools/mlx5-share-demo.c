// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-share-demo: options, the choice between a real device and mlx5-emu,
 * and the fork into exporter and importer.
 *
 * Without a real mlx5 device the demo runs itself again under mlx5-emu
 * (`mlx5-emu run -- <this program> <its arguments> --no-emulate`), so that
 * one command shows the feature on any machine.  mlx5-emu sets
 * MLX5_EMU_DIR in the environment of what it runs: that is how the second
 * run knows its device is emulated.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mlx5-share-demo.h"

#define MAX_OBJECTS 1000000ul

enum { OPT_EMULATE = 0x100, OPT_NO_EMULATE };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mlx5-share-demo [OPTION]...\n"
		"Share DEVX objects, a UMEM and a VAR between two processes\n"
		"with mlx5dv_devx_obj_export()/import() and friends.\n"
		"\n"
		"  -d, --device NAME     use RDMA device NAME (default: the "
		"first mlx5)\n"
		"  -n, --objects N       share N objects: one of each kind, "
		"then flow\n"
		"                        counters (default: one of each kind)\n"
		"  -s, --save-blobs DIR  write each blob to "
		"DIR/<kind>-<n>.blob\n"
		"      --emulate         run under mlx5-emu even if a real "
		"device exists\n"
		"      --no-emulate      never start mlx5-emu\n"
		"  -h, --help            show this help\n"
		"\n"
		"Without --emulate or --no-emulate, a real mlx5 device is used "
		"when there is\n"
		"one, else the demo runs itself under mlx5-emu.\n"
		"Exit status: 0 every check passed, 1 a check failed, 2 usage "
		"error or no\n"
		"device.\n");
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* One line on stderr and the usage exit status. */
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mlx5-share-demo: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	return DEMO_EXIT_USAGE;
}

static bool parse_count(const char *s, unsigned long *n)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*n = strtoul(s, &end, 10);
	return !errno && !*end && *n >= 1 && *n <= MAX_OBJECTS;
}

/* Is there a real mlx5 device (NAME, when given) to use? */
static bool real_device_present(const char *name)
{
	struct ibv_device **list;
	bool found = false;
	int n = 0;

	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !found; i++)
		found = name ? !strcmp(ibv_get_device_name(list[i]), name) :
			       mlx5dv_is_supported(list[i]);
	if (list)
		ibv_free_device_list(list);
	return found;
}

/*
 * Replaces this process with `mlx5-emu run [--devices N] -- self ARGS
 * --no-emulate`.  mlx5-emu is looked for next to this program first (the
 * build tree's bin/ or the installed bindir), then on PATH.  Returns only
 * on failure.
 */
static int run_under_emulator(int argc, char **argv, const char *device,
			      bool forced)
{
	char self[PATH_MAX], emu[PATH_MAX + 16], devices[16], dir[PATH_MAX];
	char **args = calloc((size_t)argc + 8, sizeof(*args));
	const char *where;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	unsigned int k;
	int n = 0;

	if (!args || len <= 0) {
		fprintf(stderr, "mlx5-share-demo: cannot find my own "
			"executable: %s\n", strerror(errno));
		free(args);
		return DEMO_EXIT_USAGE;
	}
	self[len] = 0;
	snprintf(dir, sizeof(dir), "%s", self);
	snprintf(emu, sizeof(emu), "%s/mlx5-emu", dirname(dir));
	if (access(emu, X_OK))
		snprintf(emu, sizeof(emu), "mlx5-emu");

	args[n++] = emu;
	args[n++] = "run";
	/* Enough emulated devices for --device mlx5_K. */
	if (device && sscanf(device, "mlx5_%u", &k) == 1 && k >= 1 &&
	    k < 64) {
		snprintf(devices, sizeof(devices), "%u", k + 1);
		args[n++] = "--devices";
		args[n++] = devices;
	}
	args[n++] = "--";
	args[n++] = self;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--emulate"))
			args[n++] = argv[i];
	args[n++] = "--no-emulate";
	args[n] = NULL;
	where = strchr(emu, '/') ? emu : "mlx5-emu from PATH";

	if (forced)
		report_note("--emulate given: running under %s", where);
	else if (device)
		report_note("no real device named %s: running under %s",
			    device, where);
	else
		report_note("no real mlx5 device found: running under %s",
			    where);
	execvp(emu, args);
	fprintf(stderr, "mlx5-share-demo: cannot start mlx5-emu (%s): not "
		"found next to %s nor on PATH\n", strerror(errno), self);
	free(args);
	return DEMO_EXIT_USAGE;
}

static int run(const struct demo_opts *opts)
{
	int sv[2], pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		report_error("socketpair: %s", strerror(errno));
		return DEMO_EXIT_USAGE;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		report_error("fork: %s", strerror(errno));
		return DEMO_EXIT_USAGE;
	}
	if (pid == 0) {
		/* The importer: it has no fd of the device until it is sent
		 * one, because the exporter opens the device after the fork. */
		int ret;

		close(sv[0]);
		ret = run_importer(sv[1]);
		fflush(NULL);
		_exit(ret);
	}
	close(sv[1]);
	return run_exporter(opts, sv[0], pid);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "objects", required_argument, NULL, 'n' },
		{ "save-blobs", required_argument, NULL, 's' },
		{ "emulate", no_argument, NULL, OPT_EMULATE },
		{ "no-emulate", no_argument, NULL, OPT_NO_EMULATE },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct demo_opts opts = {};
	int emulate = -1;	/* -1: when there is no real device */
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:n:s:h", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'd':
			opts.device = optarg;
			break;
		case 'n':
			if (!parse_count(optarg, &opts.objects))
				return usage_error("--objects wants a number "
						   "from 1 to 1000000, not "
						   "'%s'", optarg);
			break;
		case 's':
			opts.save_dir = optarg;
			break;
		case OPT_EMULATE:
			emulate = 1;
			break;
		case OPT_NO_EMULATE:
			emulate = 0;
			break;
		case 'h':
			usage(stdout);
			return DEMO_EXIT_OK;
		case ':':
			return usage_error("option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);

	opts.emulated = getenv("MLX5_EMU_DIR") != NULL;
	if (!opts.emulated && emulate != 0 &&
	    (emulate == 1 || !real_device_present(opts.device)))
		return run_under_emulator(argc, argv, opts.device,
					  emulate == 1);
	if (!opts.emulated && !real_device_present(opts.device)) {
		fprintf(stderr, "mlx5-share-demo: no %s device%s%s and "
			"--no-emulate given\n", opts.device ? "RDMA" : "mlx5",
			opts.device ? " named " : "",
			opts.device ? opts.device : "");
		return DEMO_EXIT_USAGE;
	}
	return run(&opts);
}
