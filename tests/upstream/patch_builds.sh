#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# upstream_patch_builds: the series applied with git am to each base (an
# rdma-core tarball made with git archive, or a checkout), libibverbs and
# libmlx5 built with -Werror after the base and after every patch, with
# gcc (rdma-core's default build type) and clang (Debug), as rdma-core's
# CI compiles them, less -g (RC_NO_DEBUG_INFO: the same code and
# diagnostics).  SERIES_DIR is the series of the base given with
# --primary; another base takes the series given for it with
# --series BASE=DIR (the same upstream/patches for 64.0 today; a base
# that needed its own series would name it here).
# One source tree per base and one build directory per base and
# compiler, rebuilt incrementally by ninja at each patch.  A
# "BASE:COMPILER" pair given with --skip (repeatable) is left out
# (upstream_build and upstream_series_v64 build those with gcc).  Reports
# per base, patch and compiler; fails on any patch that does not apply or
# does not build.
#
# usage: patch_builds.sh SERIES_DIR PROJECT_ROOT WORK --primary BASE
#                        [--series BASE=DIR]... [--skip BASE:CC]... BASE...
set -uo pipefail

name=upstream_patch_builds
series=$1 root=$2 work=$3
shift 3
primary= skips=()
declare -A series_of
while [[ "${1:-}" == --* ]]; do
	case $1 in
	--primary) primary=$(realpath -q "$2" || true) ;;
	--series) series_of[$(realpath -q "${2%%=*}" || true)]=${2#*=} ;;
	--skip) skips+=("$(realpath -q "${2%:*}" || true):${2##*:}") ;;
	esac
	shift 2
done
jobs=${UPSTREAM_JOBS:-1}

bases=()
for b in "$@"; do
	[[ -e "$b" ]] && bases+=("$(realpath "$b")")
done
if [[ ${#bases[@]} -eq 0 ]]; then
	echo "SKIPPED: $name: no rdma-core base found ($*)"
	exit 77
fi
for tool in git ninja cmake gcc clang; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIPPED: $name: $tool is not installed"
		exit 77
	fi
done

# rc_unpack, rc_git_base (a fixed identity for git am), rc_cmake_python,
# RC_NO_DEBUG_INFO (the build types' flags without -g)
. "$root/tests/common/rdma_core_tree.sh"

# list_patches DIR: the patches of DIR, cover letter left out.
list_patches() {
	patches=()
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ "$(basename "$p")" == 0000-* ]] || patches+=("$p")
	done
}

# cc_flags COMPILER: the compiler and build type rdma-core's CI uses.
cc_flags() {
	case $1 in
	gcc) echo "-DCMAKE_C_COMPILER=gcc" ;;
	clang) echo "-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug" ;;
	esac
}

failed=0 built=0
# build LABEL DIR STEP: ninja ibverbs mlx5 in DIR; reports one line.
build() {
	local log=$2/ninja.log
	if ninja -C "$2" -j "$jobs" ibverbs mlx5 >"$log" 2>&1; then
		echo "   $1 $3: ok"
	else
		echo "   $1 $3: FAILED"
		grep -E 'error|warning' "$log" | head -40
		failed=$((failed + 1))
	fi
	built=$((built + 1))
}

for base in "${bases[@]}"; do
	label=$(basename "$base")
	label=${label%.tar.*}
	ccs=()
	for cc in gcc clang; do
		if [[ " ${skips[*]} " == *" $base:$cc "* ]]; then
			echo "== $label, $cc: left out (built by another test)"
		else
			ccs+=("$cc")
		fi
	done
	[[ ${#ccs[@]} -eq 0 ]] && continue
	echo "== $label: ${ccs[*]}"
	dir=$work/$label
	rm -rf "$dir"
	mkdir -p "$dir/src"
	sdir=$series
	if [[ "$base" != "$primary" ]]; then
		sdir=${series_of[$base]:-}
		if [[ -z "$sdir" ]]; then
			echo "   no series given for $label (--series)"
			failed=$((failed + 1))
			continue
		fi
	fi
	list_patches "$sdir"
	if [[ ${#patches[@]} -eq 0 ]]; then
		echo "   no patches in $sdir"
		failed=$((failed + 1))
		continue
	fi
	if ! rc_unpack "$base" "$dir/src" ||
		! rc_git_base "$dir/src" "$label"; then
		echo "   $label cannot be unpacked"
		failed=$((failed + 1))
		continue
	fi
	for cc in "${ccs[@]}"; do
		# shellcheck disable=SC2046
		if ! cmake -S "$dir/src" -B "$dir/$cc" -GNinja $(cc_flags "$cc") \
			"${RC_NO_DEBUG_INFO[@]}" -DENABLE_WERROR=1 -DIOCTL_MODE=both -DNO_PYVERBS=1 \
			-DNO_MAN_PAGES=1 $(rc_cmake_python) \
			>"$dir/$cc.cmake.log" 2>&1; then
			tail -20 "$dir/$cc.cmake.log"
			echo "   $cc: configure FAILED"
			failed=$((failed + 1))
			continue
		fi
		build "$cc" "$dir/$cc" "base"
	done
	for p in "${patches[@]}"; do
		if ! git -C "$dir/src" am -q "$p" >"$dir/am.log" 2>&1; then
			cat "$dir/am.log"
			echo "   $(basename "$p"): does not apply to $label"
			failed=$((failed + 1))
			git -C "$dir/src" am --abort >/dev/null 2>&1
			break
		fi
		for cc in "${ccs[@]}"; do
			[[ -f "$dir/$cc/build.ninja" ]] &&
				build "$cc" "$dir/$cc" "$(basename "$p")"
		done
	done
done

if [[ $failed -ne 0 ]]; then
	echo "FAIL: $name: $failed of $built builds or patches failed"
	exit 1
fi
echo "PASS: $name: $built -Werror builds of libibverbs and libmlx5," \
     "all ok"
