// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-emu run [--devices N] [--same-guid] [--trace] [--no-netlink]
 *              [--fw-ids=fresh|lowest-free]
 *              [--handles=unique|lowest-free] [--kernel=VERSION]
 *              -- COMMAND [ARGS...]
 *
 * Sets up one emulated machine (a private directory with the sysfs tree
 * and the daemon's sockets), runs COMMAND in it with the preload library,
 * and tears everything down when COMMAND ends, also when mlx5-emu itself
 * is told to stop.  The daemon is a forked child of this process and dies
 * with it (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "emu_device.h"
#include "kernel_version.h"
#include "sysfs.h"

#define EXIT_LAUNCHER 125
#define PRELOAD_NAME "libmlx5-emu-preload.so"

#ifndef MLX5_EMU_PRELOAD_INSTALLED
#define MLX5_EMU_PRELOAD_INSTALLED "/usr/lib/mlx5-share/" PRELOAD_NAME
#endif
#ifndef MLX5_EMU_LIBDIR_REL
#define MLX5_EMU_LIBDIR_REL "lib"
#endif
#ifndef MLX5_EMU_VERSION
#define MLX5_EMU_VERSION "0"
#endif

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stop_signal;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mlx5-emu run [--devices N] [--same-guid] [--trace]\n"
		"                    [--no-netlink]\n"
		"                    [--fw-ids=fresh|lowest-free]\n"
		"                    [--handles=unique|lowest-free]\n"
		"                    [--kernel=VERSION]\n"
		"                    -- COMMAND [ARGS...]\n"
		"       mlx5-emu --help | --version\n"
		"Runs COMMAND with N emulated mlx5 devices (default 2), "
		"for the\n"
		"system's unmodified libibverbs and libmlx5.  "
		"See mlx5-emu(1).\n");
}

/*
 * --fw-ids=fresh|lowest-free (firmware object numbers) and
 * --handles=unique|lowest-free (kernel series v3's handle rule and file
 * id, or every released kernel's lowest free handle): the daemon, a
 * child, reads them from its environment (emu_device_init()).  0, or
 * the exit status of a usage error.
 */
static int model_option(const char *arg)
{
	static const struct {
		const char *arg, *env, *val;
	} opts[] = {
		{ "--fw-ids=fresh", EMU_FW_IDS_ENV, "fresh" },
		{ "--fw-ids=lowest-free", EMU_FW_IDS_ENV, "lowest-free" },
		{ "--handles=unique", EMU_HANDLES_ENV, "unique" },
		{ "--handles=lowest-free", EMU_HANDLES_ENV, "lowest-free" },
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(arg, opts[i].arg))
			continue;
		if (setenv(opts[i].env, opts[i].val, 1)) {
			perror("mlx5-emu: setenv");
			return EXIT_LAUNCHER;
		}
		return 0;
	}
	fprintf(stderr, "mlx5-emu: %s: --fw-ids takes fresh or lowest-free, "
		"--handles unique or lowest-free\n", arg);
	return 2;
}

static void on_signal(int sig)
{
	stop_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig == SIGINT ? SIGINT : SIGTERM);
}

static void rm_tree(const char *dir)
{
	emu_remove_tree(dir);
}

static bool exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * build tree: <bindir>/../lib/mlx5-emu/; installed: <bindir>/../<libdir>/
 * mlx5-share/ (a relocated install), then the configured path
 */
static int find_preload(char *out, size_t len)
{
	const char *env = getenv("MLX5_EMU_PRELOAD");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return exists(out) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			if (snprintf(out, len, "%s/../lib/mlx5-emu/%s", exe,
				     PRELOAD_NAME) < (int)len && exists(out))
				return 0;
			if (snprintf(out, len, "%s/../%s/mlx5-share/%s", exe,
				     MLX5_EMU_LIBDIR_REL, PRELOAD_NAME) <
				    (int)len && exists(out))
				return 0;
		}
	}
	snprintf(out, len, "%s", MLX5_EMU_PRELOAD_INSTALLED);
	return exists(out) ? 0 : -1;
}

/* sun_path holds 108 bytes: keep the directory short */
static int make_dir(char *out, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp || strlen(tmp) > 60)
		tmp = "/tmp";
	snprintf(out, len, "%s/mlx5-emu.XXXXXX", tmp);
	if (mkdtemp(out))
		return 0;
	snprintf(out, len, "/tmp/mlx5-emu.XXXXXX");
	return mkdtemp(out) ? 0 : -1;
}

static int set_env(const char *dir, const char *preload, bool trace,
		   bool netlink, pid_t daemon)
{
	const char *old = getenv("LD_PRELOAD");
	const char *asan = getenv("ASAN_OPTIONS");
	char sys[PATH_MAX + 8], buf[PATH_MAX * 2], pid[32];

	if (old && *old)
		snprintf(buf, sizeof(buf), "%s:%s", preload, old);
	else
		snprintf(buf, sizeof(buf), "%s", preload);
	if (snprintf(sys, sizeof(sys), "%s/sys", dir) >= (int)sizeof(sys))
		return -1;
	snprintf(pid, sizeof(pid), "%d", (int)daemon);
	if (setenv("LD_PRELOAD", buf, 1) || setenv("SYSFS_PATH", sys, 1) ||
	    setenv("MLX5_EMU_DIR", dir, 1) ||
	    setenv("MLX5_EMU_DAEMON_PID", pid, 1))
		return -1;
	if (trace && setenv("MLX5_EMU_TRACE", "1", 1))
		return -1;
	/* a kernel without RDMA netlink: libibverbs reads sysfs instead */
	if (!netlink && setenv("MLX5_EMU_NETLINK", "0", 1))
		return -1;
	/* ASan insists on being first in the link order otherwise */
	if (!asan || !*asan) {
		if (setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 1))
			return -1;
	} else if (!strstr(asan, "verify_asan_link_order")) {
		snprintf(buf, sizeof(buf), "%s:verify_asan_link_order=0", asan);
		if (setenv("ASAN_OPTIONS", buf, 1))
			return -1;
	}
	return 0;
}

static pid_t start_daemon(const char *dir, unsigned int ndev, bool trace)
{
	pid_t parent = getpid(), pid;
	int p[2];
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		/* SIGTERM: it cleans up the private directory, then exits */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		signal(SIGINT, SIG_IGN);
		if (trace)
			setenv("MLX5_EMU_TRACE", "1", 1);
		_exit(emu_daemon_run(dir, ndev, p[1]) ? 1 : 0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		close(p[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(p[0]);
	return pid;
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], sys[PATH_MAX + 8], preload[PATH_MAX];
	unsigned long ndev = 2;
	bool trace = false, netlink = true;
	const char *kernel = EMU_KERNEL_DEFAULT;
	struct sigaction sa = {};
	pid_t daemon, pid, launcher = getpid();
	int i, status = 0, ret;

	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("mlx5-emu %s\n", MLX5_EMU_VERSION);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "run")) {
		usage(stderr);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--trace")) {
			trace = true;
		} else if (!strcmp(argv[i], "--same-guid")) {
			/* emu_device_guid() in sysfs, daemon and preload */
			if (setenv(EMU_SAME_GUID_ENV, "1", 1)) {
				perror("mlx5-emu: setenv");
				return EXIT_LAUNCHER;
			}
		} else if (!strcmp(argv[i], "--no-netlink")) {
			netlink = false;
		} else if (!strncmp(argv[i], "--kernel=", 9)) {
			kernel = argv[i] + 9;
			if (emu_kernel_parse(kernel) < 0) {
				fprintf(stderr, "mlx5-emu: --kernel takes "
					"MAJOR.MINOR, " EMU_KERNEL_OLDEST
					" or later\n");
				return 2;
			}
		} else if (!strncmp(argv[i], "--fw-ids=", 9) ||
			   !strncmp(argv[i], "--handles=", 10)) {
			ret = model_option(argv[i]);
			if (ret)
				return ret;
		} else if (!strcmp(argv[i], "--devices") && i + 1 < argc) {
			char *end;

			ndev = strtoul(argv[++i], &end, 10);
			if (*end || ndev < 1 || ndev > 64) {
				fprintf(stderr,
					"mlx5-emu: --devices takes 1 to 64\n");
				return 2;
			}
		} else if (argv[i][0] != '-') {
			break;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	/* kernel_version.c, in the daemon; the command may read it too */
	if (setenv(EMU_KERNEL_ENV, kernel, 1)) {
		perror("mlx5-emu: setenv");
		return EXIT_LAUNCHER;
	}
	if (find_preload(preload, sizeof(preload))) {
		fprintf(stderr, "mlx5-emu: cannot find %s\n", PRELOAD_NAME);
		return EXIT_LAUNCHER;
	}
	if (make_dir(dir, sizeof(dir))) {
		perror("mlx5-emu: mkdtemp");
		return EXIT_LAUNCHER;
	}
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	ret = emu_sysfs_create(sys, (unsigned int)ndev);
	if (!ret) {
		snprintf(sys, sizeof(sys), "%s/proc", dir);
		ret = emu_procfs_create(sys);
	}
	if (ret) {
		fprintf(stderr, "mlx5-emu: cannot write %s: %s\n", sys,
			strerror(-ret));
		rm_tree(dir);
		return EXIT_LAUNCHER;
	}

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	daemon = start_daemon(dir, (unsigned int)ndev, trace);
	if (daemon < 0) {
		fprintf(stderr, "mlx5-emu: the daemon did not start\n");
		rm_tree(dir);
		return EXIT_LAUNCHER;
	}
	pid = fork();
	if (pid == 0) {
		/* the machine is gone with mlx5-emu: so is its command */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != launcher)
			_exit(EXIT_LAUNCHER);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (set_env(dir, preload, trace, netlink, daemon)) {
			perror("mlx5-emu: setenv");
			_exit(EXIT_LAUNCHER);
		}
		execvp(argv[i], &argv[i]);
		fprintf(stderr, "mlx5-emu: %s: %s\n", argv[i], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (pid > 0) {
		child_pid = pid;
		if (stop_signal)
			kill(pid, SIGTERM);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	kill(daemon, SIGKILL);
	waitpid(daemon, NULL, 0);
	rm_tree(dir);
	if (pid < 0) {
		perror("mlx5-emu: fork");
		return EXIT_LAUNCHER;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
