#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The Linux series (linux/patches) against Debian bookworm-security's Linux
# 6.12, without building a kernel:
#  1. signs it with a test identity (linux/sign-series.sh) and applies it
#     with git am to the pristine sources of linux-source-6.12;
#  2. runs that tree's scripts/checkpatch.pl --strict on every patch: no
#     error, warning or check;
#  3. builds mlx5_ib.ko out of tree against the matching linux-headers with
#     W=1 -Werror, the series' include/ changes put into the headers
#     (KERNEL_JOBS compile jobs, default 1: tests/kernel/CMakeLists.txt);
#  4. compiles kernel-headers/rdma_uapi_compat_check.c against the patched
#     uapi headers, so that every constant rdma_uapi_compat.h supplies is
#     the kernel's (its _Static_asserts compare the two).
# The packages are downloaded with apt-get download and unpacked here, so
# no linux-image is installed.  Tools missing are installed when running
# as root (CI), else the test is skipped; so is a system without apt or
# without linux-source-6.12 (bookworm-security).  The newest 6.12 that
# apt offers is used: bookworm-security drops old ones.
#
# Usage: linux_series.sh SOURCE_DIR WORK_DIR [CC]
set -eu
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
CC=${3:-cc}
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
t() { echo "== $(date +%T) $*"; }
start=$(date +%s)

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
root=; [ "$(id -u)" = 0 ] && root=1

t "tools"
# The headers' CONFIG_CC_VERSION_TEXT names gcc-12; pahole makes the
# module's BTF.
missing=
for tool in gcc-12:gcc-12 make:make bc:bc pahole:pahole xz:xz-utils \
	    perl:perl git:git; do
	command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
	[ -n "$root" ] || skip "missing$missing (not root: cannot install)"
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ apt-get update -qq &&
		  apt-get install -y -qq --no-install-recommends $missing \
			>/dev/null; } ||
		skip "cannot install$missing"
fi

candidate() {
	V=$(apt-cache policy linux-source-6.12 2>/dev/null |
		awk '/Candidate:/ {print $2}')
	[ "$V" != "(none)" ] || V=
}
download() {
	[ -n "$V" ] || return 1
	ABI=${V%%-*}+deb12
	[ -e "$W/debs/.ok-$V" ] && return 0
	rm -rf "$W/debs"; mkdir -p "$W/debs"
	(cd "$W/debs" && apt-get download -q=2 \
		"linux-headers-$ABI-amd64=$V" "linux-headers-$ABI-common=$V" \
		"linux-kbuild-$ABI=$V" "linux-source-6.12=$V" 2>&1 |
		grep -v "unsandboxed" || true)
	[ "$(ls "$W/debs" | wc -l)" -eq 4 ] && touch "$W/debs/.ok-$V"
}
t "download (cached in $W/debs)"
candidate
if ! download; then
	[ -n "$root" ] || skip "no linux-source-6.12 to download (not root: cannot apt-get update)"
	apt-get update -qq || skip "apt-get update failed"
	candidate
	download || skip "apt offers no linux-source-6.12 (bookworm-security)"
fi
KVER=${V%%-*}
echo "kernel $KVER (Debian $V)"

t "headers (fresh: the series' include/ changes go there)"
rm -rf "$W/root"
for d in "$W"/debs/linux-headers-*.deb "$W"/debs/linux-kbuild-*.deb; do
	dpkg -x "$d" "$W/root"
done
KH=$W/root/usr/src/linux-headers-$ABI-amd64
KC=$W/root/usr/src/linux-headers-$ABI-common
# The amd64 tree includes the common one by absolute path.
sed -i "s#^include /usr/src/#include $W/root/usr/src/#" "$KH/Makefile"

P=$W/pristine-$V
t "sources (cached in $P)"
if [ ! -e "$P/.ok" ]; then
	rm -rf "$W"/pristine-*; mkdir -p "$P"
	dpkg-deb --fsys-tarfile "$W"/debs/linux-source-6.12_*.deb |
		tar -xO ./usr/src/linux-source-6.12.tar.xz |
		nice tar -xJ -C "$P" --strip-components=1 --wildcards \
			'linux-source-6.12/drivers/infiniband/hw/mlx5/*' \
			'linux-source-6.12/include/rdma/*' \
			'linux-source-6.12/include/uapi/rdma/*' \
			'linux-source-6.12/scripts/checkpatch.pl' \
			'linux-source-6.12/scripts/spelling.txt' \
			'linux-source-6.12/scripts/const_structs.checkpatch'
	touch "$P/.ok"
fi

t "sign and git am"
T=$W/tree
rm -rf "$T" "$W/signed"
cp -a "$P" "$T"
ID="Kernel Label Test <kernel-test@example.org>"
sh "$SRC/linux/sign-series.sh" --author "$ID" --signoff "$W/signed"
git() { command git -C "$T" -c user.name="Kernel Label Test" \
	-c user.email=kernel-test@example.org "$@"; }
git init -q
git add -A
git commit -q -m "linux-source-6.12 $V"
git tag base
set -- $(ls "$W"/signed/*.patch | grep -v '/0000-cover-letter\.patch$')
git am -q "$@" || fail "the series does not apply to $KVER"
git log --reverse --format='  %s' base..HEAD
# Only hw/mlx5 is built and include/ reaches it through the headers.
outside=$(git diff --name-only base HEAD |
	grep -v -e '^drivers/infiniband/hw/mlx5/' -e '^include/' || true)
[ -z "$outside" ] || fail "not compile-tested here: $outside"

t "checkpatch --strict"
rc=0
for p in "$@"; do
	perl "$T/scripts/checkpatch.pl" --no-tree --strict "$p" \
		>"$p.checkpatch" 2>&1 || true
	total=$(grep '^total:' "$p.checkpatch" || echo "total: no result")
	echo "  $(basename "$p"): $total"
	case $total in
	"total: 0 errors, 0 warnings, 0 checks,"*) ;;
	*) cat "$p.checkpatch"; rc=1 ;;
	esac
done
[ $rc = 0 ] || fail "checkpatch"

t "rdma_uapi_compat.h against the patched uapi headers"
U=$W/uapi
rm -rf "$U"; mkdir -p "$U/rdma"
cp "$T"/include/uapi/rdma/*.h "$U/rdma/"
have=
for c in $(sed -n 's/^#ifndef HAVE_\([A-Z0-9_]*\)$/\1/p' \
	   "$SRC/kernel-headers/rdma_uapi_compat.h"); do
	printf '#include <rdma/mlx5_user_ioctl_cmds.h>\nint main(void) { return (int)%s; }\n' \
		"$c" >"$W/have.c"
	"$CC" -I"$U" -o /dev/null "$W/have.c" 2>/dev/null ||
		fail "the patched headers lack $c"
	have="$have -DHAVE_$c"
done
"$CC" -std=c11 -Wall -Wextra -Werror $have -I"$U" \
	-I"$SRC/kernel-headers" -c -o /dev/null \
	"$SRC/kernel-headers/rdma_uapi_compat_check.c" ||
	fail "kernel-headers/rdma_uapi_compat.h differs from the series"
echo "  all of$have"

t "build mlx5_ib.ko (W=1, warnings are errors)"
for f in $(git diff --name-only base HEAD -- include/); do
	cp "$T/$f" "$KC/$f"
done
nice make -s -j"${KERNEL_JOBS:-1}" -C "$KH" M="$T/drivers/infiniband/hw/mlx5" \
	W=1 KCFLAGS=-Werror modules >"$W/build.log" 2>&1 ||
	{ cat "$W/build.log"; fail "mlx5_ib.ko does not build at W=1"; }
grep -i 'warning' "$W/build.log" && fail "warnings"
ls -l "$T/drivers/infiniband/hw/mlx5/mlx5_ib.ko"
t "passed in $(($(date +%s) - start)) s"
