/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The calling thread's channels to the daemon (see wire/wire.h): one per
 * (thread, open device), made on first use and kept across calls, so a
 * call costs one request write and one reply read.
 *
 * A channel is remembered together with the identity (st_dev, st_ino) of
 * the connection it was registered on, so a closed device fd whose number
 * is reused is never mistaken for the old one.  After fork() the child
 * closes every inherited channel (they are the parent's) and makes its
 * own; a process that received the device fd by SCM_RIGHTS has no channel
 * for it yet and makes one.  A thread's channels close when it exits, and
 * a channel whose device fd was closed is closed when its thread next
 * makes a channel (or exits).
 */
#ifndef MLX5_EMU_CHANNEL_H
#define MLX5_EMU_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct chan_slot;
struct emu_wire_shm;

/* A channel lent to one call. */
struct emu_chan {
	int fd;
	uint32_t seq;		/* this call's sequence number */
	struct chan_slot *slot;	/* NULL: made for this call only */
	struct emu_wire_shm *shm;	/* its shared page, or NULL */
};

/*
 * The device index of fd if this thread already has a channel for the
 * connection fd is now; -1 if fd is a socket it does not know (the caller
 * then asks the socket); -2 if fd is no socket, so no device.  One
 * fstat(); the identity it read is kept for emu_chan_get() on the same fd.
 */
int emu_chan_fd_dev(int fd);
/* Remembers that fd (just checked by the caller) is device dev. */
void emu_chan_note_dev(int fd, int dev);

/*
 * getpid() without the system call: kept until fork() (pthread_atfork),
 * which is how a process using libibverbs makes children.
 */
pid_t emu_self_pid(void);

/* A channel for a call on device fd: 0, or -errno (EIO: daemon gone). */
int emu_chan_get(int fd, struct emu_chan *ch);
/*
 * Returns the channel after the call.  broken: the call did not end
 * cleanly (EOF, a short read, a reply out of sequence), so the channel
 * is closed instead of kept.
 */
void emu_chan_put(struct emu_chan *ch, bool broken);

#endif
