/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Which libmlx5 is loaded, and does it lay out its private objects the
 * way this build does?  The answer comes from the file the dynamic linker
 * actually mapped (found with dladdr() on one of its functions), not from
 * the build machine, because a library built on one release may be run
 * against another.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

#ifndef RDMA_CORE_VERSION
#error "RDMA_CORE_VERSION (the build's rdma-core release) must be defined"
#endif

/*
 * Releases that share one private layout.  Only one today; a release
 * that changes the layout gets a new row (and new mirrors in layout.h).
 */
static const struct {
	unsigned int first, last;
} layouts[] = {
	{ 39, 64 },
};

#define NO_LAYOUT (-1)

static int layout_of(unsigned int release)
{
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (release >= layouts[i].first && release <= layouts[i].last)
			return i;
	return NO_LAYOUT;
}

/* Reads one decimal component ending at '.' or '\0'; NULL if none. */
static const char *parse_uint(const char *s, unsigned int *v)
{
	unsigned long n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (*s++ - '0');
		if (n > 1000000)
			return NULL;
	}
	*v = n;
	return s;
}

int layout_parse_name(const char *name, unsigned int *release)
{
	static const char prefix[] = "libmlx5.so.1.";
	unsigned int abi, rel, minor;
	const char *s, *slash;

	if (!name || !release)
		return -1;
	slash = strrchr(name, '/');
	s = slash ? slash + 1 : name;
	if (strncmp(s, prefix, sizeof(prefix) - 1))
		return -1;
	s += sizeof(prefix) - 1;
	s = parse_uint(s, &abi);
	if (!s || *s++ != '.')
		return -1;
	s = parse_uint(s, &rel);
	if (!s || *s++ != '.')
		return -1;
	s = parse_uint(s, &minor);
	if (!s || *s)
		return -1;
	*release = rel;
	return 0;
}

int layout_check_name(const char *name)
{
	unsigned int release;
	int want = layout_of(RDMA_CORE_VERSION);

	if (want == NO_LAYOUT || layout_parse_name(name, &release))
		return EOPNOTSUPP;
	return layout_of(release) == want ? 0 : EOPNOTSUPP;
}

/*
 * The verdict, decided once: UNDECIDED until then.  Reading it is one
 * load on the export path; racing first callers decide the same.
 */
#define UNDECIDED (-1)
static _Atomic int verdict = UNDECIDED;

static int decide(void)
{
	char path[PATH_MAX];
	int saved = errno;	/* dladdr/realpath must not leak an errno */
	Dl_info info;
	int ret = EOPNOTSUPP;

	if (dladdr((void *)mlx5dv_devx_obj_create, &info) && info.dli_fname &&
	    realpath(info.dli_fname, path))
		ret = layout_check_name(path);
	errno = saved;
	return ret;
}

#ifdef MLX5_SHARE_TEST_HOOKS
static const char *test_name;

void layout_test_set_name(const char *name)
{
	test_name = name;
}
#endif

int layout_check(void)
{
	int v;

#ifdef MLX5_SHARE_TEST_HOOKS
	if (test_name)
		return layout_check_name(test_name);
#endif
	v = atomic_load_explicit(&verdict, memory_order_relaxed);
	if (v == UNDECIDED) {
		v = decide();
		atomic_store_explicit(&verdict, v, memory_order_relaxed);
	}
	return v;
}
