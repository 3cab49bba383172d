#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The figures behind kernel series v3's rule "never give a handle number
# twice in a file" (linux/xarray-figures.md):
#  1. builds xa_handles_bench.ko out of tree against Debian's
#     linux-headers of the kernel the VM boots (the DEBVER of the VM
#     work's ready file; apt-get download, nothing installed, cached in
#     WORK), W=1 -Werror;
#  2. boots the VM once: the module measures both allocation rules and
#     fails to load when one of its checks fails, then pd_pair_rate times
#     ibv_alloc_pd+ibv_dealloc_pd pairs on rxe0 (TCG).
# Fails when the module does not build or a check fails; exits 77 where
# the VM base or the headers cannot be had.
#
# Usage: vm_xarray_handles.sh SRC WORK VM_WORK PD_PAIR_RATE VM_RUN...
set -eu
NAME=vm_xarray_handles
[ $# -ge 5 ] ||
	{ echo "usage: $0 SRC WORK VM_WORK PD_PAIR_RATE VM_RUN..." >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
VM_WORK=$3 PD=$4
shift 4
HERE=$SRC/tests/kernel/xa_handles
. "$SRC/tests/kernel/kernel_lib.sh"

[ -e "$VM_WORK/ready" ] || skip "no VM base in $VM_WORK (vm_base skipped)"
. "$VM_WORK/ready"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
t "tools"
need_tools
t "headers of $KVER (Debian $DEBVER, cached in $W/debs)"
ABI=${DEBVER%%-*}+deb12
get_headers() {
	download_once "$W/debs" "$DEBVER" \
		"linux-headers-$ABI-amd64=$DEBVER" \
		"linux-headers-$ABI-common=$DEBVER" \
		"linux-kbuild-$ABI=$DEBVER"
}
if ! get_headers; then
	[ "$(id -u)" = 0 ] ||
		skip "cannot download the headers of $DEBVER (not root: cannot apt-get update)"
	apt-get update -qq || skip "apt-get update failed"
	get_headers || skip "apt offers no linux-headers-$ABI-amd64=$DEBVER"
fi
unpack_headers "$W/debs" "$W/root"

t "build (W=1, warnings are errors)"
B=$W/build
rm -rf "$B"; mkdir -p "$B"
cp "$HERE/xa_handles_bench.c" "$HERE/Kbuild" "$B/"
build_test_module "$B" xa_handles_bench

t "VM: the module, then PD pairs on rxe0"
"$@" --timeout "${VM_TIMEOUT:-900}" --copy "$B/xa_handles_bench.ko" \
	--copy "$PD" -- "$HERE/xa_handles_guest.sh" \
	"$B/xa_handles_bench.ko" "$PD" "${PD_PAIRS:-100000}"
