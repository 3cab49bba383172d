#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5-emu's method table against Linux 6.12's own declarations (test
# vm_uapi_table, no VM needed): the uverbs core's
# drivers/infiniband/core/uverbs_std_types*.c and mlx5's
# drivers/infiniband/hw/mlx5/*.c of Debian's linux-source-6.12 (the
# package the kernel label downloads: its cached .deb is used when that
# label ran first, else it is downloaded here), read by
# uapi_table_check.py and compared with what uapi_table_dump prints.
# With PATCHED_TREE (the tree tests/kernel/build_modules.sh patched with
# linux/patches-6.12 and built, fixture linux_612_modules), that tree is
# read instead and the series' own method (the core handle query) must
# match the emulator's too (test vm_uapi_table_series).
# Usage: uapi_table.sh SOURCE_DIR WORK_DIR UAPI_TABLE_DUMP CC [PATCHED_TREE]
set -eu
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
DUMP=$3
CC=${4:-cc}
skip() { echo "SKIPPED: $*"; exit 77; }

if [ $# -ge 5 ]; then
	[ -f "$5/drivers/infiniband/core/uverbs_std_types_device.c" ] ||
		skip "no patched tree in $5 (linux_612_modules skipped or failed)"
	command -v python3 >/dev/null || skip "no python3"
	"$DUMP" >"$W/emu_table.txt"
	cd "$5"
	exec python3 "$SRC/tests/vm/uapi_table_check.py" --series "$5" \
		"$W/emu_table.txt" "$W/gen" "$CC" \
		drivers/infiniband/core/uverbs_std_types*.c \
		drivers/infiniband/hw/mlx5/*.c
fi

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
command -v python3 >/dev/null || skip "no python3"
V=$(apt-cache policy linux-source-6.12 2>/dev/null |
	awk '/Candidate:/ {print $2}')
[ -n "$V" ] && [ "$V" != "(none)" ] ||
	skip "apt offers no linux-source-6.12 (bookworm-security)"
K=$W/source-$V
if [ ! -e "$K/.ok" ]; then
	deb=$(ls "$W"/../../kernel/work/debs-612/linux-source-6.12_"$V"_all.deb \
		2>/dev/null || true)
	if [ -z "$deb" ]; then
		mkdir -p "$W/deb"
		(cd "$W/deb" && apt-get download -q=2 "linux-source-6.12=$V" \
			2>&1 | grep -v unsandboxed || true)
		deb=$(ls "$W"/deb/linux-source-6.12_*.deb 2>/dev/null) ||
			skip "cannot download linux-source-6.12=$V"
	fi
	rm -rf "$W"/source-*; mkdir -p "$K"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO ./usr/src/linux-source-6.12.tar.xz |
		tar -xJ -C "$K" --strip-components=1 --wildcards \
			'linux-source-6.12/drivers/infiniband/core/uverbs_std_types*.c' \
			'linux-source-6.12/drivers/infiniband/hw/mlx5/*.c' \
			'linux-source-6.12/include/uapi/rdma/*' \
			'linux-source-6.12/include/linux/mlx5/mlx5_ifc*.h'
	rm -rf "$W/deb"
	touch "$K/.ok"
fi
echo "Linux $V"
"$DUMP" >"$W/emu_table.txt"
cd "$K"
python3 "$SRC/tests/vm/uapi_table_check.py" "$K" "$W/emu_table.txt" \
	"$W/gen" "$CC" drivers/infiniband/core/uverbs_std_types*.c \
	drivers/infiniband/hw/mlx5/*.c
