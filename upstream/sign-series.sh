#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Makes a series of this directory (patches/ or patches-v64/) ready to
# send: every file's From: becomes AUTHOR and, with --signoff, every patch
# (not the cover letter) gets "Signed-off-by: AUTHOR" as its last trailer.
# The committed patches carry a placeholder author and no sign-off: only
# the person sending them can certify the Developer's Certificate of
# Origin.  upstream_checkpatch signs each patch the same way before
# checkpatch reads it.
#
# usage: sign-series.sh --author "Name <mail>" [--signoff] SERIES_DIR OUTDIR
set -eu
author= signoff=
while [ $# -gt 2 ]; do
	case $1 in
	--author) author=$2; shift 2 ;;
	--signoff) signoff=1; shift ;;
	*) break ;;
	esac
done
case $author in
*' <'*@*'>') ;;
*) echo "usage: $0 --author \"Name <mail>\" [--signoff] SERIES_DIR OUTDIR" >&2
   exit 2 ;;
esac
[ $# -eq 2 ] || { echo "$0: SERIES_DIR OUTDIR expected" >&2; exit 2; }
series=$1 out=$2
mkdir -p "$out"
for p in "$series"/[0-9][0-9][0-9][0-9]-*.patch; do
	name=$(basename "$p")
	# Only the first From: line, the mail header's, is the author.
	awk -v a="$author" '!done && /^From: / { print "From: " a; done = 1;
		next } { print }' "$p" >"$out/$name"
	if [ -n "$signoff" ] && [ "$name" != 0000-cover-letter.patch ]; then
		git interpret-trailers --in-place \
			--trailer "Signed-off-by: $author" "$out/$name"
	fi
done
echo "signed series in $out"
