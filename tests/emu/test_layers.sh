#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5-emu's rooms depend downwards only: the firmware on nothing of the
# emulator, the kernel model on the firmware and the protocol's format
# (wire/wire.h), the transport (wire/) on nothing; only the daemon and
# the preload use the transport.  Checked in the sources (includes) and
# in the kernel model's library (no symbol of the transport, the preload
# or the daemon).
#   test_layers.sh SOURCE_DIR LIBEMU_KERNEL
set -u
src=${1:?source dir}
lib=${2:?libemu_kernel.a}
failed=0
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# includes: "name.h" of a room above, by room
above_kernel='"(wire_io|preload|channel|nldev|daemon|sysfs)\.h"'
above_wire='"(uverbs|emu_device|emu_ibdev|uapi_spec|fw|preload|channel|daemon)\.h"'
above_fw='"(uverbs|emu_device|wire|wire_io|preload|channel|daemon)\.h"'
check_room() { # ROOM PATTERN
	hits=$(grep -EHn "#include $2" "$src/emulator/$1"/*.[ch] 2>/dev/null)
	[ -z "$hits" ] || bad "$1 includes a room above it: $hits"
}
check_room kernel "$above_kernel"
check_room wire "$above_wire"
check_room firmware "$above_fw"
# the transport lives in wire/ only
for f in "$src"/emulator/kernel/wire*; do
	[ -e "$f" ] && bad "transport file in kernel/: $f"
done

# the kernel model's objects call nothing of the transport or above
if command -v nm >/dev/null 2>&1; then
	up=$(nm -u "$lib" | awk '{print $2}' |
		grep -E '^(emu_wire_|emu_spin_|emu_real|emu_chan_|emu_nl_|emu_daemon_)' |
		sort -u)
	[ -z "$up" ] || bad "libemu_kernel.a calls above itself: $up"
else
	echo "no nm: symbol check not made"
fi

echo "layers: $failed failed"
[ "$failed" -eq 0 ]
