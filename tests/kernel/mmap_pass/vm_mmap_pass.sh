#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Kernel series patch 3 on ib_core's own code: builds mmap_pass_test.ko
# (W=1 -Werror) against the work build_modules.sh left in MODULES_WORK,
# then loads it in the VM (tests/vm/vm_run.sh), where it checks the
# offsets rdma_user_mmap_entry_insert_range() gives:
#  - EXPECT "pass": against the series' tree and symbols, with the
#    series' modules loaded in place of Debian's;
#  - EXPECT "lowest-free": against Debian's own headers, symbols and
#    pristine source, on Debian's own modules.
# Exits 77 when MODULES_WORK holds no build (linux_612_modules skipped).
#
# Usage: vm_mmap_pass.sh SRC MODULES_WORK EXPECT WORK VM_RUN...
set -eu
NAME=vm_mmap_pass
[ $# -ge 5 ] ||
	{ echo "usage: $0 SRC MODULES_WORK EXPECT WORK VM_RUN..." >&2; exit 2; }
SRC=$(cd "$1" && pwd)
M=$2 expect=$3
mkdir -p "$4"
W=$(cd "$4" && pwd)
shift 4
HERE=$SRC/tests/kernel/mmap_pass
. "$SRC/tests/kernel/kernel_lib.sh"

[ -e "$M/kver" ] && [ -d "$M/tree-612" ] ||
	skip "no modules in $M (linux_612_modules skipped or failed)"
KVER=$(cat "$M/kver")
KH=$(ls -d "$M"/root-612/usr/src/linux-headers-*-amd64 | head -n 1)
case $expect in
pass)
	core=$M/tree-612/drivers/infiniband/core
	set -- "$@" --modules "$M/modules"
	extra="KBUILD_EXTRA_SYMBOLS=$core/Module.symvers"
	;;
lowest-free)
	core=$(ls -d "$M"/pristine-*/drivers/infiniband/core | head -n 1)
	extra=
	;;
*) fail "EXPECT is pass or lowest-free, not $expect" ;;
esac

t "build mmap_pass_test.ko ($expect) against $KH"
B=$W/build
rm -rf "$B"; mkdir -p "$B"
cp "$HERE/mmap_pass_test.c" "$HERE/Kbuild" "$B/"
# shellcheck disable=SC2086 # (extra is one word or none)
build_test_module "$B" mmap_pass_test IB_CORE_DIR="$core" $extra

t "VM: load it"
"$@" --copy "$B/mmap_pass_test.ko" -- "$HERE/mmap_pass_guest.sh" \
	"$B/mmap_pass_test.ko" "$expect"
