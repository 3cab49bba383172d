#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The installed tree as its users see it: install the build into a
# temporary prefix, check the layout and the man pages, build the
# upstream-style application against the install three ways, check what
# it needs at run time, and run each build under mlx5-emu.
#
#   run_install_test.sh BUILD_DIR SOURCE_DIR LIBDIR [MLX5_EMU]
#
# LIBDIR is CMAKE_INSTALL_LIBDIR (relative to the prefix).  MLX5_EMU is the
# build's emulator; the installed one is preferred when it was installed.
set -uo pipefail
name=install
build=$1 src=$2 libdir=$3 build_emu=${4:-}
cc=${CC:-cc}
# shellcheck source=../common/check.sh
. "$(dirname "$0")/../common/check.sh"

for tool in "$cc" pkg-config readelf man; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix
if ! cmake --install "$build" --prefix "$P" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log" >&2
	fail "cmake --install"
	finish
fi
ok

# The layout mlx5-share(7) documents.
L=$P/$libdir
for f in "$L/libmlx5-share.so.1" "$L/mlx5-share/libmlx5.so" \
	"$P/include/mlx5-share/infiniband/mlx5dv.h" \
	"$P/include/mlx5-share/infiniband/mlx5_share_batch.h" \
	"$L/mlx5-share/pkgconfig/libmlx5.pc" "$L/pkgconfig/libmlx5-share.pc" \
	"$P/share/man/man3/mlx5dv_devx_obj_export.3" \
	"$P/share/man/man7/mlx5-share.7" \
	"$P/bin/mlx5-share-demo" "$P/bin/mlx5-share-inspect" "$P/bin/mlx5-emu" \
	"$L/mlx5-share/libmlx5-emu-preload.so" \
	"$P/share/man/man1/mlx5-share-demo.1" \
	"$P/share/man/man1/mlx5-share-inspect.1" "$P/share/man/man1/mlx5-emu.1" \
	"$P/share/man/man3/mlx5share_devx_obj_import_batch.3"; do
	check "installed $f" test -e "$f"
done
# Nothing of ours may take a name the system's rdma-core owns.
check "no flat libmlx5.so" test ! -e "$L/libmlx5.so"
check "no flat mlx5dv.h" test ! -e "$P/include/infiniband/mlx5dv.h"
check "no flat libmlx5.pc" test ! -e "$L/pkgconfig/libmlx5.pc"
check "linker script names ours, then the system libmlx5.so.1" \
	grep -Eq "^INPUT \( $L/libmlx5-share\.so\.1 /.*/libmlx5\.so\.1 \)$" \
	"$L/mlx5-share/libmlx5.so"

# A staged install (DESTDIR, as package builds do) names the final paths.
stage=$tmp/stage
if DESTDIR=$stage cmake --install "$build" --prefix /opt/m5s \
	>"$tmp/stage.log" 2>&1; then
	ok
	check "staged linker script names the final path" grep -q \
		"^INPUT ( /opt/m5s/$libdir/libmlx5-share\.so\.1 /.*/libmlx5\.so\.1 )$" \
		"$stage/opt/m5s/$libdir/mlx5-share/libmlx5.so"
	check "staged .pc files name the final paths" sh -c \
		"grep -q '^libdir=/opt/m5s/$libdir/mlx5-share$' '$stage/opt/m5s/$libdir/pkgconfig/libmlx5-share.pc' &&
		 ! grep -rq '$stage' '$stage/opt/m5s/$libdir'"
else
	cat "$tmp/stage.log" >&2
	fail "DESTDIR install"
fi

# Every alias page opens the page that documents it.
man_has() { # page expected-title
	man -M "$P/share/man" -P cat "$1" 2>/dev/null | head -1 | grep -q "^$2("
}
for f in obj umem; do
	for fn in export import unimport; do
		check "man mlx5dv_devx_${f}_$fn" man_has "mlx5dv_devx_${f}_$fn" \
			"MLX5DV_DEVX_$(echo "$f" | tr a-z A-Z)_EXPORT"
	done
done
for fn in export import unimport; do
	check "man mlx5dv_var_$fn" man_has "mlx5dv_var_$fn" MLX5DV_VAR_EXPORT
done
for fn in mlx5dv_get_export_sizes _mlx5dv_get_export_sizes; do
	check "man $fn" man_has "$fn" MLX5DV_GET_EXPORT_SIZES
done
check "man 7 mlx5-share" man_has mlx5-share MLX5-SHARE
check "man mlx5-emu" man_has mlx5-emu MLX5-EMU

# The three ways to build an application for rdma-core's API.
app=$src/tests/install/upstream_app.c
cflags="-std=gnu11 -Wall -Wextra -Werror -I$src/tests/common"
build_app() { # output, then the flags
	local out=$1; shift
	# shellcheck disable=SC2086
	if $cc $cflags "$app" -o "$out" "$@" 2>"$out.log"; then
		ok
	else
		cat "$out.log" >&2
		fail "build $(basename "$out"): $*"
	fi
}
# shellcheck disable=SC2046
build_app "$tmp/app-pc" $(PKG_CONFIG_PATH="$L/mlx5-share/pkgconfig" \
	pkg-config --cflags --libs libmlx5 libibverbs)
# shellcheck disable=SC2046
build_app "$tmp/app-pc-share" $(PKG_CONFIG_PATH="$L/pkgconfig" \
	pkg-config --cflags --libs libmlx5-share)
build_app "$tmp/app-plain" "-I$P/include/mlx5-share" "-L$L/mlx5-share" \
	-lmlx5 -libverbs

needs() { # binary soname
	readelf -d "$1" | grep -q "(NEEDED).*\[$2\]"
}
# The installed emulator (it finds its preload library relative to
# itself, as a relocated install needs), else the build's.
emu=$P/bin/mlx5-emu
[ -x "$emu" ] || emu=$build_emu
unset MLX5_EMU_PRELOAD
for bin in "$tmp"/app-pc "$tmp"/app-pc-share "$tmp"/app-plain; do
	[ -x "$bin" ] || continue
	b=$(basename "$bin")
	check "$b NEEDs libmlx5.so.1" needs "$bin" libmlx5.so.1
	check "$b NEEDs libmlx5-share.so.1" needs "$bin" libmlx5-share.so.1
	# The dynamic linker binds each symbol to the first NEEDED library
	# that defines it: ours must come before a libmlx5 that defines
	# the same MLX5_1.27 functions (rdma-core 63 and later).
	check "$b NEEDs libmlx5-share.so.1 before libmlx5.so.1" sh -c \
		"readelf -d '$bin' | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		 grep -E '^libmlx5(-share)?\.so\.1$' | head -1 |
		 grep -qx 'libmlx5-share.so.1'"
	extra=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		grep -Ev '^(libmlx5\.so\.1|libmlx5-share\.so\.1|libibverbs\.so\.1|libc\.so\.6)$')
	check "$b needs nothing else (got: $extra)" test -z "$extra"
	check "$b loads the installed libmlx5-share" sh -c \
		"LD_LIBRARY_PATH='$L' ldd '$bin' | grep -q 'libmlx5-share.so.1 => $L/'"
	if [ -z "$emu" ] || [ ! -x "$emu" ]; then
		fail "$b: no mlx5-emu to run it under"
		continue
	fi
	# each handle rule of the kernel: the stale records' answers differ
	for h in unique lowest-free; do
		echo "running $b under $emu, --handles=$h"
		if LD_LIBRARY_PATH=$L "$emu" run --handles=$h -- "$bin" $h
		then
			ok
		else
			fail "$b under mlx5-emu --handles=$h (exit $?)"
		fi
	done
done
finish
