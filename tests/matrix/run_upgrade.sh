#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# run_upgrade.sh BUILD SOURCE LIBDIR PREFIX RELEASE
#
# The upgrade of a machine with mlx5-share to an rdma-core that ships the
# DEVX export/import API itself (RELEASE, 63 or later, staged in PREFIX by
# build_rdma_core.sh), for an application built before it through the
# drop-in (mlx5-share(7), AFTER AN UPGRADE):
#
#  - the build BUILD is installed into a temporary prefix (LIBDIR is
#    CMAKE_INSTALL_LIBDIR) and tests/matrix/upgrade_app.c is built
#    against it as its users build: the drop-in libmlx5.pc (its linker
#    script), against the system's rdma-core, as before the upgrade;
#  - the same program is linked through a linker script in the order
#    mlx5-share used to install (the system libmlx5 first), and against
#    RELEASE's own libmlx5 (an application built after the upgrade);
#  - each runs under mlx5-emu with RELEASE's libibverbs and libmlx5
#    loaded (LD_LIBRARY_PATH): the drop-in build must be bound to
#    mlx5-share's functions and pass the whole conformance check; the
#    old order's build is bound to RELEASE's libmlx5 and must not (this
#    test's proof that the order is what decides);
#  - blobs between processes on either side of the upgrade: the drop-in
#    build with itself (both import), with RELEASE's build ("mixed": our
#    record in RELEASE's import names nothing, RELEASE's record in ours
#    is refused with EINVAL).
set -uo pipefail
name=matrix_upgrade
build=${1:?usage: run_upgrade.sh BUILD SOURCE LIBDIR PREFIX RELEASE}
src=${2:?usage}
libdir=${3:?usage}
prefix=${4:?usage}
release=${5:?usage}
cc=${CC:-cc}
# shellcheck source=../common/check.sh
. "$(dirname "$0")/../common/check.sh"

for tool in "$cc" pkg-config readelf; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done
[ -e "$prefix/lib/libmlx5.so.1" ] ||
	skip "no rdma-core $release staged in $prefix"
emu=$build/bin/mlx5-emu
[ -x "$emu" ] || skip "no mlx5-emu in $build"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix
if ! cmake --install "$build" --prefix "$P" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log" >&2
	fail "cmake --install"
	finish
fi
L=$P/$libdir
script=$L/mlx5-share/libmlx5.so
system=$(sed -n 's/^INPUT ( [^ ]* \([^ ]*\) )$/\1/p' "$script")
check "the installed linker script names the system libmlx5 second" \
	test -n "$system"

app=$src/tests/matrix/upgrade_app.c
cflags="-std=gnu11 -Wall -Wextra -Werror -I$src/tests/common
	-I$src/tests/install"
build_app() { # output, then the flags
	local out=$1
	shift
	# shellcheck disable=SC2086
	if $cc $cflags "$app" -o "$out" "$@" 2>"$out.log"; then
		ok
	else
		cat "$out.log" >&2
		fail "build $(basename "$out"): $*"
	fi
}
# Before the upgrade, through the drop-in.
# shellcheck disable=SC2046
build_app "$tmp/app-dropin" $(PKG_CONFIG_PATH="$L/mlx5-share/pkgconfig" \
	pkg-config --cflags --libs libmlx5 libibverbs)
# The same through the order mlx5-share installed before.
mkdir -p "$tmp/old"
echo "INPUT ( $system $L/libmlx5-share.so.1 )" >"$tmp/old/libmlx5.so"
build_app "$tmp/app-oldorder" "-I$P/include/mlx5-share" "-L$tmp/old" \
	-lmlx5 -libverbs
# After the upgrade, against the release's own libmlx5.
build_app "$tmp/app-release" "-I$prefix/include" "-L$prefix/lib" \
	-lmlx5 -libverbs

first_mlx5() { # binary: the first of the two libmlx5 it NEEDs
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		grep -E '^libmlx5(-share)?\.so\.1$' | head -1
}
check "app-dropin NEEDs libmlx5-share.so.1 first" \
	test "$(first_mlx5 "$tmp/app-dropin")" = libmlx5-share.so.1
check "app-oldorder NEEDs libmlx5.so.1 first" \
	test "$(first_mlx5 "$tmp/app-oldorder")" = libmlx5.so.1

export LD_LIBRARY_PATH=$L:$prefix/lib
run() { # log, then the program and its arguments
	local log=$1
	shift
	"$emu" run --devices 1 -- "$@" >"$log" 2>&1
}

# After the upgrade: the drop-in build keeps mlx5-share's API.
run "$tmp/dropin.log" "$tmp/app-dropin" conformance
st=$?
cat "$tmp/dropin.log"
check "app-dropin passes the whole conformance check" test $st = 0
check "app-dropin: $release's libmlx5 is the one loaded" \
	grep -q "^mlx5dv_devx_obj_create: $prefix/lib/libmlx5.so.1" \
	"$tmp/dropin.log"

# The old order binds the same program to the release's own functions.
run "$tmp/oldorder.log" "$tmp/app-oldorder" conformance
st=$?
cat "$tmp/oldorder.log"
check "app-oldorder does not pass the conformance check" test $st != 0
check "app-oldorder is bound to $release's libmlx5" grep -q \
	"^upgrade_app: mlx5dv_devx_obj_import bound to libmlx5.so.1$" \
	"$tmp/oldorder.log"
got=$(sed -n 's/^conformance: //p' "$tmp/oldorder.log")
echo "$name: with the old order: conformance ${got:-none}"
check "app-oldorder reached the conformance count" test -n "$got"

# A rolling upgrade: records between processes on either side.
run "$tmp/same.log" "$tmp/app-dropin" exchange "$tmp/app-dropin" same
st=$?
cat "$tmp/same.log"
check "drop-in with drop-in: both import the other's counter" test $st = 0
run "$tmp/mixed.log" "$tmp/app-dropin" exchange "$tmp/app-release" mixed
st=$?
cat "$tmp/mixed.log"
check "drop-in with $release's own: as mlx5-share(7) says" test $st = 0
finish
