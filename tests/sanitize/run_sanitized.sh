#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Builds the tree with one -fsanitize= set into its own directory and runs
# that build's tests of the given labels.
#
#   run_sanitized.sh SRC BUILD SANITIZERS LABELS INCLUDE EXCLUDE
# LABELS, INCLUDE and EXCLUDE are ctest -L, -R and -E regexes (INCLUDE
# may be empty).
set -euo pipefail
src=$1
build=$2
san=$3
labels=$4
include=$5
exclude=$6
name="sanitize-$san"

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int main(void) { return 0; }' >"$probe/p.c"
if ! ${CC:-cc} -fsanitize="$san" "$probe/p.c" -o "$probe/p" 2>/dev/null; then
	echo "SKIPPED: $name: the compiler cannot link -fsanitize=$san" \
		"(libasan/libubsan/libtsan missing)"
	exit 77
fi

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DMLX5_SHARE_SANITIZE="$san" >"$build.configure.log" 2>&1 || {
	cat "$build.configure.log"
	exit 1
}
cmake --build "$build" -j2 >"$build.build.log" 2>&1 || {
	tail -50 "$build.build.log"
	exit 1
}

# Any report is fatal: the build has -fno-sanitize-recover=all, ASan
# stops at its first error and LeakSanitizer (on by default) fails the
# exit.  ASAN_OPTIONS is left alone on purpose: the emulator's preload
# library comes before the ASan runtime in the link order, and mlx5-emu
# itself must set verify_asan_link_order=0 (were it not to, every emu test
# here would die at start-up: this run is the check that it does).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"

args=(--test-dir "$build" --output-on-failure --no-tests=error -L "$labels")
[ -n "$include" ] && args+=(-R "$include")
[ -n "$exclude" ] && args+=(-E "$exclude")
echo "ctest ${args[*]}"
ctest "${args[@]}"
