// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An application written for rdma-core's DEVX export/import API, built
 * only against an installed tree (<infiniband/mlx5dv.h>, -lmlx5
 * -libverbs), for the upgrade to an rdma-core that ships the API itself
 * (tests/matrix/run_upgrade.sh).  Two modes, under mlx5-emu:
 *
 *   upgrade_app conformance
 *       Which library each function of the family (version node
 *       MLX5_1.27) is bound to, and mlx5-share's contract for it: a
 *       record that starts with its magic, a live object imported and
 *       used, a destroyed object's record refused with ENOENT (each
 *       kind; on a kernel that reports the verbs file id, mlx5-emu's
 *       default, imported without a kernel call into a struct that
 *       reaches nothing: a query, a dereg, a mapping fail), a zeroed or
 *       altered record refused with EINVAL, errno
 *       untouched by a successful import.  Prints "conformance: P/T" and
 *       exits 0 only when all pass: an application bound to mlx5-share.
 *
 *   upgrade_app exchange PEER EXPECT
 *       A rolling upgrade: this process and PEER (another build of this
 *       file, started with "peer FD") share one command fd; each exports
 *       a flow counter for the other to import and query.  EXPECT says
 *       which libraries the two sides run, and so what each import gets:
 *         same    the same library on both sides: both imports name the
 *                 counter (the control: the exchange itself works)
 *         mixed   this side mlx5-share, PEER libmlx5's own (63+):
 *                 mlx5-share's import refuses the peer's record with
 *                 EINVAL (no magic); the peer's import takes our record
 *                 without a check and returns an object whose handle is
 *                 the magic's bytes, so the query through it fails
 */
#define _GNU_SOURCE /* dladdr() */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "upstream_app_devx.h"

#define NAME "upgrade_app"

/* Room for any library's record (mlx5-share's are 64 bytes at most). */
enum { RECORD_MAX = 256 };

static const char magic[4] = { 'M', '5', 'S', 'X' };

/* The file of the library that defines the function at addr. */
static const char *lib_path(void *addr)
{
	Dl_info info;

	if (!dladdr(addr, &info) || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

/* The same, its file name only. */
static const char *bound_to(void *addr)
{
	const char *path = lib_path(addr), *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void check_bound(const char *fn, void *addr)
{
	const char *lib = bound_to(addr);

	printf("%s: %s bound to %s\n", NAME, fn, lib);
	CHECK(strcmp(lib, "libmlx5-share.so.1") == 0);
}

#define CHECK_BOUND(fn) check_bound(#fn, (void *)fn)

static void conformance(struct ibv_context *ctx)
{
	/*
	 * mlx5-emu --handles: lowest-free is today's kernels; without it,
	 * series v3 on its --kernel 6.12 and later (MLX5_EMU_KERNEL)
	 */
	const char *handles = getenv("MLX5_EMU_HANDLES");
	const char *release = getenv("MLX5_EMU_KERNEL");
	unsigned int major = 6, minor = 12;
	bool file_ids;

	if (release)
		sscanf(release, "%u.%u", &major, &minor);
	if (handles && *handles)
		file_ids = strcmp(handles, "lowest-free") != 0;
	else
		file_ids = major > 6 || (major == 6 && minor >= 12);
	struct mlx5dv_export_sizes sizes = {};
	uint8_t obj_rec[RECORD_MAX] = { 0 }, umem_rec[RECORD_MAX] = { 0 };
	uint8_t var_rec[RECORD_MAX] = { 0 }, bad[RECORD_MAX];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct mlx5dv_devx_obj *counter, *obj;
	struct mlx5dv_devx_umem *umem, *iumem;
	struct mlx5dv_var *var, *ivar;
	unsigned int passed, failed;
	uint32_t id = 0;
	void *mem;
	int ok;

	mlx5dv_get_export_sizes(&sizes);
	REQUIRE(sizes.devx_obj_attrs_size <= RECORD_MAX &&
		sizes.devx_umem_attrs_size <= RECORD_MAX &&
		sizes.var_attrs_size <= RECORD_MAX);

	counter = alloc_flow_counter(ctx, &id);
	REQUIRE(counter);
	REQUIRE(posix_memalign(&mem, page, 2 * page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, mem, 2 * page,
				    IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(umem);
	var = mlx5dv_alloc_var(ctx, 0);
	REQUIRE(var);
	REQUIRE(mlx5dv_devx_obj_export(counter, obj_rec) == 0);
	REQUIRE(mlx5dv_devx_umem_export(umem, umem_rec) == 0);
	REQUIRE(mlx5dv_var_export(var, var_rec) == 0);

	/* Which libmlx5 the process loaded (run_upgrade.sh checks it). */
	printf("mlx5dv_devx_obj_create: %s\n",
	       lib_path((void *)mlx5dv_devx_obj_create));

	/* The cases, counted apart from the setup's REQUIREs. */
	passed = check_passed;
	failed = check_failed;
	CHECK_BOUND(_mlx5dv_get_export_sizes);
	CHECK_BOUND(mlx5dv_devx_obj_export);
	CHECK_BOUND(mlx5dv_devx_obj_import);
	CHECK_BOUND(mlx5dv_devx_obj_unimport);
	CHECK_BOUND(mlx5dv_devx_umem_export);
	CHECK_BOUND(mlx5dv_devx_umem_import);
	CHECK_BOUND(mlx5dv_devx_umem_unimport);
	CHECK_BOUND(mlx5dv_var_export);
	CHECK_BOUND(mlx5dv_var_import);
	CHECK_BOUND(mlx5dv_var_unimport);


	/* mlx5-share's record: its magic first, each kind. */
	CHECK(memcmp(obj_rec, magic, 4) == 0);
	CHECK(memcmp(umem_rec, magic, 4) == 0);
	CHECK(memcmp(var_rec, magic, 4) == 0);

	/* A live object imports and is the object (both libraries). */
	errno = 12345;
	obj = mlx5dv_devx_obj_import(ctx, obj_rec);
	CHECK(obj != NULL);
	CHECK_EQ(errno, 12345);	/* a successful call leaves errno */
	CHECK(obj && query_flow_counter(obj, id) == 0);
	mlx5dv_devx_obj_unimport(obj);
	iumem = mlx5dv_devx_umem_import(ctx, umem_rec);
	CHECK(iumem && iumem->umem_id == umem->umem_id);
	if (iumem)
		mlx5dv_devx_umem_unimport(iumem);
	ivar = mlx5dv_var_import(ctx, var_rec);
	CHECK(ivar && ivar->page_id == var->page_id);
	if (ivar)
		mlx5dv_var_unimport(ivar);

	/* A zeroed record and an altered one are no records. */
	memset(bad, 0, sizeof(bad));
	obj = mlx5dv_devx_obj_import(ctx, bad);
	ok = !obj && errno == EINVAL;
	CHECK(ok);
	if (obj)
		mlx5dv_devx_obj_unimport(obj);
	memcpy(bad, obj_rec, sizeof(bad));
	bad[sizes.devx_obj_attrs_size - 1] ^= 0x40;
	obj = mlx5dv_devx_obj_import(ctx, bad);
	ok = !obj && errno == EINVAL;
	CHECK(ok);
	if (obj)
		mlx5dv_devx_obj_unimport(obj);

	/* Destroyed: each kind's record names nothing live. */
	CHECK_EQ(mlx5dv_devx_obj_destroy(counter), 0);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	mlx5dv_free_var(var);
	obj = mlx5dv_devx_obj_import(ctx, obj_rec);
	if (file_ids)
		ok = obj && query_flow_counter(obj, id) == ENOENT;
	else
		ok = !obj && errno == ENOENT;
	CHECK(ok);
	if (obj)
		mlx5dv_devx_obj_unimport(obj);
	iumem = mlx5dv_devx_umem_import(ctx, umem_rec);
	if (file_ids)
		ok = iumem && mlx5dv_devx_umem_dereg(iumem) == ENOENT;
	else
		ok = !iumem && errno == ENOENT;
	CHECK(ok);
	if (iumem)
		mlx5dv_devx_umem_unimport(iumem);
	ivar = mlx5dv_var_import(ctx, var_rec);
	if (file_ids)
		ok = ivar && mmap(NULL, ivar->length, PROT_READ | PROT_WRITE,
				  MAP_SHARED, ctx->cmd_fd,
				  ivar->mmap_off) == MAP_FAILED;
	else
		ok = !ivar && errno == ENOENT;
	CHECK(ok);
	if (ivar)
		mlx5dv_var_unimport(ivar);
	free(mem);

	passed = check_passed - passed;
	failed = check_failed - failed;
	printf("conformance: %u/%u\n", passed, passed + failed);
}

/* What one side sends the other: a counter's id and record. */
struct offer {
	uint32_t id;
	int32_t result;	/* the sender's take() of the record it got */
	uint8_t rec[RECORD_MAX];
};

/* Sends o (and fd, -1 for none) over sock. */
static void send_offer(int sock, int fd, const struct offer *o)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { (void *)o, sizeof(*o) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	REQUIRE(sendmsg(sock, &msg, 0) == (ssize_t)sizeof(*o));
}

/* Receives an offer, and the fd it carries when fd is not NULL. */
static void recv_offer(int sock, int *fd, struct offer *o)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { o, sizeof(*o) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;

	REQUIRE(recvmsg(sock, &msg, 0) == (ssize_t)sizeof(*o));
	if (!fd)
		return;
	c = CMSG_FIRSTHDR(&msg);
	REQUIRE(c && c->cmsg_type == SCM_RIGHTS);
	memcpy(fd, CMSG_DATA(c), sizeof(int));
}

/*
 * Imports o's record into ctx and queries the counter through it.
 * Returns 0 (imported, the counter answered), the import's errno, or
 * -1 (imported, but the query failed: the object is not the counter).
 */
static int take(struct ibv_context *ctx, const struct offer *o,
		const char *who)
{
	struct mlx5dv_devx_obj *obj;
	int ret;

	obj = mlx5dv_devx_obj_import(ctx, (void *)o->rec);
	if (!obj) {
		ret = errno;
		printf("%s: %s: import refused: %s\n", NAME, who,
		       strerror(ret));
		return ret;
	}
	ret = query_flow_counter(obj, o->id) ? -1 : 0;
	printf("%s: %s: imported; the query through it %s\n", NAME, who,
	       ret ? "FAILED (not the counter)" : "answered");
	mlx5dv_devx_obj_unimport(obj);
	return ret;
}

/* The peer: import what came, answer with a counter of its own. */
static int peer(int sock)
{
	struct ibv_context *ctx;
	struct mlx5dv_devx_obj *counter;
	struct offer in, out = { 0 };
	int fd, ret;

	recv_offer(sock, &fd, &in);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	ret = take(ctx, &in, "peer's import of the record sent");
	counter = alloc_flow_counter(ctx, &out.id);
	REQUIRE(counter);
	REQUIRE(mlx5dv_devx_obj_export(counter, out.rec) == 0);
	out.result = ret;
	send_offer(sock, -1, &out);
	/* The counter lives until the other side has used it. */
	recv_offer(sock, NULL, &in);
	CHECK_EQ(mlx5dv_devx_obj_destroy(counter), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done("upgrade_app peer");
}

static void exchange(struct ibv_context *ctx, const char *path, bool mixed)
{
	struct mlx5dv_devx_obj *counter;
	struct offer out = { 0 }, in;
	int sv[2], status, theirs, ours;
	char fdarg[16];
	pid_t pid;

	REQUIRE(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		execl(path, path, "peer", fdarg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	counter = alloc_flow_counter(ctx, &out.id);
	REQUIRE(counter);
	REQUIRE(mlx5dv_devx_obj_export(counter, out.rec) == 0);
	send_offer(sv[0], ctx->cmd_fd, &out);
	recv_offer(sv[0], NULL, &in);
	theirs = in.result;
	ours = take(ctx, &in, "this side's import of the peer's record");
	send_offer(sv[0], -1, &out);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(counter), 0);
	close(sv[0]);

	if (mixed) {
		CHECK_EQ(theirs, -1);	/* taken unchecked, names nothing */
		CHECK_EQ(ours, EINVAL);	/* refused: not our record */
	} else {
		CHECK_EQ(theirs, 0);
		CHECK_EQ(ours, 0);
	}
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;

	if (argc == 3 && strcmp(argv[1], "peer") == 0)
		return peer(atoi(argv[2]));
	if (!(argc == 2 && strcmp(argv[1], "conformance") == 0) &&
	    !(argc == 4 && strcmp(argv[1], "exchange") == 0 &&
	      (strcmp(argv[3], "same") == 0 ||
	       strcmp(argv[3], "mixed") == 0))) {
		fprintf(stderr, "usage: %s conformance | exchange PEER "
			"same|mixed\n", argv[0]);
		return 2;
	}
	ctx = open_devx_device();
	if (!ctx)
		check_skip(NAME,
			   "no mlx5 device with DEVX (run under mlx5-emu)");
	if (argc == 2)
		conformance(ctx);
	else
		exchange(ctx, argv[2], strcmp(argv[3], "mixed") == 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
