#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Boots Debian's 6.12 kernel in QEMU with the initramfs base that
# vm_prepare.sh made, plus the programs to run, and runs them in the guest
# (tests/vm/README.md).  Each program is copied at its own path with the
# libraries ldd names, so the project's build runs there as it is.
#
# Usage: vm_run.sh [options] -- PROGRAM [ARGS...]
#        vm_run.sh [options] --cmds FILE   (one shell command a line)
# Options (environment variable in brackets):
#   --work DIR        the vm_prepare.sh work directory [VM_WORK]
#   --timeout S       kill QEMU after S seconds: failed [VM_TIMEOUT, 300]
#   --qemu BIN        the QEMU binary [VM_QEMU, qemu-system-x86_64]
#   --qemu-args ARGS  extra QEMU arguments, split at blanks [VM_QEMU_ARGS]
#   --modules DIR     load DIR/*.ko in place of Debian's modules of the
#                     same names (others go to extra/) [VM_MODULES_DIR]
#   --modprobe MODS   modules to load before anything else [VM_MODPROBE]
#   --no-rxe          do not bring rdma_rxe up on dummy0
#   --copy PATH       also copy PATH (a file, with its libraries)
#   --kernel DIR      boot DIR/bzImage, not Debian's kernel: the output of
#                     tests/kernel/build_debug_kernel.sh (DIR/kver, and
#                     DIR/lib/modules/KVER with modules.builtin, so that
#                     modprobe answers for its built-in drivers)
#                     [VM_KERNEL_DIR]
#   --strict-console  the kernel logs warnings to the console too
#                     (loglevel=5) and any report there fails the run
#                     (console_reports.sh) [VM_STRICT_CONSOLE=1]
# The accelerator is TCG with -cpu max, both vCPUs on one host thread
# (qemu_accel.sh says why; VM_TCG overrides it), or VM_ACCEL=kvm to try
# KVM (on these nested machines its boots stop in the kernel's
# decompressor); memory VM_MEM (1024 MiB), processors VM_SMP (2).
# Exit: the program's exit code (one program); for a list 0 when every
# command exited 0, 77 when every one exited 77, 1 otherwise; 77 when the
# base is missing (vm_prepare.sh skipped); 1 on a timeout or a guest that
# stopped before its last command, with the console's tail; 1 with
# "FAIL: guest kernel panic" and the panic's lines whenever the guest's
# kernel oopsed or panicked, whatever the program said; with
# --strict-console, 1 with "FAIL: guest kernel report" likewise.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/qemu_accel.sh"
work=${VM_WORK:-}
timeout=${VM_TIMEOUT:-300}
qemu=${VM_QEMU:-qemu-system-x86_64}
qemu_args=${VM_QEMU_ARGS:-}
modules=${VM_MODULES_DIR:-}
modprobe=${VM_MODPROBE:-}
kernel=${VM_KERNEL_DIR:-}
strict=${VM_STRICT_CONSOLE:-0}
rxe=1
copies=
cmds=
while [ $# -gt 0 ]; do
	case $1 in
	--work) work=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--qemu) qemu=$2; shift 2 ;;
	--qemu-args) qemu_args=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--modprobe) modprobe=$2; shift 2 ;;
	--no-rxe) rxe=0; shift ;;
	--copy) copies="$copies $2"; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--strict-console) strict=1; shift ;;
	--cmds) cmds=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "vm_run.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$work" ] || { echo "vm_run.sh: no --work (VM_WORK)" >&2; exit 2; }
[ -n "$cmds" ] || [ $# -gt 0 ] ||
	{ echo "vm_run.sh: no program and no --cmds" >&2; exit 2; }
if [ ! -e "$work/ready" ]; then
	echo "SKIPPED: no VM base in $work: $(cat "$work/skip" 2>/dev/null ||
		echo 'vm_prepare.sh has not run')"
	exit 77
fi
. "$work/ready"
PATH=$PATH:/usr/sbin:/sbin
if [ -n "$kernel" ]; then
	[ -z "$modules" ] ||
		{ echo "vm_run.sh: --modules is for Debian's kernel" >&2; exit 2; }
	if [ ! -f "$kernel/bzImage" ] || [ ! -f "$kernel/kver" ]; then
		echo "SKIPPED: no kernel in $kernel (the fixture that builds" \
			"it was skipped or failed)"
		exit 77
	fi
	VMLINUZ=$kernel/bzImage
	KVER=$(cat "$kernel/kver")
fi
command -v "$qemu" >/dev/null || { echo "SKIPPED: no $qemu"; exit 77; }

R=$(mktemp -d "$work/run.XXXXXX")
trap 'rm -rf "$R"' EXIT
O=$R/overlay
mkdir -p "$O/vm"
if [ -n "$cmds" ]; then
	grep -v '^[[:space:]]*#' "$cmds" >"$O/vm/cmds" || true
else
	# a program named by a relative path runs at its absolute one
	case $1 in
	/*) ;;
	*/*) [ -f "$1" ] && { p=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
		shift; set -- "$p" "$@"; } ;;
	esac
	for a in "$@"; do
		printf "'%s' " "$(printf %s "$a" | sed "s/'/'\\\\''/g")"
	done >"$O/vm/cmds"
	echo >>"$O/vm/cmds"
fi
printf 'VM_RXE=%s\nVM_MODPROBE="%s"\n' "$rxe" "$modprobe" >"$O/vm/conf"

# A file at its own path with the libraries ldd names, unless the base
# has it already.
copy() {
	f=$(readlink -f "$1")
	[ -f "$f" ] || { echo "vm_run.sh: no file $1" >&2; exit 2; }
	mkdir -p "$O$(dirname "$1")"
	cp -L "$f" "$O$1"
	for l in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
		[ -e "$BASE$l" ] || [ -e "$O$l" ] && continue
		mkdir -p "$O$(dirname "$l")"
		cp -L "$l" "$O$l"
	done
}
# The first word of each command, when it is a file here that the base
# does not have (/bin/sh there is busybox's).
for p in $(awk '{print $1}' "$O/vm/cmds" | tr -d "'") $copies; do
	case $p in
	/*) [ -f "$p" ] && [ ! -e "$BASE$p" ] && copy "$p" ;;
	*) ;;
	esac
done

if [ -n "$modules" ]; then
	# The base's module tree, these modules in place of Debian's, depmod
	# again: the later archive replaces the base's files in the guest.
	M=$O/lib/modules/$KVER
	mkdir -p "$O/lib/modules"
	cp -a "$BASE/lib/modules/$KVER" "$M"
	for ko in "$modules"/*.ko; do
		[ -f "$ko" ] || continue
		name=$(basename "$ko")
		dst=$(find "$M" -name "$name" | head -n 1)
		[ -n "$dst" ] || { mkdir -p "$M/extra"; dst=$M/extra/$name; }
		cp "$ko" "$dst"
	done
	depmod -b "$O" "$KVER"
fi
if [ -n "$kernel" ]; then
	mkdir -p "$O/lib/modules"
	cp -a "$kernel/lib/modules/$KVER" "$O/lib/modules/"
fi
(cd "$O" && find . | cpio -o -H newc --quiet | gzip -1) >"$R/overlay.cpio.gz"
cat "$BASE/../base.cpio.gz" "$R/overlay.cpio.gz" >"$R/initrd.gz"

accel=${VM_ACCEL:-$VM_TCG}
cpu=max
[ "$accel" = kvm ] && cpu=host
cmdline="console=ttyS0 quiet loglevel=4 panic=-1 oops=panic $VM_CLOCK_ARGS"
[ "$strict" = 1 ] &&
	cmdline="console=ttyS0 loglevel=5 panic=-1 oops=panic $VM_CLOCK_ARGS"
start=$(date +%s)
rc=0
# shellcheck disable=SC2086
timeout -k 5 "$timeout" "$qemu" -accel "$accel" -cpu "$cpu" \
	-m "${VM_MEM:-1024}" -smp "${VM_SMP:-2}" -nodefaults -display none \
	-no-reboot -serial "file:$R/console.log" -serial "file:$R/out.log" \
	-kernel "$VMLINUZ" -initrd "$R/initrd.gz" \
	-append "$cmdline" \
	$qemu_args </dev/null >"$R/qemu.log" 2>&1 || rc=$?
tr -d '\r' <"$R/out.log" 2>/dev/null | grep -v '^== vm: done$' || true
echo "== vm_run.sh: $(($(date +%s) - start)) s in QEMU ($accel)"
if [ "$strict" = 1 ]; then
	sh "$HERE/console_reports.sh" "$R/console.log" || exit 1
fi
sh "$HERE/console_panic.sh" "$R/console.log" || exit 1

tail_console() {
	echo "-- console tail:"
	tr -d '\r' <"$R/console.log" | tail -n 40
	tail -n 5 "$R/qemu.log"
}
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "FAIL: timeout after $timeout s"
	tail_console
	exit 1
fi
if ! grep -q '^== vm: done' "$R/out.log" 2>/dev/null; then
	echo "FAIL: the guest stopped early (QEMU exit $rc)"
	tail_console
	exit 1
fi
if grep -q '^== vm: setup failed' "$R/out.log"; then
	tail_console
	exit 1
fi
codes=$(tr -d '\r' <"$R/out.log" | awk '/^== vm: exit / {print $4}')
n=$(echo "$codes" | grep -c . || true)
[ "$n" -gt 0 ] || { echo "FAIL: no command ran"; exit 1; }
if [ "$n" = 1 ]; then
	exit "$codes"
fi
echo "$codes" | grep -qv '^0$' || exit 0
echo "$codes" | grep -qv '^77$' || exit 77
exit 1
