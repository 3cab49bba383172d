#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs handles_core on rxe0 in the VM (tests/vm/vm_run.sh): with the
# modules build_modules.sh left in MODULES_WORK loaded in place of
# Debian's, or, with "-", on Debian's own kernel modules.  EXPECT is
# unique (each handle number once per file) or lowest-free.
#
# Usage: vm_handles.sh MODULES_WORK|- PROGRAM EXPECT VM_RUN_COMMAND...
set -eu
mods=$1 prog=$2 expect=$3
shift 3
if [ "$mods" = - ]; then
	exec "$@" -- "$prog" --expect="$expect" rxe0
fi
[ -e "$mods/kver" ] || {
	echo "SKIP vm_rxe_handles: no modules in $mods" \
		"(linux_612_modules skipped or failed)"
	exit 77
}
exec "$@" --modules "$mods/modules" -- "$prog" --expect="$expect" rxe0
