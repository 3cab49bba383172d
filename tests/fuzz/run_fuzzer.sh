#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs one fuzzer for a bounded time from the committed seeds.  New inputs
# go to a scratch corpus in the build tree (never into the source tree);
# a crash leaves its input there as crash-* and fails the test.
#
#   run_fuzzer.sh FUZZER SEED_DIR WORK_DIR SECONDS [extra libFuzzer args]
set -euo pipefail
fuzzer=$1
seeds=$2
work=$3
secs=$4
shift 4
name=$(basename "$fuzzer")
if [ ! -x "$fuzzer" ]; then
	echo "SKIPPED: $name: not built (clang or libFuzzer missing:" \
		"see the fuzz-build test)"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work/corpus"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# libFuzzer's own error exit code is 77, which ctest takes as "skipped".
"$fuzzer" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -artifact_prefix="$work/" "$@" \
	"$work/corpus" "$seeds"
