/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The emulated machine's server: one listening SOCK_SEQPACKET socket per
 * device (<dir>/uverbsN), one ufile per accepted connection, the channels
 * of the threads that use it, all served by one thread that never blocks
 * (see wire/wire.h for the protocol, daemon.c for its limits).
 */
#ifndef MLX5_EMU_DAEMON_H
#define MLX5_EMU_DAEMON_H

/* rm -r of the machine's private directory */
void emu_remove_tree(const char *dir);

/*
 * Serves until killed.  SIGTERM (which the launcher's death sends, see
 * PR_SET_PDEATHSIG) removes the private directory first.  Writes one
 * byte to ready_fd (then closes it) once every socket listens; returns
 * non-zero if setup fails.
 */
int emu_daemon_run(const char *dir, unsigned int ndev, int ready_fd);

#endif
