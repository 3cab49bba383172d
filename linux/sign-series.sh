#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Makes a series (linux/patches, or the --series directory, e.g.
# linux/patches-6.12) ready to send: each file's From: names
# AUTHOR and, with --signoff, each patch (not the cover letter) ends its
# message with "Signed-off-by: AUTHOR".  The committed patches are the
# project maintainers' (the repository's identity), signed off by them;
# someone else who sends them certifies the Developer's Certificate of
# Origin with their own sign-off, added after the maintainers'.  The
# kernel label's test adds a test identity this way, so that the applied
# commits carry a known author whatever the committed one.
#
# Usage: sign-series.sh [--series DIR] --author "Name <mail>" [--signoff]
#                       OUTDIR
# Writes OUTDIR/0000-cover-letter.patch, OUTDIR/0001-...patch, ...
set -eu
here=$(dirname "$0")
series=$here/patches author= signoff=
while [ $# -gt 1 ]; do
	case $1 in
	--author) author=$2; shift 2 ;;
	--signoff) signoff=1; shift ;;
	--series) series=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -n "$author" ] || {
	echo "usage: $0 [--series DIR] --author \"Name <mail>\" [--signoff]" \
		"OUTDIR" >&2
	exit 2
}
case $author in
*'<'*@*'>') ;;
*) echo "$0: --author must read \"Name <mail>\"" >&2; exit 2 ;;
esac
out=$1
mkdir -p "$out"
for p in "$series"/*.patch; do
	name=$(basename "$p")
	sob=
	[ -n "$signoff" ] && [ "$name" != 0000-cover-letter.patch ] &&
		sob="Signed-off-by: $author"
	# The header ends at its first empty line; the message at the
	# first "---" line.  A trailer joins the message's last paragraph
	# when that already holds trailers, else starts a new one.
	awk -v author="$author" -v sob="$sob" '
	# a long From: is folded onto indented lines: drop them with it
	!body && /^From: / { print "From: " author; from = 1; next }
	!body && from && /^[ \t]/ { next }
	!body { from = 0 }
	!body && /^$/ { body = 1 }
	body && !done && /^---$/ {
		if (sob != "") {
			if (prev !~ /^[A-Za-z-]+: /)
				print ""
			print sob
		}
		done = 1
	}
	{ print; prev = $0 }
	' "$p" >"$out/$name"
done
