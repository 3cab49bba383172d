// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the user reads.  Both processes write to the same stdout, one whole
 * line at a time and flushed at once, so that their lines interleave in
 * the order the steps happened (the socket protocol serialises them).
 */
#include <stdarg.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "mlx5-share-demo.h"

/* Up to this many objects, every object gets a line of its own. */
#define VERBOSE_MAX 16
/* From this many objects on, long phases show their progress. */
#define PROGRESS_MIN 1000
/* Failures shown in a run too large for a line per object. */
#define QUIET_FAILURES_SHOWN 20

/* Off a terminal, at most one progress line this often. */
#define PROGRESS_LINE_MS 2000.0

static unsigned int quiet_failures;
static double last_line_ms;

double demo_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void format_guid(uint64_t guid, char *out, size_t outlen)
{
	snprintf(out, outlen, "%04x:%04x:%04x:%04x",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

static void line(const char *role, const char *mark, double ms,
		 const char *text)
{
	if (ms >= 0)
		printf("%-8s  %-68s %-4s %8.3f ms\n", role, text, mark, ms);
	else if (*mark)
		printf("%-8s  %-68s %s\n", role, text, mark);
	else
		printf("%-8s  %s\n", role, text);
	fflush(stdout);
}

/* line() of a printf-style text. */
static void vline(const char *role, const char *mark, double ms,
		  const char *fmt, va_list ap)
{
	char text[256];

	vsnprintf(text, sizeof(text), fmt, ap);
	line(role, mark, ms, text);
}

void report_step(const char *role, double ms, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(role, "", ms, fmt, ap);
	va_end(ap);
}

bool report_check(struct demo_tally *t, bool ok, const char *role, double ms,
		  const char *fmt, ...)
{
	va_list ap;

	if (ok)
		t->passed++;
	else
		t->failed++;
	va_start(ap, fmt);
	vline(role, ok ? "ok" : "FAIL", ms, fmt, ap);
	va_end(ap);
	return ok;
}

bool report_quiet_check(struct demo_tally *t, bool ok, const char *role,
			const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		t->passed++;
		return true;
	}
	t->failed++;
	if (quiet_failures++ >= QUIET_FAILURES_SHOWN) {
		if (quiet_failures == QUIET_FAILURES_SHOWN + 1)
			line(role, "", -1, "(further failures not shown)");
		return false;
	}
	va_start(ap, fmt);
	vline(role, "FAIL", -1, fmt, ap);
	va_end(ap);
	return false;
}

bool report_quiet_obj(struct demo_tally *t, bool ok, const char *role,
		      const char *verb, const struct demo_obj *o,
		      const char *what)
{
	return report_quiet_check(t, ok, role, "%s %s #%u (handle %u): %s",
				  verb, demo_kind_name(o->kind), o->index,
				  o->handle, what);
}

bool report_obj(struct demo_tally *t, bool verbose, bool ok,
		const char *role, double t1, const char *verb,
		const struct demo_obj *o, const char *what, const char *fmt,
		...)
{
	double ms = demo_now_ms() - t1;
	char tail[256];
	va_list ap;

	if (!verbose)
		return report_quiet_obj(t, ok, role, verb, o, what);
	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	return report_check(t, ok, role, ms, "%s %s #%u%s", verb,
			    demo_kind_name(o->kind), o->index, tail);
}

bool report_verbose(unsigned long n)
{
	return n <= VERBOSE_MAX;
}

void report_progress(const char *role, const char *phase, unsigned long done,
		     unsigned long total)
{
	static int tty = -1;
	enum { WIDTH = 40 };

	if (total < PROGRESS_MIN)
		return;
	if (tty < 0)
		tty = isatty(STDOUT_FILENO);
	if (tty) {
		unsigned long step = total / 200 ? total / 200 : 1;
		char bar[WIDTH + 1];
		unsigned int fill = done * WIDTH / total;

		if (done % step && done != total)
			return;
		for (unsigned int i = 0; i < WIDTH; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[WIDTH] = 0;
		/* The bar is redrawn in place and erased when the phase ends,
		 * where its summary line takes its place. */
		if (done == total)
			printf("\r\033[K");
		else
			printf("\r%-8s  %-10s [%s] %3lu%% %lu/%lu", role,
			       phase, bar, done * 100 / total, done, total);
		fflush(stdout);
		return;
	}
	/* Elsewhere (a log, a pipe) a line now and then tells that the
	 * phase is alive without drowning the steps. */
	if (done == 1)
		last_line_ms = demo_now_ms();
	else if (done < total &&
		 demo_now_ms() - last_line_ms >= PROGRESS_LINE_MS) {
		last_line_ms = demo_now_ms();
		printf("%-8s  %s: %lu of %lu done\n", role, phase, done, total);
		fflush(stdout);
	}
}

void report_note(const char *fmt, ...)
{
	va_list ap;

	printf("mlx5-share-demo: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void report_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mlx5-share-demo: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}
