#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_series: what can be checked on the series' files alone, for
# each base (upstream/patches on master and on 64.0):
#  - after patch 1 (the kernel header update), the uapi ids in the tree's
#    headers are the ones kernel-headers/rdma_uapi_compat.h writes
#    (series_uapi.c, compiled against them);
#  - the lines the series adds, all files counted (code, man pages,
#    pyverbs, tests), are at most MAX_ADDED (200), listed per file; the
#    code's share (libibverbs and providers, not man pages) is printed;
#  - every patch but the cover letter has a Signed-off-by of its From:;
#  - no added line names this repository or its parts.
# usage: check_series.sh PROJECT_ROOT WORK SOURCE PATCH_DIR [SOURCE PATCH_DIR]
set -uo pipefail
name=upstream_series max_added=200
root=$1 work=$2
shift 2
command -v gcc >/dev/null || { echo "SKIPPED: $name: no gcc"; exit 77; }
failed=0 checked=0
rm -rf "$work"
while [[ $# -ge 2 ]]; do
	src=$1 series=$2
	shift 2
	[[ -n "$src" && -e "$src" ]] || continue
	label=$(basename "$src")
	label=${label%.tar.*}
	checked=$((checked + 1))
	dir=$work/$label
	mkdir -p "$dir"
	if [[ -f "$src" ]]; then
		tar -xf "$src" -C "$dir" --strip-components=1 --wildcards \
			'*/kernel-headers/rdma/*'
	else
		cp -a "$src/kernel-headers" "$dir/"
	fi
	# A repository of its own: else git apply works relative to the
	# enclosing one (a build directory inside a checkout) and skips.
	git init -q "$dir"
	if ! git -C "$dir" apply "$series"/0001-*.patch; then
		echo "FAIL: $label: patch 1 does not apply to $(basename "$src")"
		failed=$((failed + 1))
		continue
	fi
	if gcc -std=c11 -fsyntax-only -Werror -I "$dir/kernel-headers" \
		-I "$root/kernel-headers" "$root/tests/upstream/series_uapi.c"
	then
		echo "ok: $label: the header update's ids are rdma_uapi_compat.h's"
	else
		echo "FAIL: $label: the header update's ids differ from" \
		     "kernel-headers/rdma_uapi_compat.h"
		failed=$((failed + 1))
	fi
	# Added lines per file, every file of the series.
	counts=$(awk '
		/^\+\+\+ b\// { f = substr($2, 3); next }
		/^diff --git / { f = "" }
		/^\+/ && f != "" { n[f]++ }
		END { for (f in n) print n[f], f }' \
		"$series"/[0-9][0-9][0-9][0-9]-*.patch | sort -k2)
	total=$(awk '{ s += $1 } END { print s + 0 }' <<<"$counts")
	code=$(awk '$2 ~ /^(libibverbs|providers)\// && $2 !~ /\/man\// \
		{ s += $1 } END { print s + 0 }' <<<"$counts")
	printf '%s\n' "$counts" | sed "s/^/   $label: /"
	if [[ $total -gt $max_added ]]; then
		echo "FAIL: $label: $total added lines (at most $max_added)"
		failed=$((failed + 1))
	else
		echo "ok: $label: $total added lines (at most $max_added)," \
		     "$code of them libibverbs and providers code"
	fi
	for p in "$series"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ "$(basename "$p")" == 0000-* ]] && continue
		# The From: header may be folded onto a second line.
		from=$(awk '/^From: / { f = substr($0, 7); getline n;
			if (n ~ /^[ \t]/) { sub(/^[ \t]+/, " ", n); f = f n }
			print f; exit }' "$p")
		if ! grep -qxF "Signed-off-by: $from" "$p"; then
			echo "FAIL: $label: $(basename "$p") is not signed" \
			     "off by its author ($from)"
			failed=$((failed + 1))
		fi
	done
	foreign=$(grep -niE '^\+.*(mlx5.share|mlx5-emu|emulator)' \
		"$series"/*.patch || true)
	if [[ -n "$foreign" ]]; then
		printf '%s\n' "$foreign"
		echo "FAIL: $label: added lines name this repository"
		failed=$((failed + 1))
	fi
done
if [[ $checked -eq 0 ]]; then
	echo "SKIPPED: $name: no rdma-core source for any base"
	exit 77
fi
if [[ $failed -ne 0 ]]; then
	echo "FAIL: $name: $failed checks failed"
	exit 1
fi
echo "PASS: $name: $checked series checked"
