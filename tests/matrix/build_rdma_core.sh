#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# build_rdma_core.sh [--relabel VER] SOURCE WORKDIR
#
# Builds one rdma-core release's libibverbs and libmlx5 (and the two
# small examples the emu suite runs, ibv_devinfo and ibv_devices) with the
# release's own CMake, and stages them into WORKDIR/prefix the way
# `ninja install` lays them out: headers in include/infiniband, libraries
# and pkg-config files in lib, the provider's config file in
# etc/libibverbs.d and its module link in lib/libibverbs.
#
# SOURCE is a release tarball (rdma-core-VER.tar.*) or an unpacked tree.
# The build is configured with CMAKE_INSTALL_PREFIX=WORKDIR/prefix, so
# the libibverbs built here looks for its providers there (its compiled-in
# IBV_CONFIG_DIR and VERBS_PROVIDER_DIR), never in the system's.
#
# A whole `ninja install` needs every target built; a partial build is
# staged instead with the install scripts of only the directories that
# hold the two libraries (CMAKE_INSTALL_LOCAL_ONLY: without their
# subdirectories, e.g. libibverbs/examples).
#
# WORKDIR/uapi/rdma gets the release's own copy of the kernel's uapi
# headers (its kernel-headers/rdma, which it does not install): what the
# kernel headers looked like when the release was made, so that the
# matrix can build each release with the <rdma/*.h> of its time.
#
# --relabel VER builds a copy of SOURCE whose top CMakeLists.txt says
# release VER instead of its own: the only change, so the libraries are
# that release's code under the names (libmlx5.so.1.ABI.VER) and version
# strings a release VER would have.  The matrix uses it for a release
# outside the supported range that does not exist yet.
#
# Built as rdma-core's default RelWithDebInfo (-O2: the code a package
# has) without -g (the debug information nothing here reads:
# RC_NO_DEBUG_INFO, tests/common/rdma_core_tree.sh), with MATRIX_JOBS
# (default 1) compile jobs: the matrix's tests each take one of
# ctest's processors and run two releases side by side
# (tests/matrix/CMakeLists.txt).
set -euo pipefail
. "$(dirname "$0")/../common/rdma_core_tree.sh"

relabel=
if [ "${1:-}" = --relabel ]; then
	relabel=${2:?--relabel needs a version}
	shift 2
fi

src=${1:?usage: build_rdma_core.sh SOURCE WORKDIR}
work=${2:?usage: build_rdma_core.sh SOURCE WORKDIR}
jobs=${MATRIX_JOBS:-1}

mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix
build=$work/build

if [ -f "$src" ]; then
	tree=$work/src
	rm -rf "$tree"
	rc_unpack "$src" "$tree"
elif [ -f "$src/CMakeLists.txt" ]; then
	tree=$(cd "$src" && pwd)
	if [ -n "$relabel" ]; then
		rm -rf "$work/src"
		cp -a "$tree" "$work/src"
		tree=$work/src
	fi
else
	echo "build_rdma_core: $src is neither a tarball nor a source tree" >&2
	exit 1
fi
if [ -n "$relabel" ]; then
	sed -i -E "s/^set\(PACKAGE_VERSION \"[0-9.]+\"\)/set(PACKAGE_VERSION \"$relabel\")/" \
		"$tree/CMakeLists.txt"
	if ! grep -q "^set(PACKAGE_VERSION \"$relabel\")" "$tree/CMakeLists.txt"; then
		echo "build_rdma_core: cannot relabel $src as $relabel" >&2
		exit 1
	fi
fi

rm -rf "$build" "$prefix"
# shellcheck disable=SC2046
cmake -S "$tree" -B "$build" -GNinja -DNO_MAN_PAGES=1 -DNO_PYVERBS=1 \
	$(rc_cmake_python) \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo \
	"${RC_NO_DEBUG_INFO[@]}" \
	-DCMAKE_INSTALL_PREFIX="$prefix" \
	>"$work/configure.log" 2>&1 || {
	tail -30 "$work/configure.log" >&2
	exit 1
}
ninja -C "$build" -j "$jobs" ibverbs mlx5 ibv_devinfo ibv_devices \
	>"$work/build.log" 2>&1 || {
	tail -30 "$work/build.log" >&2
	exit 1
}

# The top directory installs libibverbs.pc; the others their library,
# public headers, pkg-config file and provider files.
stage() {
	cmake -DCMAKE_INSTALL_LOCAL_ONLY=1 -P "$build/$1/cmake_install.cmake" \
		>>"$work/stage.log"
}
: >"$work/stage.log"
stage .
stage libibverbs
stage providers/mlx5
stage kernel-headers
mkdir -p "$prefix/bin"
cp "$build/bin/ibv_devinfo" "$build/bin/ibv_devices" "$prefix/bin/"
rm -rf "$work/uapi"
mkdir -p "$work/uapi"
cp -r "$tree/kernel-headers/rdma" "$work/uapi/"

# Everything the project needs must be where an installed release has it.
for f in include/infiniband/verbs.h include/infiniband/mlx5dv.h \
	lib/pkgconfig/libibverbs.pc lib/pkgconfig/libmlx5.pc \
	lib/libibverbs.so.1 lib/libmlx5.so.1 etc/libibverbs.d/mlx5.driver; do
	if [ ! -e "$prefix/$f" ]; then
		echo "build_rdma_core: $prefix/$f was not staged" >&2
		exit 1
	fi
done
if ! ls "$prefix"/lib/libibverbs/libmlx5-rdmav*.so >/dev/null 2>&1; then
	echo "build_rdma_core: no provider module in $prefix/lib/libibverbs" >&2
	exit 1
fi
echo "rdma-core $(basename "$(readlink -f "$prefix/lib/libmlx5.so.1")")" \
	"staged in $prefix"
