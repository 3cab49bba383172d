#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs query_handle_core on rxe0 in the VM (tests/vm/vm_run.sh): with the
# modules build_modules.sh left in MODULES_WORK loaded in place of
# Debian's, or, with "-", on Debian's own kernel modules.  EXPECT is
# present or absent (the method).
#
# Usage: vm_query_handle.sh MODULES_WORK|- PROGRAM EXPECT VM_RUN_COMMAND...
set -eu
mods=$1 prog=$2 expect=$3
shift 3
if [ "$mods" = - ]; then
	exec "$@" -- "$prog" --expect="$expect" rxe0
fi
[ -e "$mods/kver" ] || {
	echo "SKIP vm_rxe_query_handle: no modules in $mods" \
		"(linux_612_modules skipped or failed)"
	exit 77
}
exec "$@" --modules "$mods/modules" -- "$prog" --expect="$expect" rxe0
