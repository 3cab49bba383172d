#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Compiles kernel-headers/rdma_uapi_compat_check.c against the uapi
# headers of a patched kernel TREE with CC, taking from those headers
# every constant rdma_uapi_compat.h supplies that they have
# (-DHAVE_<NAME>), so that its _Static_asserts compare the file's values
# with the kernel's.  The series' own constants (SERIES_CONSTANTS) must
# be among them; the others the headers lack (ids of other kernels) are
# listed.
#
# Usage: uapi_compat_check.sh PROJECT_SOURCE_DIR TREE CC WORK_DIR
set -eu
[ $# -eq 4 ] || { echo "usage: $0 SRC TREE CC WORK_DIR" >&2; exit 2; }
SRC=$1 tree=$2 cc=$3 W=$4
SERIES_CONSTANTS="UVERBS_ATTR_QUERY_CONTEXT_FILE_ID"
fail() { echo "FAIL: $*"; exit 1; }

U=$W/uapi
rm -rf "$U"; mkdir -p "$U/rdma"
cp "$tree"/include/uapi/rdma/*.h "$U/rdma/"
have= lack=
for c in $(sed -n 's/^#ifndef HAVE_\([A-Z0-9_]*\)$/\1/p' \
	   "$SRC/kernel-headers/rdma_uapi_compat.h"); do
	printf '%s\n%s\nint main(void) { return (int)%s; }\n' \
		'#include <rdma/ib_user_ioctl_cmds.h>' \
		'#include <rdma/mlx5_user_ioctl_cmds.h>' "$c" >"$W/have.c"
	if "$cc" -I"$U" -o /dev/null "$W/have.c" 2>/dev/null; then
		have="$have -DHAVE_$c"
	else
		lack="$lack $c"
	fi
done
for c in $SERIES_CONSTANTS; do
	case "$have " in
	*" -DHAVE_$c "*) ;;
	*) fail "the patched headers lack $c" ;;
	esac
done
"$cc" -std=c11 -Wall -Wextra -Werror $have -I"$U" -I"$SRC/kernel-headers" \
	-c -o /dev/null "$SRC/kernel-headers/rdma_uapi_compat_check.c" ||
	fail "kernel-headers/rdma_uapi_compat.h differs from the series"
echo "  compared:$have"
[ -z "$lack" ] || echo "  not in these headers:$lack"
