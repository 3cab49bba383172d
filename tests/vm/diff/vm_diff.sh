#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The differential suite (label vm): one program, run under mlx5-emu (one
# emulated device) and on rdma_rxe in Debian's kernel in QEMU
# (vm_run.sh), must print the same lines.  Each side's output is kept in
# WORK_DIR; a difference fails with both sides' lines.  The environment
# chooses the kernels: MLX5_EMU_HANDLES for mlx5-emu, VM_MODULES_DIR
# (vm_run.sh) for modules in place of Debian's, a skip when it names a
# folder without any.
# Usage: vm_diff.sh NAME MLX5_EMU VM_WORK WORK_DIR PROGRAM [ARGS...]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
name=$1 emu=$2 vmwork=$3
mkdir -p "$4"
W=$(cd "$4" && pwd)
shift 4
if [ -n "${VM_MODULES_DIR:-}" ] && ! ls "$VM_MODULES_DIR"/*.ko >/dev/null 2>&1
then
	echo "SKIP $name: no modules in $VM_MODULES_DIR (linux_612_modules skipped or failed)"
	exit 77
fi

"$emu" run --devices 1 -- "$@" >"$W/$name.emu.raw" 2>&1
rc=$?
grep -v '^== ' "$W/$name.emu.raw" >"$W/$name.emu"
[ "$rc" = 0 ] || { cat "$W/$name.emu.raw"; echo "FAIL: under mlx5-emu: exit $rc"; exit 1; }

sh "$HERE/../vm_run.sh" --work "$vmwork" -- "$@" >"$W/$name.vm.raw" 2>&1
rc=$?
if [ "$rc" = 77 ]; then
	grep '^SKIP' "$W/$name.vm.raw" | sed "s/^SKIPPED:/SKIP $name:/"
	exit 77
fi
grep -v '^== ' "$W/$name.vm.raw" >"$W/$name.vm"
[ "$rc" = 0 ] || { cat "$W/$name.vm.raw"; echo "FAIL: in the VM: exit $rc"; exit 1; }

if ! diff -u --label mlx5-emu --label "Linux (rdma_rxe)" \
	"$W/$name.emu" "$W/$name.vm"; then
	echo "FAIL: mlx5-emu and the kernel differ (lines above)"
	exit 1
fi
cat "$W/$name.vm"
echo "PASS: $(wc -l <"$W/$name.vm") lines, the same under mlx5-emu and on Linux $(grep -o 'kernel [^ ]*' "$W/$name.vm.raw" | head -n 1 | cut -d' ' -f2)"
