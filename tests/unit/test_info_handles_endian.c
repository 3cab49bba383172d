// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * INFO_HANDLES read right on either byte order (libibverbs/info_handles.c).
 *
 * The kernel keeps the answer's count in a u64 and copies only its first
 * four bytes into the u32 TOTAL attribute
 * (uverbs_std_types_device.c: uverbs_copy_to() of sizeof(u64) into an
 * attribute declared UVERBS_ATTR_TYPE(u32)): the count on a little-endian
 * host, its high half (0) on a big-endian one, after writing exactly
 * count handles at the start of the list.  ioctl() is replaced here by
 * that kernel, which answers in the byte order the test picks; the
 * library is told to read as a host of that order would
 * (info_handles_test_set_big_endian()).  Both orders must give the same
 * answers: the live handles, present or not, complete or not (16,383, a
 * full answer of the largest size, is ERANGE/E2BIG), at every size the
 * library's buffer takes (256 doubling to 16,383).
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "check.h"
#include "info_handles.h"

#define NAME "unit_info_handles_endian"

enum { LIST_MAX = UINT16_MAX / sizeof(uint32_t), OBJ = 3 };

/* The emulated kernel: the file's live handles, its byte order. */
static uint32_t live[LIST_MAX + 16];
static uint32_t nlive;
static int kernel_big_endian;
static unsigned int calls;

static struct ib_uverbs_attr *find_attr(struct ib_uverbs_ioctl_hdr *hdr,
					uint16_t id)
{
	for (unsigned int i = 0; i < hdr->num_attrs; i++)
		if (hdr->attrs[i].attr_id == id)
			return &hdr->attrs[i];
	return NULL;
}

/* INFO_HANDLES as the kernel runs it: the list, then the u64 count. */
int ioctl(int fd, unsigned long req, ...)
{
	struct ib_uverbs_attr *list, *total;
	struct ib_uverbs_ioctl_hdr *hdr;
	uint64_t count, wire;
	va_list ap;

	va_start(ap, req);
	hdr = va_arg(ap, struct ib_uverbs_ioctl_hdr *);
	va_end(ap);
	calls++;
	if (fd != 1000 || req != RDMA_VERBS_IOCTL ||
	    hdr->object_id != UVERBS_OBJECT_DEVICE ||
	    hdr->method_id != UVERBS_METHOD_INFO_HANDLES) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	list = find_attr(hdr, UVERBS_ATTR_INFO_HANDLES_LIST);
	total = find_attr(hdr, UVERBS_ATTR_INFO_TOTAL_HANDLES);
	if (!list || !total || !list->len || list->len % 4 ||
	    total->len != sizeof(uint32_t)) {
		errno = EINVAL;
		return -1;
	}
	count = nlive < list->len / 4 ? nlive : list->len / 4;
	memcpy((void *)(uintptr_t)list->data, live, count * 4);
	list->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	wire = kernel_big_endian ? htobe64(count) : htole64(count);
	memcpy((void *)(uintptr_t)total->data, &wire, total->len);
	total->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return 0;
}

/*
 * n distinct live handles, even, from 100, out of order (7919 is a prime
 * no size below shares a factor with).
 */
static void make_live(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		live[i] = 100 + (uint32_t)((i * 7919ull) % n) * 2;
	nlive = n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Every answer of the library for n live handles, on one fd. */
static void answers(uint32_t n, int fd)
{
	uint32_t *got = NULL, sorted[LIST_MAX + 16];
	bool present = false;
	size_t count = 0;
	int ret;

	make_live(n);
	/* A live handle: the last one the kernel lists. */
	if (n) {
		ret = info_handles_contains(fd, 0, OBJ, live[n - 1],
					    &present);
		CHECK_EQ(ret, 0);
		CHECK(present);
	}
	/* A handle no object has. */
	present = true;
	ret = info_handles_contains(fd, 0, OBJ, 50, &present);
	if (n < LIST_MAX) {
		CHECK_EQ(ret, 0);
		CHECK(!present);
	} else {
		CHECK_EQ(ret, ERANGE);
	}

	ret = info_handles_list(fd, 0, OBJ, &got, &count);
	if (n >= LIST_MAX) {
		CHECK_EQ(ret, E2BIG);
		return;
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(count, n);
	if (ret || count != n) {
		fprintf(stderr, "%s: %u live: list of %zu, ret %d\n", NAME,
			n, count, ret);
		free(got);
		return;
	}
	memcpy(sorted, live, n * 4);
	qsort(sorted, n, 4, cmp_u32);
	CHECK(n == 0 || memcmp(got, sorted, n * 4) == 0);
	free(got);
}

static const uint32_t sizes[] = {
	0, 1, 5, 255, 256, 257, 1000, 8191, 8192, 8193, 16382, LIST_MAX,
};

static void run(int big)
{
	int fd = 1000;

	kernel_big_endian = big;
	info_handles_test_set_big_endian(big);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned int before = check_failed;

		answers(sizes[i], fd);
		if (check_failed != before)
			fprintf(stderr, "%s: %s answer, %u live: failed\n",
				NAME, big ? "big-endian" : "little-endian",
				sizes[i]);
	}
}

int main(void)
{
	bool present;

	run(0);
	run(1);

	/* A big-endian count whose high half is not 0 is no real answer. */
	kernel_big_endian = 0;
	info_handles_test_set_big_endian(1);
	make_live(3);
	CHECK_EQ(info_handles_contains(1000, 0, OBJ, live[0], &present),
		 EPROTO);

	info_handles_test_set_big_endian(-1);
	return check_done(NAME);
}
