#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Makes a series (linux/patches, or the --series directory, e.g.
# linux/patches-6.12) ready to send: each file's From: names
# AUTHOR and, with --signoff, each patch (not the cover letter) ends its
# message with "Signed-off-by: AUTHOR".  The committed patches carry a
# placeholder author and no sign-off, because only a person can certify
# the Developer's Certificate of Origin; checkpatch refuses them as they
# are.  The kernel label's test signs them with a test identity this way.
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
	!body && /^From: / { print "From: " author; next }
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
