/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The smallest test harness that says what failed and where: each CHECK
 * counts, a failed one prints its expression and location, and
 * check_done() prints "N passed, N failed" and gives the exit status.
 */
#ifndef MLX5_SHARE_TEST_CHECK_H
#define MLX5_SHARE_TEST_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIP_EXIT_CODE 77

static unsigned int check_passed, check_failed;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (cond) {                                                \
			check_passed++;                                    \
		} else {                                                   \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
		}                                                          \
	} while (0)

/* Checks a value with its expected value printed on failure. */
#define CHECK_EQ(got, want)                                                \
	do {                                                               \
		long long _g = (long long)(got), _w = (long long)(want);   \
		if (_g == _w) {                                            \
			check_passed++;                                    \
		} else {                                                   \
			check_failed++;                                    \
			fprintf(stderr,                                    \
				"%s:%d: CHECK failed: %s == %s "           \
				"(got %lld, want %lld)\n",                 \
				__FILE__, __LINE__, #got, #want, _g, _w);  \
		}                                                          \
	} while (0)

/* A call that must fail with NULL (or -1) and the given errno. */
#define CHECK_ERRNO(expr_is_failure, want_errno)                           \
	do {                                                               \
		errno = 0;                                                 \
		int _f = !!(expr_is_failure);                              \
		int _e = errno;                                            \
		if (_f && _e == (want_errno)) {                            \
			check_passed++;                                    \
		} else {                                                   \
			check_failed++;                                    \
			fprintf(stderr,                                    \
				"%s:%d: CHECK failed: %s with errno %s "   \
				"(failed=%d, errno %d %s)\n",              \
				__FILE__, __LINE__, #expr_is_failure,      \
				#want_errno, _f, _e, strerror(_e));        \
		}                                                          \
	} while (0)

/* Stops the test at once: the rest would only repeat the failure. */
#define REQUIRE(cond)                                                      \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s (%s)\n",\
				__FILE__, __LINE__, #cond,                 \
				strerror(errno));                          \
			exit(1);                                           \
		}                                                          \
		check_passed++;                                            \
	} while (0)

static inline void check_skip(const char *name, const char *why)
{
	printf("SKIPPED: %s: %s\n", name, why);
	fflush(stdout);
	exit(SKIP_EXIT_CODE);
}

static inline int check_done(const char *name)
{
	printf("%s: %u passed, %u failed\n", name, check_passed, check_failed);
	fflush(stdout);
	return check_failed ? 1 : 0;
}

#endif
