#!/bin/bash
# Builds QEMU 7.2 from Debian 12's own source package with the emulated
# ConnectX function (this folder) linked in, into OUT:
#
#   build_qemu.sh OUT EMU_FW_LIB INCLUDE_DIR...
#
# OUT/bin/qemu-system-x86_64 is the result.  The source package is
# downloaded once (a private deb-src list from the machine's own Debian
# archive, cmake/apt-private-config.sh: the system's apt sources are not
# touched) and unpacked once; later runs only rebuild what changed
# (ninja), so the ctest fixture that calls this costs the full build once
# per build tree.  Prints "SKIP" and exits 77 when the source package
# cannot be had (no Debian archive configured, no network).
set -euo pipefail
out=$1 fwlib=$(readlink -f "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
t0=$(date +%s)

# 1. the source package, downloaded and unpacked privately
src=$out/src
if [ ! -e "$src/.unpacked" ]; then
	apt=$out/apt
	mkdir -p "$apt/dl"
	why=$("$here/../../cmake/apt-private-config.sh" "$apt" deb-src \
		bookworm bookworm-updates bookworm-security 2>&1) || {
		st=$?
		[ $st -eq 77 ] && echo "SKIP qemu_build: $why"
		exit $st
	}
	# (a suite the machine has no archive for is left out, and said)
	[ -z "$why" ] || echo "qemu_build: $why"
	export APT_CONFIG=$apt/apt.conf
	if ! apt-get update -qq >/dev/null 2>&1 ||
	   ! (cd "$apt/dl" && apt-get source -qq --download-only qemu \
		>/dev/null 2>&1); then
		echo "SKIP qemu_build: Debian's qemu source package cannot be downloaded"
		exit 77
	fi
	rm -rf "$src"
	# (apt checked the files against the signed Release; dpkg-source has
	# no keyring for the .dsc itself and says so: its log is kept)
	dpkg-source -x "$apt"/dl/qemu_*.dsc "$src" >"$out/dpkg-source.log" 2>&1
	# The dfsg tarball has no firmware blobs; the guest boots with the
	# system's SeaBIOS (qemu-system-data, seabios), so nothing is unpacked.
	sed -i 's/^    unpack_edk2_blobs = bzip2.found()/    unpack_edk2_blobs = false/' \
		"$src/meson.build"
	touch "$src/.unpacked"
fi

# 2. the device, compiled in QEMU's tree from this folder (absolute
# paths: nothing is copied), with the firmware library linked in
inc=""
for d in "$@"; do inc="$inc, '-I$d'"; done
# (rewritten only when it changes: a new meson.build makes meson
# regenerate, which recompiles a fifth of QEMU)
glue=$src/hw/misc/meson.build
sed '/^# mlx5-cx begin/,/^# mlx5-cx end/d' "$glue" >"$glue.new"
cat >>"$glue.new" <<MESON
# mlx5-cx begin
mlx5_cx_fw = declare_dependency(compile_args: ['-I$here'$inc],
	link_args: ['$fwlib', '-lpthread'])
softmmu_ss.add(when: 'CONFIG_PCI', if_true: [files(
	'$here/cx_pci.c',
	'$here/cx_cmdq.c',
	'$here/cx_eq.c',
	'$here/cx_hca.c',
	'$here/cx_port.c',
	'$here/cx_wq.c',
	'$here/cx_tx.c',
	'$here/cx_rx.c',
	'$here/cx_frame.c'), mlx5_cx_fw])
# mlx5-cx end
MESON
if cmp -s "$glue" "$glue.new"; then
	rm "$glue.new"
else
	mv "$glue.new" "$glue"
fi

# 3. configure once: one target, no default devices (the pc/q35 boards
# select what they need), no tools, no docs
b=$out/build
if [ ! -e "$b/build.ninja" ]; then
	mkdir -p "$b"
	(cd "$b" && "$src/configure" --prefix="$out" \
		--target-list=x86_64-softmmu --without-default-devices \
		--disable-docs --disable-tools --disable-user \
		--disable-guest-agent --disable-werror --disable-xen \
		--disable-slirp --disable-gtk --disable-sdl --disable-vnc \
		--disable-opengl --disable-capstone \
		--disable-install-blobs >"$out/configure.log" 2>&1) || {
		tail -20 "$out/configure.log"; exit 1; }
fi
# The firmware library is outside ninja's view: relink when it changed.
if [ -e "$b/qemu-system-x86_64" ] && [ "$fwlib" -nt "$b/qemu-system-x86_64" ]; then
	rm -f "$b/qemu-system-x86_64"
fi
ninja -C "$b" -j"${CX_QEMU_JOBS:-2}" qemu-system-x86_64 >"$out/ninja.log" 2>&1 || {
	grep -B2 -A20 'FAILED\|error' "$out/ninja.log" | head -60; exit 1; }
mkdir -p "$out/bin"
ln -sf "$b/qemu-system-x86_64" "$out/bin/qemu-system-x86_64"
echo "qemu_build: $out/bin/qemu-system-x86_64 ($(( $(date +%s) - t0 )) s)"
