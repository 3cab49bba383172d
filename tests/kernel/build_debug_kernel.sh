#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Builds a debug kernel for the VM tests: Debian 12's newest
# linux-source-6.12 with the Linux series (linux/patches-6.12, whatever
# it holds) applied, configured from `make tinyconfig` plus
# tests/kernel/debug.config (KASAN, lockdep, RCU and sleep-in-atomic
# checks; PCI/MSI-X, ACPI, INET, ib_core/ib_uverbs, rdma_rxe, mlx5_core
# and mlx5_ib built in), no debug info:
#  1. downloads the packages as build_modules.sh does (kernel_lib.sh) and
#     unpacks the whole source once (WORK/pristine-all-VERSION);
#  2. links it into WORK/tree, signs the series and applies it (git am);
#  3. tinyconfig, the fragment merged, olddefconfig in WORK/obj, then
#     checks that every line of the fragment is in the .config, failing
#     with the names of those that are not;
#  4. builds bzImage (KERNEL_JOBS jobs, default 2) and installs the
#     module tree, which holds only modules.builtin and its friends, so
#     that kmod's modprobe answers for the built-in drivers;
#  5. writes WORK/out: bzImage, kver (its uname -r), config and
#     lib/modules/KVER, what the runners' --kernel option boots, and
#     removes the source, tree and objects (2 GB) unless
#     KERNEL_KEEP_TREES=1, with which a later series rebuilds only what
#     it touches.
# A second run reuses WORK/out while the key (source version, series,
# fragment, this script and kernel_lib.sh) is unchanged.  Exits 77 where
# the packages cannot be had.  Prints the build's wall and CPU time.
#
# Usage: build_debug_kernel.sh PROJECT_SOURCE_DIR WORK_DIR
set -eu
NAME=linux_612_debug_kernel
[ $# -eq 2 ] || { echo "usage: $0 PROJECT_SOURCE_DIR WORK_DIR" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
. "$SRC/tests/kernel/kernel_lib.sh"
FRAG=$SRC/tests/kernel/debug.config
start=$(date +%s)

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
t "tools"
need_tools
command -v depmod >/dev/null || PATH=$PATH:/usr/sbin:/sbin
command -v depmod >/dev/null || skip "no depmod (kmod)"
t "download (cached beside $W)"
fetch_612
echo "kernel source: Debian $V"

key=$( (echo "$V"; ls "$SRC"/linux/patches-6.12/*.patch |
	grep -v '/0000-cover-letter\.patch$' | xargs cat;
	cat "$FRAG" "$SRC/tests/kernel/kernel_lib.sh" "$0") |
	sha256sum | cut -c1-16)
if [ "$(cat "$W/out/.key" 2>/dev/null)" = "$key" ] &&
   [ -f "$W/out/bzImage" ]; then
	echo "reused: $W/out ($(cat "$W/out/kver"), key $key)"
	exit 0
fi
rm -rf "$W/out"

t "sources (cached in $W/pristine-all-$V)"
[ -e "$W/pristine-all-$V/.ok" ] || rm -rf "$W"/pristine-all-*
extract_source "$DEBS" "$W/pristine-all-$V" all
# The files the previous series touched: a fresh copy gives them back
# their pristine (older) times, which make would take for "built".
T=$W/tree
old=
[ -d "$T/.git" ] && old=$(git -C "$T" diff --name-only base HEAD 2>/dev/null ||
	true)
t "sign and git am"
# a copy of hard links: git am replaces each file it patches with a new
# one (unlink, then create), and the build writes only into WORK/obj
rm -rf "$T"
cp -al "$W/pristine-all-$V" "$T"
apply_series "$SRC/linux/patches-6.12" "$T" "$T"
for f in $old; do
	[ -e "$T/$f" ] && touch "$T/$f"
done

t "config: tinyconfig + $(basename "$FRAG"), olddefconfig"
O=$W/obj
mkdir -p "$O"
MK="make -s -C $T O=$O"
$MK tinyconfig >"$W/config.log" 2>&1 ||
	{ cat "$W/config.log"; fail "make tinyconfig"; }
sh "$T/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" "$FRAG" \
	>>"$W/config.log" 2>&1 ||
	{ cat "$W/config.log"; fail "merge_config.sh"; }
$MK olddefconfig >>"$W/config.log" 2>&1 ||
	{ cat "$W/config.log"; fail "make olddefconfig"; }
lost=
for line in $(grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$FRAG" |
	sed 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/' | tr ' ' '@'); do
	opt=${line%%=*}
	want=$(echo "${line#*=}" | tr '@' ' ')
	have=$(sed -n "s/^$opt=//p" "$O/.config")
	[ -n "$have" ] || have=n
	[ "$have" = "$want" ] || lost="$lost $opt=$want(got $have)"
done
[ -z "$lost" ] || fail "olddefconfig dropped:$lost"
echo "  every option of $(basename "$FRAG") is set"

# (LOCALVERSION= set, even empty: the release is 6.12.N-dbg, without
# the "+" setlocalversion adds for a source tree in git)
t "build bzImage (${KERNEL_JOBS:-2} jobs)"
b=$(date +%s)
nice make -s -j"${KERNEL_JOBS:-2}" -C "$T" O="$O" LOCALVERSION= all \
	>"$W/build.log" 2>&1 ||
	{ tail -n 60 "$W/build.log"; fail "the kernel does not build"; }
echo "  built in $(($(date +%s) - b)) s"

t "collect"
rm -rf "$W/out.new"
mkdir -p "$W/out.new"
make -s -C "$T" O="$O" LOCALVERSION= \
	INSTALL_MOD_PATH="$W/out.new" modules_install \
	>>"$W/build.log" 2>&1 || { tail -n 20 "$W/build.log"; fail "modules_install"; }
kver=$(cat "$O/include/config/kernel.release")
[ -f "$W/out.new/lib/modules/$kver/modules.builtin" ] ||
	fail "no modules.builtin for $kver"
cp "$O/arch/x86/boot/bzImage" "$O/.config" "$W/out.new/"
mv "$W/out.new/.config" "$W/out.new/config"
echo "$kver" >"$W/out.new/kver"
echo "$key" >"$W/out.new/.key"
mv "$W/out.new" "$W/out"
echo "  $W/out: bzImage $(du -h "$W/out/bzImage" | cut -f1), kver $kver"
prune_trees "$W/pristine-all-$V" "$T" "$O"
t "done in $(($(date +%s) - start)) s; CPU (user, system) of this" \
	"script, then of its children:"
times
