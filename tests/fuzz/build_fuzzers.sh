#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Configures and builds the fuzzers: a sub-build of the whole tree with
# clang, ASan+UBSan everywhere and libFuzzer's coverage in every object,
# of which only the fuzz_* targets are built.
#
#   build_fuzzers.sh SOURCE_DIR BUILD_DIR CLANG
set -euo pipefail
src=$1
dir=$2
cc=$3
# libFuzzer's runtime ships apart from clang on some distributions.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ return d && n ? 0 : 0; }' >"$probe/p.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe/p.c" \
		-o "$probe/p" 2>"$probe/err"; then
	cat "$probe/err"
	echo "SKIPPED: fuzz-build: $cc cannot link -fsanitize=fuzzer" \
		"(libclang-rt-dev missing?)"
	exit 77
fi

cmake -S "$src" -B "$dir" -DCMAKE_C_COMPILER="$cc" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link" \
	-DMLX5_SHARE_SANITIZE=address,undefined \
	-DMLX5_SHARE_FUZZ=ON >"$dir.configure.log" 2>&1 || {
	cat "$dir.configure.log"
	exit 1
}
targets=$(cmake --build "$dir" --target help | sed -n 's/^\.\.\. \(fuzz_[a-z_]*\).*/\1/p')
echo "building: $targets"
# shellcheck disable=SC2086
cmake --build "$dir" -j2 --target $targets
