/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The preload <-> daemon protocol.
 *
 * An open /dev/infiniband/uverbsN is a SOCK_SEQPACKET connection to the
 * daemon: one connection is one ufile, released when its last fd closes.
 * Many threads and processes may share it (dup, fork, SCM_RIGHTS), so no
 * caller ever reads from it.  Instead each thread of each process makes
 * its own channel to the ufile: a SOCK_STREAM socketpair, one end passed
 * (SCM_RIGHTS) in a token message on the shared connection.  The daemon
 * serves that channel until it closes, one request at a time, answering
 * on it only: a reply goes to the one thread that reads the channel, and
 * a dead daemon shows up as EOF on it.  A channel does not hold the
 * ufile: when the connection closes the daemon closes its channels.
 *
 * Every request carries a sequence number that its reply repeats, so a
 * caller never takes a stale reply for its own.  A client sends its next
 * request on a channel only once it has read the reply.  The daemon reads
 * one request at a time: bytes of a next one that arrive in the same read
 * close the channel; a next one sent later waits until the reply before
 * it is written.  (A doorbell, below, may come at any time: on a channel
 * with a page the daemon reads one header at a time.)
 *
 * All integers are host order: both ends run on the same machine.
 */
#ifndef MLX5_EMU_WIRE_H
#define MLX5_EMU_WIRE_H

#include <stdint.h>

#define EMU_WIRE_MAGIC 0x6d6c7835u	/* "mlx5" */
#define EMU_WIRE_VERSION 4

/* Bounds the daemon enforces before it allocates anything. */
#define EMU_WIRE_MAX_REQ (4u << 20)
#define EMU_WIRE_MAX_REP (4u << 20)

/*
 * On the connection, with the channel attached: serve this channel.  A
 * second fd, if attached, is the channel's shared page (below).
 */
struct emu_wire_token {
	uint32_t magic;
	uint32_t version;
};

/*
 * On the connection, first, from the process that opened the device and
 * before anyone else holds it: the file's access mode (open()'s
 * O_ACCMODE bits), which read(), write() and mmap() check as the VFS
 * does.  A connection without it was opened O_RDWR.  Later ones are
 * ignored.
 */
struct emu_wire_open {
	uint32_t magic;
	uint32_t version;
	uint32_t accmode;
	uint32_t reserved;
};

enum emu_wire_kind {
	EMU_WIRE_IOCTL = 1,	/* RDMA_VERBS_IOCTL */
	EMU_WIRE_MMAP = 2,	/* mmap() of the command fd */
	EMU_WIRE_PING = 3,	/* liveness, used by the launcher */
	EMU_WIRE_DOORBELL = 4,	/* no payload: a request is in the page */
	EMU_WIRE_WRITE = 5,	/* write() on the command fd */
	EMU_WIRE_READ = 6,	/* read() on it: no payload, an errno back */
};

struct emu_wire_req {
	uint32_t magic;
	uint32_t kind;
	uint32_t len;		/* payload bytes that follow */
	uint32_t pid;		/* for the trace only */
	uint32_t seq;		/* repeated in the reply */
	uint32_t reserved;	/* 0 */
};

/*
 * EMU_WIRE_IOCTL payload: the ib_uverbs_ioctl_hdr with its attrs exactly
 * as the caller passed them, then for each attr, in order, a u32 length
 * and that many bytes of the user buffer it points at (0 for attrs whose
 * data is inline, outputs, handles, or attrs the spec does not know).
 * Then a u32 of facts only the caller's address space knows, which the
 * kernel finds out when it touches user memory (EMU_FACT_*).
 */
enum {
	/* DEVX_UMEM_REG: ib_umem_get() could not pin the range (unmapped) */
	EMU_FACT_UMEM_UNMAPPED = 1 << 0,
};

/*
 * EMU_WIRE_WRITE payload: this, then the first bytes of the caller's
 * buffer that could be read, at most EMU_WIRE_WRITE_HEAD (what the
 * kernel copies before it runs a command: the command header and the
 * extended one).  The reply has no payload.
 */
struct emu_wire_write {
	uint64_t count;		/* write()'s count */
};

#define EMU_WIRE_WRITE_HEAD 24u

struct emu_wire_mmap {
	uint64_t offset;
	uint64_t length;
	uint32_t prot;
	uint32_t flags;
};

struct emu_wire_rep {
	uint32_t magic;
	int32_t ret;		/* 0 or -errno, as the kernel returns it */
	uint32_t nfds;		/* fds attached to this header (SCM_RIGHTS) */
	uint32_t len;		/* payload bytes that follow */
	uint32_t seq;		/* the request's, or EMU_WIRE_SEQ_REFUSED */
	uint32_t reserved;
};

/*
 * The daemon will not serve a new channel (its owner holds its share of
 * the daemon's descriptors already): this reply, ret -EMFILE, comes first
 * on the channel, then EOF.  Requests never use this sequence number.
 */
#define EMU_WIRE_SEQ_REFUSED 0u

/*
 * A channel's shared page: a memfd the client makes, sealed against
 * shrinking (so the daemon's mapping never faults), passed with the
 * token.  An ioctl request that fits goes through it, and its reply comes
 * back through it, with no system call on either side while both poll
 * (see EMU_WIRE_SPIN_NS): the wake-ups of a socket round trip cost more
 * than the rest of a call.
 *
 * The client writes req and req_data, then req_seq (release), and rings
 * (an EMU_WIRE_DOORBELL request on the socket) unless daemon_polls is
 * set.  The daemon copies the request out before it looks at it, answers
 * in rep and rep_data, writes rep_seq (release), and wakes the futex at
 * rep_seq if client_waits is set.  Each side writes its own flag (or
 * sequence number) and then reads the other's, both sequentially
 * consistent, so one of the two always sees the other: no wake-up is
 * lost.  A sleeping client looks
 * at the socket every EMU_WIRE_NAP_NS for a daemon that died.  A reply
 * with fds, or longer than the page holds, comes on the socket as usual;
 * rep.reserved then says EMU_WIRE_SHM_ON_SOCKET.
 *
 * The page is the client's memory too: the daemon trusts nothing in it
 * that it has not copied and checked, as it trusts nothing on a socket.
 */
#define EMU_WIRE_SHM_BYTES 16384u
#define EMU_WIRE_SHM_DATA 8096u
#define EMU_WIRE_SHM_ON_SOCKET 1u
#define EMU_WIRE_NAP_NS 50000000u

struct emu_wire_shm {
	uint32_t req_seq;	/* client */
	uint32_t client_waits;	/* client */
	uint32_t rep_seq;	/* daemon */
	uint32_t daemon_polls;	/* daemon */
	uint8_t pad[48];	/* the flags in a cache line of their own */
	struct emu_wire_req req;
	uint8_t req_data[EMU_WIRE_SHM_DATA];
	struct emu_wire_rep rep;
	uint8_t rep_data[EMU_WIRE_SHM_DATA];
};

_Static_assert(sizeof(struct emu_wire_shm) <= EMU_WIRE_SHM_BYTES,
	       "the shared page's layout outgrew it");

/* Reply payload for EMU_WIRE_IOCTL: a sequence of writebacks. */
enum emu_wb_kind {
	EMU_WB_FLAGS = 1,	/* u16: new attrs[idx].flags (put_user) */
	EMU_WB_DATA = 2,	/* u64: new attrs[idx].data (put_user) */
	EMU_WB_BUF = 3,		/* bytes: copy_to_user(attrs[idx].data) */
	EMU_WB_FD = 4,		/* the next attached fd: attrs[idx].data */
};

struct emu_wire_wb {
	uint16_t idx;
	uint16_t kind;
	uint32_t len;		/* bytes that follow */
};

/* Reply payload for EMU_WIRE_MMAP: one fd attached, map it at this. */
struct emu_wire_mmap_rep {
	uint64_t fd_offset;
	uint32_t flags;		/* EMU_MMAP_* */
	uint32_t reserved;
};

enum {
	/*
	 * The kernel cleared VM_MAYWRITE for this mapping (the core clock
	 * page): mprotect() may never make it writable.
	 */
	EMU_MMAP_NO_MAYWRITE = 1 << 0,
};

#endif
