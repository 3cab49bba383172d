// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device mappings the kernel cleared VM_MAYWRITE for (the core clock
 * page): mprotect() must never make them writable.  The real mapping is
 * of a file the daemon passed, which does not know that, so the preload
 * remembers these ranges until they are unmapped or mapped over.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "preload.h"

struct range {
	uintptr_t start, end;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct range *ranges;
static size_t count, cap;

void emu_ro_map_add(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr;

	pthread_mutex_lock(&lock);
	if (count == cap) {
		size_t ncap = cap ? cap * 2 : 8;
		struct range *n = realloc(ranges, ncap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&lock);
			return;
		}
		ranges = n;
		cap = ncap;
	}
	ranges[count].start = start;
	ranges[count].end = start + len;
	__atomic_store_n(&count, count + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
}

/* [addr, addr + len) is unmapped or replaced: what is left stays. */
void emu_ro_map_forget(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	size_t i;

	if (!__atomic_load_n(&count, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < count;) {
		struct range *r = &ranges[i];

		if (r->end <= start || r->start >= end) {
			i++;
			continue;
		}
		if (r->start < start && r->end > end) {
			/* a hole in the middle: keep the head, add the tail */
			uintptr_t tail = r->end;

			r->end = start;
			pthread_mutex_unlock(&lock);
			emu_ro_map_add((void *)end, tail - end);
			return;
		}
		if (r->start < start) {
			r->end = start;
			i++;
		} else if (r->end > end) {
			r->start = end;
			i++;
		} else {
			*r = ranges[count - 1];
			__atomic_store_n(&count, count - 1, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&lock);
}

bool emu_ro_map_overlaps(const void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	bool hit = false;
	size_t i;

	if (!__atomic_load_n(&count, __ATOMIC_ACQUIRE))
		return false;
	pthread_mutex_lock(&lock);
	for (i = 0; i < count && !hit; i++)
		hit = ranges[i].start < end && ranges[i].end > start;
	pthread_mutex_unlock(&lock);
	return hit;
}
