// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The allocator of alloc_track.h: glibc's own (__libc_malloc and
 * friends) underneath, these definitions in the executable in front, so
 * that every library of the process calls them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_track.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)

bool alloc_track_available(void)
{
	return false;
}

void alloc_track_start(unsigned long fail_at)
{
}

unsigned long alloc_track_stop(size_t *live, bool *failed)
{
	*live = 0;
	*failed = false;
	return 0;
}

#else

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t size);

enum { TRACK_MAX = 8192 };

static bool tracking;
static unsigned long seen, fail_at;
static bool failed_one;
static void *live_set[TRACK_MAX];
static size_t n_live;

bool alloc_track_available(void)
{
	return true;
}

void alloc_track_start(unsigned long k)
{
	seen = 0;
	fail_at = k;
	failed_one = false;
	n_live = 0;
	tracking = true;
}

unsigned long alloc_track_stop(size_t *live, bool *failed)
{
	tracking = false;
	*live = n_live;
	*failed = failed_one;
	return seen;
}

/* true: this allocation must fail. */
static bool next_fails(void)
{
	if (!tracking)
		return false;
	if (++seen == fail_at) {
		failed_one = true;
		errno = ENOMEM;
		return true;
	}
	return false;
}

/* Returns p, counted live when tracking. */
static void *remember(void *p)
{
	if (tracking && p && n_live < TRACK_MAX)
		live_set[n_live++] = p;
	return p;
}

static void forget(void *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n_live; i++) {
		if (live_set[i] == p) {
			live_set[i] = live_set[--n_live];
			return;
		}
	}
}

__attribute__((visibility("default")))
void *malloc(size_t size)
{
	if (next_fails())
		return NULL;
	return remember(__libc_malloc(size));
}

__attribute__((visibility("default")))
void *calloc(size_t n, size_t size)
{
	if (next_fails())
		return NULL;
	return remember(__libc_calloc(n, size));
}

__attribute__((visibility("default")))
void *realloc(void *old, size_t size)
{
	void *p;

	if (next_fails())
		return NULL;
	p = __libc_realloc(old, size);
	if (p || !size)
		forget(old);
	return remember(p);
}

__attribute__((visibility("default")))
void free(void *p)
{
	forget(p);
	__libc_free(p);
}

__attribute__((visibility("default")))
int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (next_fails())
		return ENOMEM;
	p = __libc_memalign(align, size);
	if (!p)
		return ENOMEM;
	*out = remember(p);
	return 0;
}

__attribute__((visibility("default")))
void *aligned_alloc(size_t align, size_t size)
{
	if (next_fails())
		return NULL;
	return remember(__libc_memalign(align, size));
}

#endif
