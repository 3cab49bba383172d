#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# build_share.sh PREFIX BUILDDIR SOURCEDIR
#
# Configures and builds mlx5-share (SOURCEDIR) in BUILDDIR against the
# rdma-core staged in PREFIX by build_rdma_core.sh, and nothing else:
# pkg-config searches only PREFIX (PKG_CONFIG_LIBDIR), the emu suite's
# ibv_devinfo/ibv_devices are the release's own, and afterwards the
# compiler's dependency record must show that no object read the
# system's <infiniband/*.h>.  When build_rdma_core.sh left the release's
# copy of the kernel uapi headers next to PREFIX (PREFIX/../uapi), the
# build uses those instead of the system's (RDMA_UAPI_INCLUDE_DIR), and
# must not have read the system's <rdma/*.h> either.
#
# --expect-uapi-fallback: those headers must lack constants that
# kernel-headers/rdma_uapi_compat.h then supplies (the configure step
# says which), so that the fallback path is the one built and tested.
#
# build_share.sh --refused PREFIX BUILDDIR SOURCEDIR RESULT
#
# The configuration must stop (rdma-core 63 and later ship the API), with
# the message that says so; RESULT gets "configure-refused 1 1" if it
# did, "configure-refused 0 1" if not.
set -euo pipefail

refused=0
fallback=0
while [ $# -gt 0 ]; do
	case $1 in
	--refused) refused=1 ;;
	--expect-uapi-fallback) fallback=1 ;;
	*) break ;;
	esac
	shift
done
prefix=${1:?usage: build_share.sh [--refused] PREFIX BUILDDIR SOURCEDIR}
build=${2:?usage}
src=${3:?usage}
result=${4:-}
if [ $refused = 1 ]; then
	: "${result:?--refused needs RESULT}"
fi
jobs=${MATRIX_JOBS:-1}

uapi=$(dirname "$prefix")/uapi
uapi_args=()
if [ -d "$uapi/rdma" ]; then
	uapi_args=(-DRDMA_UAPI_INCLUDE_DIR="$uapi")
fi

rm -rf "$build"
mkdir -p "$build"
log=$build/configure.log
set +e
env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" \
	cmake -S "$src" -B "$build" -GNinja -DMLX5_SHARE_MATRIX_CHILD=ON \
	"${uapi_args[@]}" \
	-DIBV_DEVINFO="$prefix/bin/ibv_devinfo" \
	-DIBV_DEVICES="$prefix/bin/ibv_devices" >"$log" 2>&1
rc=$?
set -e

if [ $refused = 1 ]; then
	mkdir -p "$(dirname "$result")"
	echo "configure-refused 0 1" >"$result"
	if [ $rc = 0 ]; then
		echo "configure against $prefix succeeded; it must stop" >&2
		exit 1
	fi
	if ! grep -q "already provides mlx5dv_devx_obj_export" "$log"; then
		echo "configure failed without the expected message:" >&2
		tail -20 "$log" >&2
		exit 1
	fi
	grep -A4 "CMake Error" "$log"
	echo "configure-refused 1 1" >"$result"
	exit 0
fi
if [ $rc != 0 ]; then
	tail -30 "$log" >&2
	exit 1
fi
grep -E "^-- (rdma-core|kernel uapi)" "$log"
if [ $fallback = 1 ] && ! grep -q "^-- kernel uapi headers lack" "$log"; then
	echo "the kernel uapi headers in use lack nothing:" \
		"rdma_uapi_compat.h's fallback was not exercised" >&2
	exit 1
fi
if ! grep -q "^-- rdma-core .*$prefix/lib/libmlx5.so.1)" "$log"; then
	echo "configure did not select $prefix's libmlx5" >&2
	exit 1
fi
if ! ninja -C "$build" -j "$jobs" >"$build/build.log" 2>&1; then
	grep -B2 -A12 "error" "$build/build.log" | head -80 >&2
	exit 1
fi
# Every header any object was compiled with, as the compiler recorded it.
deps=$build/header-deps.txt
ninja -C "$build" -t deps >"$deps"
if grep -E '^ +/usr/(local/)?include/infiniband/' "$deps" | sort -u; then
	echo "the build read the system's rdma-core headers (above)" >&2
	exit 1
fi
if [ ${#uapi_args[@]} != 0 ] &&
	grep -E '^ +/usr/(local/)?include/rdma/' "$deps" | sort -u; then
	echo "the build read the system's kernel uapi headers (above)" >&2
	exit 1
fi
if ! grep -q "^ *$prefix/include/infiniband/mlx5dv.h" "$deps"; then
	echo "no object was compiled with $prefix's mlx5dv.h" >&2
	exit 1
fi
echo "mlx5-share built against $prefix in $build"
