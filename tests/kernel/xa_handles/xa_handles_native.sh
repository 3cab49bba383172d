#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# xa_handles_bench.c at native speed: the kernel's lib/xarray.c of Debian
# 12's newest linux-source-6.12 (apt-get download, nothing installed,
# cached beside WORK), built in userspace with the kernel's own harness
# (tools/testing/radix-tree, XA_CHUNK_SHIFT 6 as in the kernel, without
# its debug checks and sanitizers, -O2), runs the same patterns and
# checks as the module (xa_handles_native.c).  Fails when a check fails;
# exits 77 where the source or liburcu cannot be had.
#
# Usage: xa_handles_native.sh SRC WORK
set -eu
NAME=kernel_xarray_handles_native
[ $# -eq 2 ] || { echo "usage: $0 SRC WORK" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
HERE=$SRC/tests/kernel/xa_handles
. "$SRC/tests/kernel/kernel_lib.sh"

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
t "tools"
if ! command -v gcc >/dev/null || ! command -v make >/dev/null ||
   [ ! -e /usr/include/urcu.h ]; then
	[ "$(id -u)" = 0 ] || skip "no gcc, make or liburcu-dev (not root)"
	apt-get install -y -qq --no-install-recommends gcc make \
		liburcu-dev >/dev/null || skip "cannot install liburcu-dev"
fi
t "source (the kernel label's download, beside $W)"
fetch_612
K=$W/src-$V
if [ ! -e "$K/.ok" ]; then
	rm -rf "$W"/src-*; mkdir -p "$K"
	dpkg-deb --fsys-tarfile "$DEBS"/linux-source-*.deb |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		nice tar -xJ -C "$K" --strip-components=1 --wildcards \
			"*/tools/*" "*/lib/*" "*/include/*" ||
		fail "cannot extract the kernel source"
	touch "$K/.ok"
fi

t "build (linux $V's lib/xarray.c, -O2)"
: >"$W/build.log"
R=$K/tools/testing/radix-tree
cd "$R"
rm -rf generated inc
mkdir -p generated inc/linux
cp ../shared/autoconf.h generated/
echo "#define XA_CHUNK_SHIFT 6" >generated/map-shift.h
echo "#define CONFIG_$(getconf LONG_BIT)BIT 1" >generated/bit-length.h
# The module's kernel headers that the harness lacks: what they give is
# in xa_handles_native.c.
for h in errno ktime limits random sched; do
	: >"inc/linux/$h.h"
done
sed -e 's/^static //' -e 's/__always_inline //' -e 's/inline //' \
	<../../../lib/radix-tree.c >radix-tree.c
printf '#include "shared.h"\n#include "../../../lib/xarray.c"\n' \
	>xarray-nodebug.c
cp "$HERE/xa_handles_bench.c" "$HERE/xa_handles_native.c" .
CFLAGS="-I../shared -I. -I../../include -I../../../lib -Iinc -O2 -Wall"
CFLAGS="$CFLAGS -Wno-format -Wno-unused-function -D_LGPL_SOURCE"
objs=
for c in xarray-nodebug.c radix-tree.c ../shared/linux.c \
	 ../../lib/slab.c ../../lib/find_bit.c ../../lib/bitmap.c \
	 ../../lib/hweight.c ../../lib/vsprintf.c xa_handles_native.c; do
	o=$(basename "$c" .c).o
	# shellcheck disable=SC2086
	nice gcc $CFLAGS -c "$c" -o "$o" >>"$W/build.log" 2>&1 ||
		{ tail -n 20 "$W/build.log"; fail "$c does not build"; }
	objs="$objs $o"
done
# shellcheck disable=SC2086
gcc -o "$W/xa_handles_native" $objs -lpthread -lurcu ||
	fail "xa_handles_native does not link"
cd "$W"
prune_trees "$K"

t "run"
"$W/xa_handles_native" || fail "a check failed"
