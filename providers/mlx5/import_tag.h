/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an imported struct keeps of what it was imported as: the kernel's
 * cookie of the object (handle_query.h), so that exporting the struct
 * again can tell the object it was imported as from another object that
 * took its handle since.
 *
 * The struct is the library's own allocation but has libmlx5's private
 * layout (layout.h), which has no field for it; the tag goes into bytes
 * of that layout no field covers (alignment padding), which libmlx5
 * never writes and leaves zero: it calloc()s every DEVX object, UMEM and
 * VAR it creates and never copies them whole.  A tag of 0 is "not
 * imported" (or imported without the method: nothing to keep).
 *
 *   kind         padding bytes used        what is kept
 *   DEVX object  20..23 and 36..39         the cookie (64 bits)
 *   DEVX UMEM    4..7 and 20..23           the cookie (64 bits)
 *   VAR          36..39                    the cookie folded to 32 bits
 *
 * A VAR has four padding bytes only: its tag is the XOR of the cookie's
 * halves (1 when that is 0), so another object's cookie passes for the
 * kept one with probability about 2^-32.  The offsets are LP64's
 * (layout.h asserts them); on other ABIs nothing is kept and
 * import_tag_get() returns 0.
 */
#ifndef MLX5_SHARE_IMPORT_TAG_H
#define MLX5_SHARE_IMPORT_TAG_H

#include <stdbool.h>
#include <stdint.h>

#include "blob.h"

/* Keeps cookie in obj, a struct of kind this library allocated. */
void import_tag_set(enum blob_kind kind, void *obj, uint64_t cookie);

/* The tag obj keeps (0: none). */
uint64_t import_tag_get(enum blob_kind kind, const void *obj);

/* Does the kernel's cookie match tag (tag != 0), as kind keeps it? */
bool import_tag_matches(enum blob_kind kind, uint64_t tag, uint64_t cookie);

#endif
