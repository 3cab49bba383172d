/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The kernel's boot id, which a blob carries (blob.h): a random UUID the
 * kernel draws at boot and shows as text in BOOT_ID_PATH.  Export writes
 * it into the blob and import wants the same one (ESTALE otherwise), so
 * that a blob saved before a reboot, whose handles and file ids named
 * objects of a kernel that is gone, is never taken for today's.
 *
 * Read with open() and read(), so that mlx5-emu's preload, which models
 * the kernel's files for the programs it runs, answers with its daemon's
 * own boot id: a fresh emulator is a fresh boot.  Libc and pthreads only,
 * for the library and the inspector alike.
 */
#ifndef MLX5_SHARE_BOOT_ID_H
#define MLX5_SHARE_BOOT_ID_H

#include <stddef.h>
#include <stdint.h>

#include "blob.h"

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

/* The text of a UUID, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", no newline */
#define BOOT_ID_TEXT_LEN 36

/*
 * Parses the len bytes of text, a UUID optionally followed by a newline,
 * into its 16 bytes in the order written.  0, or EIO: the file did not
 * hold what the kernel writes there.
 */
int boot_id_parse(const char *text, size_t len, uint8_t id[BLOB_BOOT_ID_LEN]);

/* Reads and parses the file at path: 0, open()'s or read()'s errno, EIO. */
int boot_id_read(const char *path, uint8_t id[BLOB_BOOT_ID_LEN]);

/*
 * This boot's id, read from BOOT_ID_PATH until a read succeeds, then kept
 * for the life of the process (thread-safe; errno untouched): 0, or the
 * errno of this call's failed read (no procfs: ENOENT).
 */
int boot_id_get(uint8_t id[BLOB_BOOT_ID_LEN]);

/* Writes id as the kernel's text (BOOT_ID_TEXT_LEN characters and NUL). */
void boot_id_format(const uint8_t id[BLOB_BOOT_ID_LEN],
		    char text[BOOT_ID_TEXT_LEN + 1]);

#endif
