#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The Linux series for Debian 12 (linux/patches-6.12) against the newest
# linux-source-6.12 of bookworm-security, without building a kernel:
#  1. build_modules.sh signs it with a test identity, applies it with
#     git am and builds the modules it changes or forces to rebuild
#     (ib_core, ib_uverbs and the rest of drivers/infiniband/core,
#     mlx5_ib, rdma_rxe) with W=1 -Werror; when the linux_612_modules
#     fixture already did, its work is reused;
#  2. checkpatch.pl --strict of that tree on every signed patch: no
#     error, warning or check;
#  3. kernel-headers/rdma_uapi_compat.h against the patched uapi headers
#     (uapi_compat_check.sh).
# Skipped where build_modules.sh is (no apt, no bookworm-security).
#
# Usage: linux_series.sh SOURCE_DIR WORK_DIR [CC]
set -eu
NAME=kernel_series
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
CC=${3:-cc}
. "$SRC/tests/kernel/kernel_lib.sh"
start=$(date +%s)

rc=0
sh "$SRC/tests/kernel/build_modules.sh" "$SRC" "$W" || rc=$?
[ $rc = 77 ] && skip "build_modules.sh skipped (see above)"
[ $rc = 0 ] || fail "build_modules.sh"

t "checkpatch --strict"
checkpatch_series "$W/tree-612"
t "rdma_uapi_compat.h against the patched uapi headers"
sh "$SRC/tests/kernel/uapi_compat_check.sh" "$SRC" "$W/tree-612" "$CC" \
	"$W"
t "passed in $(($(date +%s) - start)) s"
