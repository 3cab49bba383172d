// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The command fd's file operations are the kernel's (uverbs_main.c's
 * uverbs_mmap_fops): write() is ib_uverbs_write(), whose header checks
 * answer a bad write with their errno and change nothing; there is no
 * read (EINVAL at once) and no poll (always ready, never watched by
 * epoll: EPERM); mmap without a ucontext is EINVAL; only the opener's
 * credentials may write (EACCES in a forked child); the open's access
 * mode is checked first (EBADF, EACCES).  After every bad
 * write, from the owner or a sharer, both keep working.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include <rdma/ib_user_verbs.h>

#include "emu_util.h"

#define NAME "emu_uverbs_fops"

/* a PD can be made and freed: the file still works */
static bool file_works(struct ibv_context *ctx)
{
	struct ibv_device_attr attr;
	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	if (!pd)
		return false;
	return !ibv_dealloc_pd(pd) && !ibv_query_device(ctx, &attr);
}

static ssize_t write_hdr(int fd, uint32_t command, uint16_t in_words,
			 uint16_t out_words, size_t count)
{
	uint8_t buf[512] = {};
	struct ib_uverbs_cmd_hdr hdr = { command, in_words, out_words };

	memcpy(buf, &hdr, sizeof(hdr));
	return write(fd, buf, count);
}

static ssize_t write_ex(int fd, uint32_t command, uint16_t in_words,
			uint16_t out_words,
			const struct ib_uverbs_ex_cmd_hdr *ex, size_t count)
{
	uint8_t buf[512] = {};
	struct ib_uverbs_cmd_hdr hdr = {
		IB_USER_VERBS_CMD_FLAG_EXTENDED | command, in_words, out_words
	};

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), ex, sizeof(*ex));
	return write(fd, buf, count);
}

/* ib_uverbs_write()'s checks, in order */
static void bad_writes(int fd)
{
	struct ib_uverbs_ex_cmd_hdr ex = {};
	uint8_t junk[256], zero[256] = {};
	const void *volatile bad;
	struct iovec iov[2];
	uint64_t resp[64];

	/* shorter than the header, empty included */
	CHECK_ERRNO(write(fd, "", 0) < 0, EINVAL);
	CHECK_ERRNO(write(fd, zero, 7) < 0, EINVAL);
	/* junk: command bits outside the mask and the extended flag */
	memset(junk, 0xa5, sizeof(junk));
	CHECK_ERRNO(write(fd, junk, sizeof(junk)) < 0, EINVAL);
	/* zeros: GET_CONTEXT whose in_words (0) is not the count */
	CHECK_ERRNO(write(fd, zero, sizeof(zero)) < 0, EINVAL);
	/* past the last command of each table: EOPNOTSUPP */
	CHECK_ERRNO(write_hdr(fd, 200, 2, 0, 8) < 0, EOPNOTSUPP);
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_FLAG_EXTENDED | 200, 2, 0,
			      8) < 0, EOPNOTSUPP);
	/* a hole in the table is the notsupp method, never extended */
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_QUERY_MR, 3, 0, 8) < 0,
		    EINVAL);
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_QUERY_MR, 2, 0, 8) < 0,
		    EOPNOTSUPP);
	/* ALLOC_PD: the count not 4 * in_words, then too short for it */
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_ALLOC_PD, 4, 2, 12) < 0,
		    EINVAL);
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_ALLOC_PD, 3, 2, 12) < 0,
		    ENOSPC);
	/* room for the request, none for the response */
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_ALLOC_PD, 4, 0, 16) < 0,
		    ENOSPC);
	/* the DESTROY_CQ allowance: checked, then not modelled */
	CHECK_ERRNO(write_hdr(fd, IB_USER_VERBS_CMD_DESTROY_CQ, 4, 4, 16) < 0,
		    EOPNOTSUPP);
	/* extended: no room for the extended header */
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 0, 0, &ex,
			     16) < 0, EINVAL);
	/* words that do not add up to the count */
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 2, 0, &ex,
			     32) < 0, EINVAL);
	/* a request shorter than the command's */
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 0, 0, &ex,
			     24) < 0, ENOSPC);
	ex.cmd_hdr_reserved = 1;
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 0, &ex,
			     32) < 0, EINVAL);
	ex.cmd_hdr_reserved = 0;
	/* output words without a response pointer, and the reverse */
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 2, &ex,
			     32) < 0, EINVAL);
	ex.response = (uintptr_t)resp;
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 0, &ex,
			     32) < 0, EINVAL);
	/* a response too short, then one outside user space */
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 1, &ex,
			     32) < 0, ENOSPC);
	ex.response = ~0ull - 64;
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 63, &ex,
			     32) < 0, EFAULT);
	/* a write that passes every check: the model runs it by ioctl only */
	ex.response = (uintptr_t)resp;
	CHECK_ERRNO(write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 1, 63, &ex,
			     32) < 0, EOPNOTSUPP);
	/* a buffer that cannot be read, one past user space */
	bad = (void *)8;
	CHECK_ERRNO(write(fd, bad, 32) < 0, EFAULT);
	bad = (void *)(uintptr_t)(~0ull - 16);
	CHECK_ERRNO(write(fd, bad, 32) < 0, EFAULT);
	/* writev: one write per piece; nothing at all for an empty total */
	iov[0] = (struct iovec){ zero, 0 };
	CHECK_EQ(writev(fd, iov, 1), 0);
	iov[1] = (struct iovec){ junk, 16 };
	CHECK_ERRNO(writev(fd, iov, 2) < 0, EINVAL);
	iov[0] = (struct iovec){ junk, 16 };
	CHECK_ERRNO(writev(fd, iov, 2) < 0, EINVAL);
}

/* read has no file operation: EINVAL at once; poll has none: ready */
static void read_and_poll(int fd)
{
	struct pollfd p[2] = {
		{ .fd = fd, .events = POLLIN | POLLOUT | POLLPRI },
		{ .fd = fd, .events = POLLPRI },
	};
	struct epoll_event ev = { .events = EPOLLIN };
	uint8_t buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	int ep;

	CHECK_ERRNO(read(fd, buf, sizeof(buf)) < 0, EINVAL);
	CHECK_ERRNO(read(fd, buf, 0) < 0, EINVAL);
	CHECK_ERRNO(readv(fd, &iov, 1) < 0, EINVAL);
	/* no position: ESPIPE, as nonseekable_open() makes it */
	CHECK_ERRNO(pread(fd, buf, sizeof(buf), 0) < 0, ESPIPE);
	CHECK_ERRNO(lseek(fd, 0, SEEK_SET) < 0, ESPIPE);
	CHECK_EQ(poll(p, 1, -1), 1);
	CHECK_EQ(p[0].revents, POLLIN | POLLOUT);
	CHECK_EQ(poll(p, 2, 0), 1);
	CHECK_EQ(p[1].revents, 0);
	/* and cannot be watched by epoll */
	ep = epoll_create1(EPOLL_CLOEXEC);
	REQUIRE(ep >= 0);
	CHECK_ERRNO(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), EPERM);
	close(ep);
}

int main(void)
{
	struct ibv_context *ctx = emu_start_verbs(NAME);
	struct ibv_device **list;
	struct ibv_context *other;
	int fd, status, raw;
	pid_t pid;

	fd = ctx->cmd_fd;
	list = ibv_get_device_list(NULL);
	REQUIRE(list && list[0]);
	other = ibv_open_device(list[0]);
	REQUIRE(other);
	CHECK(file_works(ctx));

	bad_writes(fd);
	read_and_poll(fd);
	CHECK(file_works(ctx));
	CHECK(file_works(other));

	/*
	 * A sharer with other credentials (a forked child) may not write
	 * (EACCES first, whatever the buffer), and its bad writes harm
	 * neither it nor the owner.
	 */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		bool ok = write(fd, "", 0) < 0 && errno == EACCES;
		uint8_t junk[256];

		memset(junk, 0xff, sizeof(junk));
		ok = ok && write(fd, junk, sizeof(junk)) < 0 &&
		     errno == EACCES;
		ok = ok && read(fd, junk, sizeof(junk)) < 0 && errno == EINVAL;
		ok = ok && file_works(ctx);
		_exit(ok ? 0 : 1);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(file_works(ctx));

	/* a ufile without a ucontext: mmap is EINVAL (no ucontext) */
	raw = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
	REQUIRE(raw >= 0);
	CHECK_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, raw, 0) ==
		    MAP_FAILED, EINVAL);
	CHECK_ERRNO(write(raw, "", 0) < 0, EINVAL);
	close(raw);
	/* the access mode, checked before the file's operations */
	raw = open("/dev/infiniband/uverbs0", O_RDONLY | O_CLOEXEC);
	REQUIRE(raw >= 0);
	CHECK_ERRNO(write(raw, "", 0) < 0, EBADF);
	CHECK_ERRNO(read(raw, &status, sizeof(status)) < 0, EINVAL);
	CHECK_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, raw,
			 0) == MAP_FAILED, EACCES);
	CHECK_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, raw, 0) ==
		    MAP_FAILED, EINVAL);
	close(raw);
	raw = open("/dev/infiniband/uverbs0", O_WRONLY | O_CLOEXEC);
	REQUIRE(raw >= 0);
	CHECK_ERRNO(read(raw, &status, sizeof(status)) < 0, EBADF);
	CHECK_ERRNO(write(raw, "", 0) < 0, EINVAL);
	CHECK_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, raw, 0) ==
		    MAP_FAILED, EACCES);
	close(raw);

	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	ibv_free_device_list(list);
	return check_done(NAME);
}
