#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Configures the tree with one -fsanitize= set in its own directory,
# builds there what that build's tests of the given labels run (the whole
# tree where ninja is missing) and runs them.
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

args=(--test-dir "$build" --output-on-failure --no-tests=error -L "$labels")
[ -n "$include" ] && args+=(-R "$include")
[ -n "$exclude" ] && args+=(-E "$exclude")

# Ninja, so that the build is of what the selected tests run and no more
# (test_outputs.py: the programs and files their commands name, and the
# emulator's preload library, which mlx5-emu loads by path): the rest of
# the tree, no test of this run executes, compiled instrumented, would be
# work no check reads (the main build compiles all of it with -Werror).
gen=()
if command -v ninja >/dev/null; then
	gen=(-GNinja)
	# a tree an earlier run configured with Makefiles cannot switch
	grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build/CMakeCache.txt" ||
		rm -rf "$build"
fi
cmake -S "$src" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DMLX5_SHARE_SANITIZE="$san" >"$build.configure.log" 2>&1 || {
	cat "$build.configure.log"
	exit 1
}
targets=()
if [ ${#gen[@]} != 0 ]; then
	list=$(ctest "${args[@]}" --show-only=json-v1 |
		/usr/bin/python3 "$(dirname "$0")/test_outputs.py" "$build" \
			mlx5-emu-preload) || exit 1
	mapfile -t targets <<<"$list"
	echo "building the ${#targets[@]} outputs the selected tests run"
fi
cmake --build "$build" -j2 ${targets[@]:+--target "${targets[@]}"} \
	>"$build.build.log" 2>&1 || {
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

echo "ctest ${args[*]}"
ctest "${args[@]}"
