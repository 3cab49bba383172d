/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel side of NETLINK_RDMA for the emulated devices: one datagram
 * a process sent in, the datagrams the kernel would queue for it out.
 * Pure: no socket, no global state, so it can be fuzzed on its own.
 */
#ifndef MLX5_EMU_NLDEV_H
#define MLX5_EMU_NLDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * NLMSG_GOODSIZE on 4 KiB pages: the most one dump datagram holds before
 * the kernel starts the next one.
 */
#define EMU_NL_GOODSIZE 3776

struct emu_nl_sender {
	uint32_t portid;	/* the sending socket's bound port id */
	unsigned int ndev;	/* emulated devices: mlx5_0 .. */
	bool cap_ack;		/* NETLINK_CAP_ACK set on the socket */
	bool net_admin;		/* netlink_capable(CAP_NET_ADMIN) */
	/* queues one reply datagram for the sender: 0 or -errno */
	int (*emit)(void *arg, const void *buf, size_t len);
	/*
	 * The socket's dump state (netlink_sock's cb_running): whether a
	 * dump is still running, and that one started whose records took
	 * parts datagrams (0: it ended at once, with its status); told
	 * before the dump's NLMSG_DONE is emitted.
	 */
	bool (*dump_running)(void *arg);
	void (*dump_started)(void *arg, unsigned int parts);
	void *arg;
};

/* rdma_nl_rcv(): every message of the datagram, in order */
void emu_nldev_rcv(const void *buf, size_t len, const struct emu_nl_sender *s);

#endif
