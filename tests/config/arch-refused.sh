#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The configure refuses every target but x86_64 with 8-byte pointers
# (cmake/TargetArch.cmake), and builds one with MLX5_SHARE_UNTESTED_ARCH=ON.
#
#   arch-refused.sh CMAKE SOURCE_DIR
#
# Each target is a toolchain file for the machine's own compiler: another
# processor (aarch64), and -m32 and -mx32 (4-byte pointers).  CMake's
# compiler checks then build static libraries only, so no 32-bit C
# library is needed: CMAKE_SIZEOF_VOID_P is what the compiler says.
set -u
name=config_arch_refused
. "$(dirname "$0")/../common/check.sh"
cmake=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
refusal='built and tested only for x86_64 with 8-byte pointers'

# toolchain NAME PROCESSOR CFLAGS: writes $work/NAME.cmake
toolchain() {
	{
		if [ "$2" != host ]; then
			echo "set(CMAKE_SYSTEM_NAME Linux)"
			echo "set(CMAKE_SYSTEM_PROCESSOR $2)"
		fi
		echo "set(CMAKE_C_COMPILER ${CC:-cc})"
		echo "set(CMAKE_C_FLAGS_INIT \"$3\")"
		echo "set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)"
	} >"$work/$1.cmake"
}

# configure NAME [cmake args...]: output in $work/NAME.out, status in $st
configure() {
	local n=$1
	shift
	"$cmake" -S "$src" -B "$work/build-$n" \
		-DCMAKE_TOOLCHAIN_FILE="$work/$n.cmake" "$@" \
		>"$work/$n.out" 2>&1
	st=$?
}

# said NAME TEXT: configure NAME's output has TEXT (CMake wraps lines)
said() {
	tr -s ' \n' ' ' <"$work/$1.out" | grep -qF -- "$2"
}

# refused NAME WHAT: the configure failed with the refusal naming WHAT
refused() {
	configure "$1"
	if [ "$st" -ne 0 ] && said "$1" "$refusal" && said "$1" "$2"; then
		ok
	else
		fail "$1: configure exited $st without refusing '$2'"
		tail -20 "$work/$1.out" | sed 's/^/    /' >&2
	fi
}

toolchain aarch64 aarch64 ""
toolchain m32 host -m32
toolchain mx32 host -mx32
refused aarch64 'this target is aarch64 with 8-byte pointers'
refused m32 'with 4-byte pointers'
refused mx32 'with 4-byte pointers'

# The override passes the check, saying what it builds; the rest of the
# configure is not this test's (it may fail later on a foreign target).
configure aarch64 -DMLX5_SHARE_UNTESTED_ARCH=ON
if said aarch64 "$refusal"; then
	fail "MLX5_SHARE_UNTESTED_ARCH=ON: still refused"
elif ! said aarch64 \
	'MLX5_SHARE_UNTESTED_ARCH=ON: building for aarch64 with 8-byte'; then
	fail "MLX5_SHARE_UNTESTED_ARCH=ON: no warning that aarch64 is untested"
	tail -20 "$work/aarch64.out" | sed 's/^/    /' >&2
else
	ok
fi
finish
