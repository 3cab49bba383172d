// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The client half of the protocol in kernel/wire.h: opening a device,
 * marshalling an ioctl the way the kernel reads it (the header, the
 * attribute array, and for each PTR_IN attribute longer than 8 bytes the
 * user buffer it points at), and writing back what the kernel would have
 * written: outputs, attribute flags, new handles and fds, the errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(p, l) ((void)(p), (void)(l))
#endif

#include "preload.h"
#include "uapi_spec.h"
#include "wire.h"
#include "wire_io.h"

#define DEV_PREFIX "/dev/infiniband/uverbs"

static const char *emu_dir(void)
{
	static const char *dir;
	static bool done;

	if (!done) {
		dir = getenv("MLX5_EMU_DIR");
		if (dir && !*dir)
			dir = NULL;
		done = true;
	}
	return dir;
}

static int parse_index(const char *s)
{
	long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

static bool dev_exists(int dev)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 16];
	struct stat st;
	int (*real_stat)(const char *, struct stat *) =
		(int (*)(const char *, struct stat *))emu_real("stat");

	snprintf(path, sizeof(path), "%s/uverbs%d", emu_dir(), dev);
	return real_stat && !real_stat(path, &st) && S_ISSOCK(st.st_mode);
}

const char *emu_sys_path(const char *path, char *buf, size_t len)
{
	static const char *const classes[] = {
		"/sys/class/infiniband_verbs", "/sys/class/infiniband",
	};
	size_t i, n;

	if (!path || !emu_dir() || strncmp(path, "/sys/class/", 11))
		return path;
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		n = strlen(classes[i]);
		if (strncmp(path, classes[i], n) ||
		    (path[n] && path[n] != '/'))
			continue;
		/* the generated tree stands for the kernel's */
		if (snprintf(buf, len, "%s/sys%s", emu_dir(), path + 4) >=
		    (int)len)
			return path;
		return buf;
	}
	return path;
}

unsigned int emu_num_devs(void)
{
	unsigned int n = 0;

	/* the daemon listens on uverbs0 .. uverbs<N-1> */
	while (emu_dir() && n < EMU_MAX_DEVICES && dev_exists((int)n))
		n++;
	return n;
}

bool emu_active(void)
{
	return emu_dir() != NULL;
}

int emu_path_dev(const char *path)
{
	int dev;

	if (!emu_dir() || strncmp(path, DEV_PREFIX, strlen(DEV_PREFIX)))
		return -1;
	dev = parse_index(path + strlen(DEV_PREFIX));
	if (dev < 0 || !dev_exists(dev))
		return -1;
	return dev;
}

int emu_fd_dev(int fd)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	const char *dir = emu_dir();
	size_t dlen;

	if (!dir || fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	if (getpeername(fd, (struct sockaddr *)&sa, &len) ||
	    sa.sun_family != AF_UNIX || len <= offsetof(struct sockaddr_un,
						       sun_path))
		return -1;
	sa.sun_path[sizeof(sa.sun_path) - 1] = 0;
	dlen = strlen(dir);
	if (strncmp(sa.sun_path, dir, dlen) ||
	    strncmp(sa.sun_path + dlen, "/uverbs", 7))
		return -1;
	return parse_index(sa.sun_path + dlen + 7);
}

int emu_open_dev(int dev, int flags)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int (*real_socket)(int, int, int) =
		(int (*)(int, int, int))emu_real("socket");
	int fd, err;

	if ((flags & O_ACCMODE) != O_RDWR && (flags & O_ACCMODE) != O_WRONLY &&
	    (flags & O_ACCMODE) != O_RDONLY) {
		errno = EINVAL;
		return -1;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/uverbs%d", emu_dir(),
		 dev);
	fd = real_socket(AF_UNIX, SOCK_SEQPACKET |
			 ((flags & O_CLOEXEC) ? SOCK_CLOEXEC : 0), 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
		close(fd);
		/* the daemon is gone: as if the device disappeared */
		errno = (err == ECONNREFUSED || err == ENOENT) ? ENXIO : err;
		return -1;
	}
	return fd;
}

int emu_user_read(void *dst, uint64_t src, size_t len)
{
	struct iovec l = { .iov_base = dst, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)src, .iov_len = len };
	ssize_t n;

	if (!len)
		return 0;
	n = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy(dst, (const void *)(uintptr_t)src, len);
		return 0;
	}
	return -EFAULT;
}

int emu_user_write(uint64_t dst, const void *src, size_t len)
{
	struct iovec l = { .iov_base = (void *)src, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)dst, .iov_len = len };
	ssize_t n;

	if (!len)
		return 0;
	n = process_vm_writev(getpid(), &l, 1, &r, 1, 0);
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy((void *)(uintptr_t)dst, src, len);
		n = (ssize_t)len;
	}
	if (n != (ssize_t)len)
		return -EFAULT;
	VALGRIND_MAKE_MEM_DEFINED((void *)(uintptr_t)dst, len);
	return 0;
}

struct call {
	int chan;
	struct emu_wire_rep rep;
	int fds[8];
	unsigned int nfds;
	uint8_t *payload;
};

static void call_close(struct call *c)
{
	unsigned int i;

	for (i = 0; i < c->nfds; i++)
		if (c->fds[i] >= 0)	/* -1: handed over to the caller */
			close(c->fds[i]);
	if (c->chan >= 0)
		close(c->chan);
	free(c->payload);
}

/*
 * One round trip: a fresh channel is passed on the shared connection, the
 * request goes in, the reply (and any fds) comes back on it.  Any failure
 * of the daemon side reads as EIO, as calls on a disassociated device do.
 */
static int do_call(int fd, uint32_t kind, const void *req, size_t len,
		   struct call *c)
{
	struct emu_wire_token tok = { EMU_WIRE_MAGIC, EMU_WIRE_VERSION };
	struct emu_wire_req hdr = {
		.magic = EMU_WIRE_MAGIC, .kind = kind, .len = (uint32_t)len,
		.pid = (uint32_t)getpid(),
	};
	char cbuf[CMSG_SPACE(sizeof(c->fds))];
	struct iovec iov = { .iov_base = &tok, .iov_len = sizeof(tok) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	size_t sent;
	int sp[2];
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->chan = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp))
		return -errno;
	/*
	 * The request goes in first, as far as the channel takes it without
	 * blocking: then the daemon usually finds it complete when the token
	 * arrives and answers from its poll loop, without a thread.
	 */
	{
		struct iovec rv[2] = {
			{ .iov_base = &hdr, .iov_len = sizeof(hdr) },
			{ .iov_base = (void *)req, .iov_len = len },
		};
		struct msghdr rm = { .msg_iov = rv, .msg_iovlen = 2 };

		n = emu_wire_sendmsg(sp[0], &rm, MSG_DONTWAIT | MSG_NOSIGNAL);
		sent = n > 0 ? (size_t)n : 0;
	}
	emu_wire_attach_fds(&msg, cbuf, &sp[1], 1);
	n = emu_wire_sendmsg(fd, &msg, MSG_NOSIGNAL);
	close(sp[1]);
	c->chan = sp[0];
	if (n != sizeof(tok))
		return -EIO;
	/* the rest of a big request, now that the daemon reads */
	if (sent < sizeof(hdr) &&
	    emu_wire_write_full(c->chan, (uint8_t *)&hdr + sent, sizeof(hdr) - sent))
		return -EIO;
	sent = sent > sizeof(hdr) ? sent - sizeof(hdr) : 0;
	if (len > sent &&
	    emu_wire_write_full(c->chan, (const uint8_t *)req + sent, len - sent))
		return -EIO;

	memset(cbuf, 0, sizeof(cbuf));
	iov.iov_base = &c->rep;
	iov.iov_len = sizeof(c->rep);
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	n = emu_wire_recvmsg(c->chan, &msg, MSG_WAITALL | MSG_CMSG_CLOEXEC);
	c->nfds = emu_wire_take_fds(&msg, c->fds, 8);
	if (n != sizeof(c->rep) || c->rep.magic != EMU_WIRE_MAGIC ||
	    c->rep.len > EMU_WIRE_MAX_REP || c->rep.nfds != c->nfds)
		return -EIO;
	c->payload = malloc(c->rep.len ? c->rep.len : 1);
	if (!c->payload)
		return -ENOMEM;
	if (c->rep.len && emu_wire_read_full(c->chan, c->payload, c->rep.len))
		return -EIO;
	return 0;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/* Whether [addr, addr + len) is mapped, as pin_user_pages() needs. */
static bool range_mapped(uint64_t addr, uint64_t len)
{
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = addr & ~(psz - 1), end, npages;
	unsigned char *vec;
	bool ok;

	if (!len || addr + len < addr)
		return true;	/* the kernel's own checks answer these */
	end = (addr + len + psz - 1) & ~(psz - 1);
	npages = (end - start) / psz;
	if (npages > (1u << 22))
		return true;	/* too big to look at: let it through */
	vec = malloc(npages);
	if (!vec)
		return true;
	ok = !mincore((void *)(uintptr_t)start, end - start, vec);
	free(vec);
	return ok;
}

/* What only this address space knows: wire.h's EMU_FACT_* */
static uint32_t client_facts(const struct ib_uverbs_ioctl_hdr *hdr,
			     const struct ib_uverbs_attr *attrs)
{
	uint64_t addr = 0, len = 0;
	bool have_addr = false, have_len = false;
	unsigned int i;

	if (hdr->object_id != MLX5_IB_OBJECT_DEVX_UMEM ||
	    hdr->method_id != MLX5_IB_METHOD_DEVX_UMEM_REG)
		return 0;
	for (i = 0; i < hdr->num_attrs; i++) {
		if (attrs[i].len != sizeof(uint64_t))
			continue;
		if (attrs[i].attr_id == MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR) {
			addr = attrs[i].data;
			have_addr = true;
		} else if (attrs[i].attr_id == MLX5_IB_ATTR_DEVX_UMEM_REG_LEN) {
			len = attrs[i].data;
			have_len = true;
		}
	}
	if (have_addr && have_len && !range_mapped(addr, len))
		return EMU_FACT_UMEM_UNMAPPED;
	return 0;
}

/* Builds the request: what the kernel would copy_from_user(). */
static uint8_t *marshal(const struct ib_uverbs_ioctl_hdr *hdr,
			const struct ib_uverbs_attr *attrs, size_t *len,
			int *err)
{
	const struct emu_method_spec *m =
		emu_find_method(hdr->object_id, hdr->method_id);
	size_t total = sizeof(*hdr) + hdr->num_attrs * sizeof(*attrs);
	uint32_t facts = client_facts(hdr, attrs);
	unsigned int i;
	uint8_t *buf, *p;

	for (i = 0; i < hdr->num_attrs; i++) {
		const struct emu_attr_spec *s = m ? emu_find_attr(m,
							attrs[i].attr_id) : NULL;

		total += sizeof(uint32_t);
		if (s && s->type == EMU_ATTR_PTR_IN &&
		    attrs[i].len > sizeof(attrs[i].data))
			total += attrs[i].len;
	}
	total += sizeof(facts);
	buf = malloc(total);
	if (!buf) {
		*err = ENOMEM;
		return NULL;
	}
	memcpy(buf, hdr, sizeof(*hdr));
	memcpy(buf + sizeof(*hdr), attrs, hdr->num_attrs * sizeof(*attrs));
	p = buf + sizeof(*hdr) + hdr->num_attrs * sizeof(*attrs);
	for (i = 0; i < hdr->num_attrs; i++) {
		const struct emu_attr_spec *s = m ? emu_find_attr(m,
							attrs[i].attr_id) : NULL;
		uint32_t n = 0;

		if (s && s->type == EMU_ATTR_PTR_IN &&
		    attrs[i].len > sizeof(attrs[i].data))
			n = attrs[i].len;
		memcpy(p, &n, sizeof(n));
		p += sizeof(n);
		if (n && emu_user_read(p, attrs[i].data, n)) {
			free(buf);
			*err = EFAULT;
			return NULL;
		}
		p += n;
	}
	memcpy(p, &facts, sizeof(facts));
	*len = total;
	return buf;
}

/* Applies the writebacks in the order the kernel made them. */
static int apply(struct call *c, struct ib_uverbs_ioctl_hdr *uhdr,
		 const struct ib_uverbs_attr *attrs, unsigned int num_attrs)
{
	const uint8_t *p = c->payload, *end = c->payload + c->rep.len;
	unsigned int next_fd = 0;

	while (p < end) {
		struct emu_wire_wb wb;
		uint64_t uattr;

		if ((size_t)(end - p) < sizeof(wb))
			return -EIO;
		memcpy(&wb, p, sizeof(wb));
		p += sizeof(wb);
		if ((size_t)(end - p) < wb.len || wb.idx >= num_attrs)
			return -EIO;
		uattr = (uint64_t)(uintptr_t)&uhdr->attrs[wb.idx];
		switch (wb.kind) {
		case EMU_WB_FLAGS:
			if (wb.len != sizeof(uint16_t) ||
			    emu_user_write(uattr + offsetof(struct ib_uverbs_attr,
							    flags), p, wb.len))
				return -EFAULT;
			break;
		case EMU_WB_DATA:
			if (wb.len != sizeof(uint64_t) ||
			    emu_user_write(uattr + offsetof(struct ib_uverbs_attr,
							    data), p, wb.len))
				return -EFAULT;
			break;
		case EMU_WB_BUF:
			if (wb.len > attrs[wb.idx].len ||
			    emu_user_write(attrs[wb.idx].data, p, wb.len))
				return -EFAULT;
			break;
		case EMU_WB_FD: {
			int64_t fdv;

			if (next_fd >= c->nfds)
				return -EIO;
			fdv = c->fds[next_fd];
			if (emu_user_write(uattr + offsetof(struct ib_uverbs_attr,
							    data), &fdv,
					   sizeof(fdv)))
				return -EFAULT;
			/* installed: the caller owns it now */
			c->fds[next_fd++] = -1;
			break;
		}
		default:
			return -EIO;
		}
		p += wb.len;
	}
	return 0;
}

int emu_ioctl(int fd, void *arg)
{
	struct ib_uverbs_ioctl_hdr hdr, *uhdr = arg;
	struct ib_uverbs_attr *attrs = NULL;
	struct call c;
	uint8_t *req;
	size_t len;
	int err = 0, ret;

	if (emu_user_read(&hdr, (uintptr_t)uhdr, sizeof(hdr)))
		return fail(EFAULT);
	/* a header the kernel rejects before reading the attrs */
	if (hdr.length != sizeof(hdr) + hdr.num_attrs * sizeof(*attrs) ||
	    hdr.length > 4096)
		hdr.num_attrs = 0;
	if (hdr.num_attrs) {
		attrs = malloc(hdr.num_attrs * sizeof(*attrs));
		if (!attrs)
			return fail(ENOMEM);
		if (emu_user_read(attrs, (uintptr_t)uhdr->attrs,
				  hdr.num_attrs * sizeof(*attrs))) {
			free(attrs);
			return fail(EFAULT);
		}
	}
	req = marshal(&hdr, attrs, &len, &err);
	if (!req) {
		free(attrs);
		return fail(err);
	}
	/* keep the caller's real header length for the daemon's checks */
	if (!hdr.num_attrs)
		memcpy(req, uhdr, sizeof(hdr));
	ret = do_call(fd, EMU_WIRE_IOCTL, req, len, &c);
	free(req);
	if (!ret) {
		ret = apply(&c, uhdr, attrs, hdr.num_attrs);
		if (!ret)
			ret = c.rep.ret;
	}
	call_close(&c);
	free(attrs);
	return ret ? fail(-ret) : 0;
}

void *emu_mmap(void *addr, size_t len, int prot, int flags, int fd,
	       off_t off)
{
	void *(*real_mmap)(void *, size_t, int, int, int, off_t) =
		(void *(*)(void *, size_t, int, int, int, off_t))emu_real("mmap");
	struct emu_wire_mmap req = {
		.offset = (uint64_t)off, .length = len, .prot = (uint32_t)prot,
		.flags = (uint32_t)flags,
	};
	struct emu_wire_mmap_rep mrep;
	struct call c;
	void *p = MAP_FAILED;
	int ret;

	if (!real_mmap || off < 0 || (off & (sysconf(_SC_PAGESIZE) - 1)) ||
	    !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	ret = do_call(fd, EMU_WIRE_MMAP, &req, sizeof(req), &c);
	if (!ret)
		ret = c.rep.ret;
	if (!ret && (c.nfds != 1 || c.rep.len != sizeof(mrep)))
		ret = -EIO;
	if (!ret) {
		memcpy(&mrep, c.payload, sizeof(mrep));
		p = real_mmap(addr, len, prot, flags, c.fds[0],
			      (off_t)mrep.fd_offset);
		if (p == MAP_FAILED)
			ret = -errno;
	}
	call_close(&c);
	if (ret)
		errno = -ret;
	return p;
}
