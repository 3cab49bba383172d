#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The inspector on good blobs and on damaged copies of them.
#
#   inspect-blobs.sh INSPECT BLOB_TOOL DIR [make|named]
#
# DIR holds good *.blob files (with "make", they are made first, one of
# each kind).  For each good blob: the inspector exits 0 and calls it good;
# every kind of damage exits 1 with the verdict import would give; a DEVX
# object's fields out of import's bounds exit 1 with EINVAL; a boot id
# not this boot's exits 1 with ESTALE; no verbs file id (file id 0) exits
# 3, as import refuses it with EPROTO on a kernel that reports file ids
# only; every truncation and every single flipped byte exits 1 (not with
# "named", which keeps to the named damages); nothing ever crashes.  Then
# blobs of formats 2 to 5 as labelled here (EPROTO), and inputs that are
# no blob at all.  Prints "inspect-blobs: N passed,
# N failed" and exits 1 on any failure.

set -u
inspect=$1 tool=$2 dir=$3
passed=0 failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect STATUS TEXT ARGS...: the inspector exits STATUS and prints TEXT
# (a grep -E pattern; empty: no text wanted).
expect() {
	local want=$1 text=$2 out st
	shift 2
	out=$("$inspect" "$@" 2>&1)
	st=$?
	if [ "$st" -ne "$want" ]; then
		fail "inspect $* exited $st, want $want"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		return
	fi
	if [ -n "$text" ] && ! printf '%s\n' "$out" | grep -Eq -- "$text"; then
		fail "inspect $*: no line matching '$text'"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		return
	fi
	pass
}

# Never a crash: any exit status but 0 or a signal's.
no_crash() {
	local st
	"$inspect" "$@" >/dev/null 2>&1
	st=$?
	if [ "$st" -eq 1 ] || [ "$st" -eq 2 ]; then
		pass
	else
		fail "inspect $* exited $st (want 1 or 2)"
	fi
}

if [ "${4:-}" = make ]; then
	for k in devx_obj devx_umem var; do
		"$tool" make "$k" "$dir/$k-0.blob" || exit 2
	done
fi

shopt -s nullglob
blobs=("$dir"/*.blob)
if [ ${#blobs[@]} -eq 0 ]; then
	echo "inspect-blobs: no blob in $dir" >&2
	exit 1
fi

for b in "${blobs[@]}"; do
	n=$(stat -c %s "$b")
	c="$work/copy"

	expect 0 'verdict: good blob' "$b"
	expect 0 'checksum +ok' "$b"
	expect 0 'node_guid +[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}' "$b"
	expect 0 'file id +ok \(import wants the importing context.s verbs file to be this one, else EXDEV\)' "$b"
	expect 0 'liveness +not asked by import' "$b"
	expect 0 'vhca_id +[0-9]+' "$b"
	expect 0 'flags +ok' "$b"
	expect 0 'boot_id +[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' "$b"
	expect 0 'boot +ok \(made in this boot\)' "$b"
	expect 0 'verdict: good blob' - <"$b"

	"$tool" flip 0 "$b" "$c"
	expect 1 'import fails with EINVAL \(magic\)' "$c"
	"$tool" flip $((n - 24)) "$b" "$c"
	expect 1 'checksum +bad: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8} -> import fails with EINVAL' "$c"
	expect 1 'import fails with EINVAL \(checksum\)' "$c"
	"$tool" flip 13 "$b" "$c"
	expect 1 'import fails with EINVAL \(checksum\)' "$c"
	"$tool" truncate $((n - 8)) "$b" "$c"
	expect 1 'length .*truncated\) -> import fails with EINVAL' "$c"
	"$tool" set16 4 1 "$b" "$c"
	expect 1 'import fails with EPROTO \(format_version\)' "$c"
	"$tool" set16 6 7 "$b" "$c"
	expect 1 'import fails with EINVAL \(kind\)' "$c"
	"$tool" set16 8 $((n + 4)) "$b" "$c"
	expect 1 'import fails with EINVAL \(length\)' "$c"
	"$tool" set8 29 1 "$b" "$c"
	expect 1 'import fails with EINVAL \(reserved bytes\)' "$c"
	"$tool" set8 26 2 "$b" "$c"
	expect 1 'import fails with EINVAL \(flags\)' "$c"
	"$tool" set8 27 1 "$b" "$c"
	expect 1 'import fails with EINVAL \(flags\)' "$c"
	# The header's last reserved byte (bodies end with the file id, which
	# any value may be).
	"$tool" set8 31 1 "$b" "$c"
	expect 1 'import fails with EINVAL \(reserved bytes\)' "$c"
	# Another boot's id, resealed: ESTALE, both ids printed.
	"$tool" set8 40 $(( $(od -An -tu1 -j40 -N1 "$b") ^ 1 )) "$b" "$c"
	expect 1 'boot +bad: made in boot [0-9a-f-]{36}, this is boot [0-9a-f-]{36} -> import fails with ESTALE' "$c"
	expect 1 'verdict: import fails with ESTALE \(boot\)' "$c"
	# Format 4 (no boot id), labelled on this blob: EPROTO.
	"$tool" set16 4 4 "$b" "$c"
	expect 1 'version 4, this library reads format 6 only \(older ones have no boot id\) -> import fails with EPROTO' "$c"
	# Format 5 (v2's cookie where the file id is), labelled: EPROTO.
	"$tool" set16 4 5 "$b" "$c"
	expect 1 'version 5, this library reads format 6 only \(format 5.s cookie came from a kernel method that was withdrawn\) -> import fails with EPROTO' "$c"
	"$tool" append 16 "$b" "$c"
	expect 0 'size +ok \(16 bytes after the blob' "$c"

	# No file id: import refuses it with EPROTO on a kernel that reports
	# file ids only (import_policy_no_file_id()), hence exit 3.
	cp "$b" "$c"
	for o in $(seq $((n - 8)) $((n - 1))); do
		"$tool" set8 "$o" 0 "$c" "$c"
	done
	expect 3 'file id +none \(file id 0\): import fails with EPROTO on a kernel that reports file ids' "$c"
	expect 3 'liveness +not judged offline \(import asks the kernel' "$c"
	expect 3 'verdict: no file id; import fails with EPROTO' "$c"
	expect 0 'verdict: good blob; import accepts it through verbs file [0-9]+ only' "$b"

	# A DEVX object's fields past what libmlx5 can have recorded
	# (import_policy_bounds()): EINVAL, as import.
	if [ "$(od -An -tu2 -j6 -N2 "$b" | tr -d ' ')" = 1 ]; then
		"$tool" set16 52 13 "$b" "$c"
		expect 1 'bounds +bad: type 13 is not in libmlx5.s enum \(0 to 12\) -> import fails with EINVAL' "$c"
		expect 1 'verdict: import fails with EINVAL \(bounds\)' "$c"
		"$tool" set16 52 12 "$b" "$c"
		expect 0 'bounds +ok' "$c"
		"$tool" set8 60 32 "$b" "$c"
		expect 1 'bounds +bad: log_obj_range 32, at most 31 -> import fails with EINVAL' "$c"
		"$tool" set8 60 31 "$b" "$c"
		expect 0 'bounds +ok' "$c"
		# a QP (type 4): 24 bits of id fit, 25 do not
		"$tool" set16 52 4 "$b" "$c"
		"$tool" set8 59 0 "$c" "$c"
		expect 0 'bounds +ok' "$c"
		"$tool" set8 59 1 "$c" "$c"
		expect 1 'bounds +bad: object_id 0x01[0-9a-f]{6} is wider than a QP.s 24 bits -> import fails with EINVAL' "$c"
	else
		expect 0 'bounds +ok \(none for a' "$b"
	fi

	[ "${4:-}" = named ] && continue
	# Every truncation and every flipped byte, in one inspector run:
	# each file must get a failing verdict of its own.
	rm -rf "$work/every" && mkdir "$work/every"
	"$tool" every "$b" "$work/every"
	files=("$work"/every/*)
	out=$("$inspect" "${files[@]}" 2>&1)
	st=$?
	bad=$(printf '%s\n' "$out" | grep -c '^ verdict: import fails with E')
	if [ "$st" -eq 1 ] && [ "$bad" -eq ${#files[@]} ] &&
		[ "${#files[@]}" -eq $((2 * n)) ]; then
		pass
	else
		fail "$b: every damage: exit $st, $bad of ${#files[@]} refused"
		printf '%s\n' "$out" | grep -B30 'verdict: good' >&2
	fi
	trunc=$(printf '%s\n' "$out" |
		grep -c '^ verdict: import fails with EINVAL')
	[ "$trunc" -ge "$n" ] && pass ||
		fail "$b: only $trunc of the damages refused with EINVAL"
done

# Formats 2 to 4 had no boot id, format 5 v2's cookie: EPROTO, exit 1.
for k in devx_obj devx_umem var; do
	for f in 2 3 4 5; do
		"$tool" make "$k" "$work/v$f-$k.blob" "$f"
		expect 1 "format_version +bad: version $f, .* EPROTO" \
			"$work/v$f-$k.blob"
	done
done
# A blob of this format without a file id, for the exit statuses below.
"$tool" make var "$work/nofileid.blob"
for o in $(seq 72 79); do
	"$tool" set8 "$o" 0 "$work/nofileid.blob" "$work/nofileid.blob"
done

# Inputs that are no blob at all.
: >"$work/empty"
expect 1 'empty' "$work/empty"
head -c 64 /dev/urandom >"$work/random"
no_crash "$work/random"
for len in 1 3 7 15 31 33 63 65 100 1000 4095 4096 4097; do
	head -c "$len" /dev/urandom >"$work/random"
	no_crash "$work/random"
done
head -c $((1024 * 1024)) /dev/zero >"$work/huge"
expect 1 'file longer than a blob' "$work/huge"
expect 1 'file longer than a blob' - <"$work/huge"
# A good blob followed by a megabyte: still not a blob file.
cat "${blobs[0]}" "$work/huge" >"$work/huge-blob"
expect 1 'file longer than a blob' "$work/huge-blob"
expect 2 'mlx5-share-inspect: .*: No such file' "$work/missing"
expect 2 'mlx5-share-inspect: .*: Is a directory' "$work"
expect 2 'no blob file given'
expect 2 'unknown option' --frobnicate "${blobs[0]}"
expect 0 'Usage: mlx5-share-inspect' --help
# A bad file among good ones: 1 for the lot, and the good ones still shown.
expect 1 'verdict: good blob' "${blobs[0]}" "$work/empty"
# The worst status wins: 2 over 1 over 3 over 0.
expect 3 'verdict: good blob' "${blobs[0]}" "$work/nofileid.blob"
expect 1 'verdict: no file id' "$work/nofileid.blob" "$work/empty"
expect 2 'verdict: import fails' "$work/empty" "$work/missing"

echo "inspect-blobs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
