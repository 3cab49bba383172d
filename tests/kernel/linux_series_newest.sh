#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The Linux series (linux/patches, the rdma-next posting) against the
# newest kernel source Debian's archive offers, standing in for
# rdma-next:
#  1. a private apt configuration (WORK/apt: unstable and experimental
#     from the machine's own Debian archive, cmake/apt-private-config.sh;
#     nothing of the system's changed) finds the newest linux-source-N
#     and the linux-headers-*-amd64 of the same version, for its .config
#     and Module.symvers, and downloads both;
#  2. signs the series with a test identity and applies it with git am
#     to the source, then checkpatch.pl --strict of that tree on every
#     signed patch: no error, warning or check;
#  3. prepares that tree with Debian's .config and this system's gcc-12
#     (olddefconfig, modules_prepare): Debian builds those headers with
#     a newer gcc whose options gcc-12 refuses, so the packaged headers
#     cannot build modules here;
#  4. builds ib_core, ib_uverbs and the rest of drivers/infiniband/core
#     (the modules the series changes) in that tree with W=1 -Werror;
#  5. kernel-headers/rdma_uapi_compat.h against its patched uapi headers.
# The tree (2 GB) is made afresh each run and removed at the end, passed
# or failed, unless KERNEL_KEEP_TREES=1.
# Skipped where no Debian archive is configured or apt cannot download
# from unstable/experimental.
#
# Usage: linux_series_newest.sh SOURCE_DIR WORK_DIR [CC]
set -eu
NAME=kernel_series_newest
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
CC=${3:-cc}
. "$SRC/tests/kernel/kernel_lib.sh"
start=$(date +%s)

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
[ "$(id -u)" = 0 ] || skip "not root: cannot run apt-get update"
t "tools"
need_tools

t "the newest kernel source (private apt lists in $W/apt)"
A=$W/apt
why=$("$SRC/cmake/apt-private-config.sh" "$A" deb sid experimental 2>&1) ||
	{ [ $? -eq 77 ] && skip "$why"; fail "apt-private-config.sh: $why"; }
export APT_CONFIG="$A/apt.conf"
if [ -z "$(find "$A/lists" -name '*_Packages' -mmin -720 2>/dev/null)" ]
then
	apt-get update -qq >"$W/apt-update.log" 2>&1 ||
		skip "apt-get update of unstable/experimental failed"
fi
SP=$(apt-cache search --names-only '^linux-source-[0-9.]+$' |
	awk '{print $1}' | sort -V | tail -n 1)
[ -n "$SP" ] || skip "apt offers no linux-source-N in unstable/experimental"
ver() { apt-cache policy "$1" | awk '/Candidate:/ {print $2}'; }
V=$(ver "$SP")
HP=
for p in $(apt-cache search --names-only '^linux-headers-[0-9].*-amd64$' |
	   awk '{print $1}' | grep -v -e -cloud- -e -rt-); do
	[ "$(ver "$p")" = "$V" ] && HP=$p
done
[ -n "$HP" ] || skip "no linux-headers-*-amd64 of version $V"
echo "newest: $SP $V (config and symbols from $HP)"
download_once "$W/debs-newest" "$V" "$SP=$V" "$HP=$V" ||
	skip "cannot download $SP and $HP $V"
unset APT_CONFIG

t "sources (fresh in $W/tree-newest)"
T=$W/tree-newest
rm -rf "$T"
trap 'prune_trees "$T" "$W/hdr"' EXIT
extract_source "$W/debs-newest" "$T" all
t "sign and git am"
apply_series "$SRC/linux/patches" "$T" "$T"
t "checkpatch --strict"
checkpatch_series "$T"
t "rdma_uapi_compat.h against the patched uapi headers"
sh "$SRC/tests/kernel/uapi_compat_check.sh" "$SRC" "$T" "$CC" "$W"

t "prepare the tree (Debian's .config, gcc-12)"
rm -rf "$W/hdr"; dpkg -x "$W"/debs-newest/linux-headers-*.deb "$W/hdr"
cp "$W"/hdr/usr/src/linux-headers-*/.config "$T/.config"
cp "$W"/hdr/usr/src/linux-headers-*/Module.symvers "$T/Module.symvers"
K="CC=gcc-12 HOSTCC=gcc-12"
s=$(date +%s)
nice make -s -C "$T" $K olddefconfig >"$W/prepare.log" 2>&1 &&
	nice make -s -j"${KERNEL_JOBS:-1}" -C "$T" $K modules_prepare \
		>>"$W/prepare.log" 2>&1 ||
	{ tail -n 40 "$W/prepare.log"; fail "modules_prepare"; }
echo "  prepared in $(($(date +%s) - s)) s"

t "build (W=1, warnings are errors)"
# Only the core's modules: the series changes no driver, and on this base
# nothing is loaded (the VM boots 6.12), so the drivers' builds would
# repeat 6.12's check of the same unchanged driver code at CI's expense.
RDMA_MODULE_DIRS=core
build_rdma_modules "$T" "$T" $K
t "passed in $(($(date +%s) - start)) s"
