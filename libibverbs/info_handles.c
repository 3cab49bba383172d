// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "info_handles.h"
#include "uverbs_ioctl.h"

/* Answers of up to this many handles need no heap. */
#define STACK_HANDLES 256U

/*
 * Last total seen per (fd, type).  Only a size hint: a stale or colliding
 * entry costs at most one more ioctl, never a wrong answer, so slots are
 * plain relaxed atomics holding tag << 32 | total.
 */
#define HINT_SLOTS 64U
static _Atomic uint64_t hint_slot[HINT_SLOTS];

static uint32_t hint_tag(int fd, uint16_t object_id)
{
	return (uint32_t)fd << 16 ^ object_id;
}

static _Atomic uint64_t *hint_of(int fd, uint16_t object_id)
{
	return &hint_slot[((uint32_t)fd * 31U + object_id) % HINT_SLOTS];
}

static uint32_t hint_get(int fd, uint16_t object_id)
{
	uint64_t v = atomic_load_explicit(hint_of(fd, object_id),
					  memory_order_relaxed);

	return (v >> 32) == hint_tag(fd, object_id) ? (uint32_t)v : 0;
}

static void hint_set(int fd, uint16_t object_id, uint32_t total)
{
	uint64_t v = (uint64_t)hint_tag(fd, object_id) << 32 | total;

	atomic_store_explicit(hint_of(fd, object_id), v, memory_order_relaxed);
}

static uint32_t first_capacity(int fd, uint16_t object_id)
{
	uint32_t hint = hint_get(fd, object_id);
	uint64_t cap;

	/* Room for the objects created since the last answer. */
	cap = (uint64_t)hint + hint / 4 + 16;
	if (cap <= STACK_HANDLES)
		return STACK_HANDLES;
	return cap > INFO_HANDLES_MAX ? INFO_HANDLES_MAX : (uint32_t)cap;
}

#ifdef MLX5_SHARE_TEST_HOOKS
static int test_big_endian = -1;

void info_handles_test_set_big_endian(int big)
{
	test_big_endian = big;
}
#endif

static bool host_big_endian(void)
{
#ifdef MLX5_SHARE_TEST_HOOKS
	if (test_big_endian >= 0)
		return test_big_endian;
#endif
	return __BYTE_ORDER == __BIG_ENDIAN;
}

/*
 * What a big-endian host fills the list with before asking: no handle has
 * it (the kernel gives handles lowest-free from 0 in a 32-bit space, so
 * this one would need 2^32 live objects in one file).
 */
#define LIST_FILL UINT32_MAX

/* How many handles the kernel wrote over a list filled with LIST_FILL. */
static uint32_t filled_count(const uint32_t *buf, uint32_t cap)
{
	while (cap && buf[cap - 1] == LIST_FILL)
		cap--;
	return cap;
}

/* One INFO_HANDLES ioctl into buf[cap]; *n is how many it wrote. */
static int query_once(int fd, uint32_t driver_id, uint16_t object_id,
		      uint32_t *buf, uint32_t cap, uint32_t *n)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_INFO_HANDLES, 3);
	struct ib_uverbs_attr *total_attr;
	uint32_t total = 0;
	int ret;

	fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID, object_id);
	total_attr = fill_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES,
				  &total, sizeof(total));
	fill_out_ptr(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, buf,
		     cap * sizeof(*buf));
	if (host_big_endian())
		for (uint32_t i = 0; i < cap; i++)
			buf[i] = LIST_FILL;

	ret = uverbs_cmd_execute(fd, driver_id, cmd);
	switch (ret) {
	case 0:
		break;
	case EPROTONOSUPPORT:	/* no such method in this kernel */
	case EOPNOTSUPP:
	case ENOTTY:		/* no uverbs ioctl interface at all */
		return EOPNOTSUPP;
	case ENOENT:		/* the device has no objects of this type */
		*n = 0;
		return 0;
	default:
		return ret;
	}

	if (!uverbs_attr_written(total_attr))
		return EPROTO;
	/*
	 * The kernel copies the first 4 bytes of its u64 count into this
	 * u32 attribute (uverbs_copy_to() of sizeof(u64)), which on a
	 * big-endian host is the high half: 0 for any answer it can give.
	 * The count is then the list's, which the kernel wrote first and
	 * exactly: the handles up to the first unwritten fill.
	 */
	if (host_big_endian()) {
		if (total)
			return EPROTO;
		total = filled_count(buf, cap);
	}
	if (total > cap)
		return EPROTO;
	*n = total;
	return 0;
}

/*
 * Runs INFO_HANDLES until the answer is complete or, when stop_at is
 * given, contains *stop_at.  On success *out is buf or a heap block (the
 * caller frees it when it is not buf) holding *n handles and *complete
 * says whether that is every live handle.
 */
static int gather(int fd, uint32_t driver_id, uint16_t object_id,
		  const uint32_t *stop_at, uint32_t *buf, uint32_t **out,
		  uint32_t *n, bool *complete)
{
	uint32_t cap = first_capacity(fd, object_id);
	uint32_t *cur = buf, *heap = NULL;
	int ret;

	for (;;) {
		if (cap > STACK_HANDLES) {
			uint32_t *p = realloc(heap, cap * sizeof(*p));

			if (!p) {
				free(heap);
				return ENOMEM;
			}
			heap = cur = p;
		}

		ret = query_once(fd, driver_id, object_id, cur, cap, n);
		if (ret) {
			free(heap);
			return ret;
		}
		hint_set(fd, object_id, *n);

		*out = cur;
		*complete = *n < cap;
		if (*complete || cap == INFO_HANDLES_MAX)
			return 0;
		if (stop_at) {
			for (uint32_t i = 0; i < *n; i++)
				if (cur[i] == *stop_at)
					return 0;
		}
		/* Full: there may be more than we could see. */
		cap = cap > INFO_HANDLES_MAX / 2 ? INFO_HANDLES_MAX : cap * 2;
	}
}

int info_handles_contains(int cmd_fd, uint32_t driver_id, uint16_t object_id,
			  uint32_t handle, bool *present)
{
	uint32_t buf[STACK_HANDLES];
	uint32_t *list, n;
	bool complete;
	int ret;

	if (cmd_fd < 0 || !present)
		return EINVAL;

	ret = gather(cmd_fd, driver_id, object_id, &handle, buf, &list, &n,
		     &complete);
	if (ret)
		return ret;

	*present = false;
	for (uint32_t i = 0; i < n; i++) {
		if (list[i] == handle) {
			*present = true;
			break;
		}
	}
	if (list != buf)
		free(list);

	if (!*present && !complete)
		return ERANGE;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int info_handles_list(int cmd_fd, uint32_t driver_id, uint16_t object_id,
		      uint32_t **handles, size_t *count)
{
	uint32_t buf[STACK_HANDLES];
	uint32_t *list, n;
	bool complete;
	int ret;

	if (cmd_fd < 0 || !handles || !count)
		return EINVAL;

	ret = gather(cmd_fd, driver_id, object_id, NULL, buf, &list, &n,
		     &complete);
	if (ret)
		return ret;
	if (!complete) {
		if (list != buf)
			free(list);
		return E2BIG;
	}

	if (list == buf && n) {
		list = malloc(n * sizeof(*list));
		if (!list)
			return ENOMEM;
		memcpy(list, buf, n * sizeof(*list));
	}
	if (!n) {
		if (list != buf)
			free(list);
		list = NULL;
	}
	if (n)
		qsort(list, n, sizeof(*list), cmp_u32);
	*handles = list;
	*count = n;
	return 0;
}
