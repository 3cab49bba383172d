#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Prepares what every VM boot shares, once per build tree (label vm,
# fixture vm_base):
#  1. Debian's kernel image package, by name: linux-image-$ABI-amd64 at the
#     version of linux-source-6.12 that apt offers (the one the kernel
#     label compiles against), downloaded with apt-get download and unpacked
#     with dpkg -x (cached in WORK/image-VERSION, nothing is installed);
#  2. the initramfs base, WORK/base.cpio.gz: static busybox, kmod, ip,
#     rdma, the ibv_* tools, Debian's libibverbs and its providers, the
#     modules the guest loads (VM_MODULES and their dependencies, xz
#     decompressed since busybox and the guest's kmod read them as they
#     are) with their depmod files, and the guest's init (init.sh).
# WORK/ready names the kernel (kver, vmlinuz, modules tree) for vm_run.sh.
# Missing tools are installed when running as root (CI installs them from
# cmake/debian-packages-tests.txt); without them, or without a kernel image to
# download, it exits 77 and says why in WORK/skip, which vm_run.sh repeats.
#
# Usage: vm_prepare.sh SOURCE_DIR WORK_DIR
set -eu
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
rm -f "$W/ready" "$W/skip"
skip() { echo "SKIPPED: $*"; echo "$*" >"$W/skip"; exit 77; }
t() { echo "== $(date +%T) $*"; }

# The modules the guest can load, with what they depend on: rdma_rxe on a
# dummy netdev (crc32_generic is rxe's ICRC, which it finds by name, not
# by a symbol), the mlx5 pair for an emulated ConnectX, the uverbs users.
VM_MODULES=${VM_MODULES:-"dummy crc32_generic rdma_rxe ib_uverbs ib_umad
	rdma_ucm mlx5_core mlx5_ib"}

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
	skip "no apt-get/dpkg: not a Debian system"
missing=
for tool in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static \
	    cpio:cpio depmod:kmod ip:iproute2 rdma:iproute2 \
	    ibv_devinfo:ibverbs-utils xz:xz-utils; do
	PATH=$PATH:/usr/sbin:/sbin command -v "${tool%%:*}" >/dev/null ||
		missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || skip "missing$missing (not root: cannot install)"
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ apt-get update -qq &&
		  apt-get install -y -qq --no-install-recommends $missing \
			>/dev/null; } || skip "cannot install$missing"
fi
PATH=$PATH:/usr/sbin:/sbin
ldd "$(command -v busybox)" 2>&1 | grep -q 'not a dynamic' ||
	skip "busybox is not the static one (busybox-static)"

t "kernel image (cached in $W/image-*)"
V=$(apt-cache policy linux-source-6.12 2>/dev/null |
	awk '/Candidate:/ {print $2}')
if [ -z "$V" ] || [ "$V" = "(none)" ]; then
	[ "$(id -u)" = 0 ] && apt-get update -qq || true
	V=$(apt-cache policy linux-source-6.12 2>/dev/null |
		awk '/Candidate:/ {print $2}')
fi
[ -n "$V" ] && [ "$V" != "(none)" ] ||
	skip "apt offers no linux-source-6.12, so no matching kernel image"
KVER=${V%%-*}+deb12-amd64
IMG=$W/image-$V
if [ ! -e "$IMG/.ok" ]; then
	rm -rf "$W"/image-*; mkdir -p "$IMG"
	(cd "$IMG" && apt-get download -q=2 "linux-image-$KVER=$V" 2>&1 |
		grep -v unsandboxed || true)
	ls "$IMG"/linux-image-*.deb >/dev/null 2>&1 ||
		skip "cannot download linux-image-$KVER=$V"
	dpkg -x "$IMG"/linux-image-*.deb "$IMG/root"
	rm -f "$IMG"/linux-image-*.deb
	# The package leaves depmod to its postinst.
	depmod -b "$IMG/root" "$KVER"
	touch "$IMG/.ok"
fi
MODS=$IMG/root/lib/modules/$KVER
echo "kernel $KVER (Debian $V)"

t "initramfs base"
B=$W/base
rm -rf "$B"
mkdir -p "$B/bin" "$B/proc" "$B/sys" "$B/dev" "$B/tmp" "$B/run" \
	"$B/etc/libibverbs.d" "$B/lib/modules/$KVER"
cp "$(command -v busybox)" "$B/bin/busybox"
for a in $(busybox --list); do
	[ -e "$B/bin/$a" ] || ln -s busybox "$B/bin/$a"
done

# A program or library at its own path, with the libraries ldd names.
copy() {
	f=$(readlink -f "$1")
	mkdir -p "$B$(dirname "$1")"
	cp -L "$f" "$B$1"
	for l in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
		[ -e "$B$l" ] && continue
		mkdir -p "$B$(dirname "$l")"
		cp -L "$l" "$B$l"
	done
}
for p in kmod ip rdma ibv_devinfo ibv_devices ibv_rc_pingpong \
	 ibv_ud_pingpong; do
	copy "$(command -v $p)"
done
for m in modprobe insmod rmmod lsmod modinfo depmod; do
	ln -sf "$(command -v kmod)" "$B/bin/$m"
done
for l in /usr/lib/x86_64-linux-gnu/libibverbs/*.so; do
	copy "$l"
done
cp /etc/libibverbs.d/*.driver "$B/etc/libibverbs.d/"

for m in $VM_MODULES; do
	modprobe -d "$IMG/root" -S "$KVER" --show-depends "$m" ||
		skip "the kernel image has no module $m"
done | awk '$1 == "insmod" {print $2}' | sort -u | while read -r ko; do
	rel=${ko#"$MODS"/}
	mkdir -p "$B/lib/modules/$KVER/$(dirname "$rel")"
	cp "$ko" "$B/lib/modules/$KVER/$rel"
done
cp "$MODS"/modules.order "$MODS"/modules.builtin \
	"$MODS"/modules.builtin.modinfo "$B/lib/modules/$KVER/"
find "$B/lib/modules" -name '*.ko.xz' -exec xz -d {} +
depmod -b "$B" "$KVER"
cp "$SRC/tests/vm/init.sh" "$B/init"
chmod 755 "$B/init"
(cd "$B" && find . | cpio -o -H newc --quiet | gzip -1) >"$W/base.cpio.gz"
echo "base: $(du -sh "$B" | cut -f1) unpacked, $(du -h "$W/base.cpio.gz" |
	cut -f1) compressed"

cat >"$W/ready" <<READY
KVER=$KVER
DEBVER=$V
VMLINUZ=$IMG/root/boot/vmlinuz-$KVER
BASE=$B
READY
t "ready"
