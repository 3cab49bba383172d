/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A malloc of this test program's own (it replaces malloc, calloc,
 * realloc and free for the whole process, libraries included) that can
 * fail the k-th allocation of a window with ENOMEM and tells which of the
 * window's allocations are still live at its end: enough to prove that a
 * failed call left nothing half-built behind.
 *
 * Not thread-safe: the tests that use it run one thread.  Sanitizer
 * builds own malloc themselves; there alloc_track_available() is false.
 */
#ifndef ALLOC_TRACK_H
#define ALLOC_TRACK_H

#include <stdbool.h>
#include <stddef.h>

bool alloc_track_available(void);

/*
 * Opens a window: from now on allocations are counted and remembered,
 * and the fail_at-th one (1-based; 0 for none) fails with ENOMEM.
 */
void alloc_track_start(unsigned long fail_at);

/*
 * Closes the window.  Returns how many allocations it saw; *live gets
 * how many of them were not freed, *failed whether one was failed.
 */
unsigned long alloc_track_stop(size_t *live, bool *failed);

#endif
