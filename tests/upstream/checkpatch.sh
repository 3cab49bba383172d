#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# upstream_checkpatch: every patch of SERIES_DIR through the kernel's
# scripts/checkpatch.pl as rdma-core's CI runs it (buildlib/azp-checkpatch:
# its options, its --ignore list, rdma-core's const_structs.checkpatch,
# UNKNOWN_COMMIT_ID counted as an error), each patch as stored: its
# Signed-off-by is its author's, checked by checkpatch.  checkpatch.pl and
# spelling.txt come from Debian's linux-source-6.12.  A second check of
# our own: lines a patch adds to a man page (*.md under man/) fit in 80
# columns.  Reports per patch; fails on any error or warning.
#
# Commit ids (Fixes:) are looked up only when RDMA_CORE_GIT names an
# rdma-core git directory with history; else checkpatch skips them.
#
# usage: checkpatch.sh SERIES_DIR RDMA_CORE_SOURCE WORK
set -euo pipefail

name=upstream_checkpatch
series=$1 src=${2:-} work=$3
linux=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

skip() {
	echo "SKIPPED: $name: $*"
	exit 77
}
[[ -n "$src" && -e "$src" ]] ||
	skip "no rdma-core source (configure with -DRDMA_CORE_SOURCE=...)"
[[ -f "$linux" ]] ||
	skip "$linux is missing (Debian package linux-source-6.12)"
command -v perl >/dev/null || skip "perl is not installed"

# checkpatch.pl and its word list, unpacked once per kernel tarball.
kdir=$work/kernel
stamp="$(realpath "$linux") $(stat -c '%s %Y' "$linux")"
if [[ "$(cat "$kdir/.from" 2>/dev/null)" != "$stamp" ]]; then
	rm -rf "$kdir"
	mkdir -p "$kdir"
	tar -xf "$linux" -C "$kdir" --strip-components=2 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt'
	echo "$stamp" >"$kdir/.from"
fi

run=$work/run
rm -rf "$run"
mkdir -p "$run"
cp "$kdir/checkpatch.pl" "$kdir/spelling.txt" "$run/"
if [[ -f "$src" ]]; then
	tar -xf "$src" -C "$run" --strip-components=2 --wildcards \
		'*/buildlib/const_structs.checkpatch'
else
	cp "$src/buildlib/const_structs.checkpatch" "$run/"
fi

# buildlib/azp-checkpatch's invocation.
ignore=PREFER_KERNEL_TYPES,FILE_PATH_CHANGES,EXECUTE_PERMISSIONS,USE_NEGATIVE_ERRNO,CONST_STRUCT
git_dir=${RDMA_CORE_GIT:-$run/no-git}
if [[ -z "${RDMA_CORE_GIT:-}" ]]; then
	# Without rdma-core's history every commit id reads as unknown.
	echo "note: RDMA_CORE_GIT unset: commit ids (Fixes:) not looked up"
	ignore+=,UNKNOWN_COMMIT_ID
fi
opts=(--no-tree --show-types --ignore "$ignore"
	--emacs --mailback --quiet --no-summary)

total=0 failed=0
for patch in "$series"/[0-9][0-9][0-9][0-9]-*.patch; do
	base=$(basename "$patch")
	[[ "$base" == 0000-* ]] && continue
	total=$((total + 1))
	cp "$patch" "$run/$base"
	out=$(cd "$run" && GIT_DIR=$git_dir perl checkpatch.pl "${opts[@]}" \
		"$base" 2>&1) || true
	# Added man page lines wider than 80 columns (tabs to 8).
	long=$(awk -v f="$base" '
		/^\+\+\+ / { man = ($2 ~ /\/man\/.*\.md$/); file = $2; next }
		/^@@ / { split($3, a, /[,+]/); n = a[2] - 1; next }
		/^ / { n++; next }
		/^\+/ && man {
			n++; w = 0
			for (i = 2; i <= length($0); i++) {
				if (substr($0, i, 1) == "\t")
					w = int(w / 8) * 8 + 8
				else
					w++
			}
			if (w > 80)
				printf "%s:%s:%d: ERROR:MAN_LONG_LINE: %d columns\n",
					f, file, n, w
		}
		' "$run/$base")
	[[ -n "$long" ]] && out+=${out:+$'\n'}$long
	errors=$(grep -cE '^[^ ]+:[0-9]+: ERROR:|: ERROR:MAN_LONG_LINE|: WARNING:UNKNOWN_COMMIT_ID:' <<<"$out" || true)
	warnings=$(grep -cE ': WARNING:' <<<"$out" || true)
	warnings=$((warnings - $(grep -c ': WARNING:UNKNOWN_COMMIT_ID:' \
		<<<"$out" || true)))
	echo "== $base: $errors errors, $warnings warnings"
	if [[ -n "$out" ]]; then
		printf '%s\n' "$out"
		failed=$((failed + 1))
	fi
done

if [[ $total -eq 0 ]]; then
	echo "FAIL: $name: no patches in $series"
	exit 1
fi
if [[ $failed -ne 0 ]]; then
	echo "FAIL: $name: $failed of $total patches have checkpatch findings"
	exit 1
fi
echo "PASS: $name: $total patches, 0 errors, 0 warnings"
