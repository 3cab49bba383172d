#!/bin/bash
# The import/export benchmark (mlx5-share-bench) on the real kernel in the
# VM with the emulated ConnectX function: once with the kernel series'
# modules (each handle number once per file, the verbs file's id
# reported) and once with Debian's own (neither).  A benchmark, not a
# test: it prints the two tables.
# Run it as `cmake --build build --target cx_bench` once cx_qemu_build
# and linux_612_modules have run (ctest -R 'cx_qemu_build|linux_612').
#
#   cx_bench.sh QEMU WORK MODULES_DIR BENCH [COUNTS]
#
# COUNTS: the bench's -n (default 1000,10000: TCG runs the guest many
# times slower than the host, so 100,000 objects take minutes).
set -euo pipefail
qemu=$1 work=$2 mods=$3 bench=$4
counts=${5:-1000,10000}
here=$(cd "$(dirname "$0")" && pwd)
for mode in series stock; do
	if [ "$mode" = series ]; then
		export CX_MODULES=$mods
	else
		unset CX_MODULES
	fi
	echo "== $mode modules"
	CX_TIMEOUT=1800 CX_RUN="$bench -n $counts%" \
		"$here/cx_vm.sh" "$qemu" "$work/bench-$mode" \
		"$here/guest_run.sh" "$bench" | grep -v '^\['
done
