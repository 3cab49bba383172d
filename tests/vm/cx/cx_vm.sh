#!/bin/bash
# Boots Debian's own 6.12 kernel in QEMU (TCG) with the emulated ConnectX
# function (emulator/qemu-device) on its PCIe bus, and runs a guest script.
#
#   cx_vm.sh QEMU WORK GUEST_SCRIPT [FILE...]
#
# QEMU: the qemu-system-x86_64 built by emulator/qemu-device/build_qemu.sh.
# WORK: this run's folder; what is left there is its console.log.
# CX_CACHE (default WORK/../guest-cache): Debian's kernel package and its
# modules, unpacked once and shared by every run that names the same
# folder (under flock: ctest may start two at once).
# GUEST_SCRIPT: a shell script run as root in the guest after the
# modules are loaded; FILE...: host programs and libraries copied in at the
# same paths with what ldd says they load, or folders copied whole (exit
# 77 when one is missing: a fixture that made it was skipped).  CX_FUNCTIONS (default 1)
# emulated functions; CX_PORT their port type (ib, the default, or eth);
# CX_CABLE (eth only): "loopback" loops each function's port to itself,
# "pair" joins functions 1 and 2 (3 and 4, ...) back to back, unset: no
# cable, no link;
# CX_TRACE=1 prints every command the device runs;
# CX_TIMEOUT (default 240) seconds before the guest is killed;
# CX_MODULES, a folder of .ko files loaded in place of Debian's modules of
# the same names (exit 77 when it holds none); CX_RUN, a
# command line the guest script reads from /run.args (guest_run.sh runs
# it); CX_KERNEL, a folder from tests/kernel/build_debug_kernel.sh
# (bzImage, kver, lib/modules/KVER with modules.builtin): that kernel
# boots in place of Debian's, with no module to load (exit 77 when it
# holds no bzImage); CX_STRICT_CONSOLE=1: the kernel logs warnings to
# the console too (loglevel=5) and any report there fails the run
# (console_reports.sh).
# Exit: the guest script's status; 77 when QEMU or the kernel cannot be
# had; 124 on a timeout (the console's tail is printed); 1 with "FAIL:
# guest kernel panic" and the panic's lines whenever the guest's kernel
# oopsed or panicked, whatever the script said; with CX_STRICT_CONSOLE=1,
# 1 with "FAIL: guest kernel report" likewise.
set -euo pipefail
qemu=$1 work=$2 script=$3
vm=$(cd "$(dirname "$0")/.." && pwd)
. "$vm/qemu_accel.sh"
shift 3
mkdir -p "$work"
work=$(cd "$work" && pwd)

for f in "$@"; do
	if [ ! -e "$f" ]; then
		echo "SKIP cx_vm: $f is missing (the fixture that makes it" \
			"was skipped or failed)"
		exit 77
	fi
done
if [ ! -x "$qemu" ]; then
	echo "SKIP cx_vm: no QEMU with the emulated function ($qemu)"
	exit 77
fi
if [ -n "${CX_KERNEL:-}" ]; then
	if [ -n "${CX_MODULES:-}" ]; then
		echo "cx_vm: CX_MODULES is for Debian's kernel, not CX_KERNEL" >&2
		exit 2
	fi
	if [ ! -f "$CX_KERNEL/bzImage" ] || [ ! -f "$CX_KERNEL/kver" ]; then
		echo "SKIP cx_vm: no kernel in $CX_KERNEL (the fixture that" \
			"builds it was skipped or failed)"
		exit 77
	fi
fi
kpkg=
[ -n "${CX_KERNEL:-}" ] ||
	kpkg=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' |
		awk '{print $1}' | sort -V | tail -1)
if [ -z "$kpkg" ] && [ -z "${CX_KERNEL:-}" ]; then
	echo "SKIP cx_vm: apt knows no linux-image-6.12 package"
	exit 77
fi
kver=${kpkg#linux-image-}
cache=${CX_CACHE:-$(dirname "$work")/guest-cache}
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
kdir=$cache/kernel
vmlinuz=$kdir/root/boot/vmlinuz-$kver
if [ -n "${CX_KERNEL:-}" ]; then
	kver=$(cat "$CX_KERNEL/kver")
	vmlinuz=$CX_KERNEL/bzImage
elif [ ! -e "$kdir/.ok-$kver" ]; then
	rm -rf "$kdir"
	mkdir -p "$kdir"
	if ! (cd "$kdir" && apt-get download -q "$kpkg" >/dev/null 2>&1 &&
	      dpkg -x ./*.deb root && rm -f ./*.deb); then
		echo "SKIP cx_vm: $kpkg cannot be downloaded"
		exit 77
	fi
	touch "$kdir/.ok-$kver"
fi
root=$kdir/root

# The initramfs: busybox, kmod, the mlx5 and RDMA modules decompressed
# (busybox cannot read .ko.xz), the guest script and the files asked for.
img=$(mktemp -d "$work/initramfs.XXXXXX")
trap 'rm -rf "$img"' EXIT
mkdir -p "$img"/{bin,proc,sys,dev,tmp,etc/libibverbs.d,lib/modules/$kver}
cp "$(command -v busybox)" "$img/bin/"
for a in sh mount ls cat echo poweroff sleep grep dmesg head tail seq \
	 mkdir rm kill ps wc cut tr sed test true false awk; do
	ln -sf busybox "$img/bin/$a"
done
if [ -n "${CX_KERNEL:-}" ]; then
	# every driver is built in: modules.builtin is all modprobe reads
	cp -a "$CX_KERNEL/lib/modules/$kver" "$img/lib/modules/"
else
	# (the cache is remade when this list changes)
	mods=$cache/modules-$kver
	modlist="kernel/drivers/infiniband kernel/drivers/net/ethernet/mellanox
		kernel/net kernel/lib kernel/crypto kernel/drivers/pci
		kernel/drivers/ptp kernel/drivers/pps
		kernel/drivers/net/dummy.ko.xz kernel/drivers/net/veth.ko.xz"
	if [ "$(cat "$mods/.ok" 2>/dev/null)" != "$modlist" ]; then
		rm -rf "$mods"
		mkdir -p "$mods/lib/modules/$kver"
		# shellcheck disable=SC2086 # (the list is words)
		(cd "$root/lib/modules/$kver" &&
		 find $modlist -name '*.ko.xz' |
			cpio -pdm --quiet "$mods/lib/modules/$kver")
		cp "$root/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} \
			"$mods/lib/modules/$kver/"
		find "$mods" -name '*.xz' -exec xz -d {} +
		printf '%s' "$modlist" >"$mods/.ok"
	fi
	cp -a "$mods/lib" "$img/"
fi
flock -u 9
# Modules that replace Debian's (CX_MODULES: a folder of .ko files)
if [ -n "${CX_MODULES:-}" ]; then
	if ! ls "$CX_MODULES"/*.ko >/dev/null 2>&1; then
		echo "SKIP cx_vm: no modules in $CX_MODULES" \
			"(linux_612_modules skipped or failed)"
		exit 77
	fi
	mkdir -p "$img/lib/modules/$kver/updates"
	cp "$CX_MODULES"/*.ko "$img/lib/modules/$kver/updates/"
fi
depmod -b "$img" "$kver"

copy() {	# a file and the libraries it loads, at the same paths
	local f l
	if [ -d "$1" ]; then
		mkdir -p "$img$1"
		cp -a "$1/." "$img$1/"
		return
	fi
	f=$(readlink -f "$1")
	mkdir -p "$img$(dirname "$1")"
	cp "$f" "$img$1"
	# each library at its real name too, the loaded name a link to it:
	# the project's libmlx5 guard reads the version from the real name
	for l in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
		local r
		r=$(readlink -f "$l")
		[ -e "$img$l" ] && continue
		mkdir -p "$img$(dirname "$l")" "$img$(dirname "$r")"
		cp "$r" "$img$r"
		[ "$r" = "$l" ] || ln -sf "$r" "$img$l"
	done
}
for p in /usr/bin/kmod /usr/bin/rdma /usr/bin/ibv_devinfo \
	 /usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so "$@"; do
	copy "$p"
done
ln -sf /usr/bin/kmod "$img/bin/modprobe"
ln -sf /usr/bin/kmod "$img/bin/lsmod"
cp /etc/libibverbs.d/mlx5.driver "$img/etc/libibverbs.d/"
cp "$script" "$img/guest.sh"
# dmesg lines the guest checks pass over: the model's known gaps
cp "$(dirname "$0")/known_gaps.txt" "$img/known.txt"
printf '%s\n' "${CX_RUN:-}" >"$img/run.args"

cat >"$img/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin:/usr/bin:/sbin:/usr/sbin
echo "== guest: $(uname -r)"
sh /guest.sh
echo "== guest: exit $?"
poweroff -f
INIT
chmod +x "$img/init"
(cd "$img" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

devs=()
n=${CX_FUNCTIONS:-1}
for i in $(seq 1 "$n"); do
	case ${CX_CABLE:-} in
	loopback) cable=,cable=loopback ;;
	pair) cable=,cable=cable$(((i - 1) / 2)) ;;
	*) cable= ;;
	esac
	devs+=(-device "mlx5-cx,node-guid=0x0002c90300abcd0$((i - 1)),port-type=${CX_PORT:-ib}$cable,trace=${CX_TRACE:-off}")
done
log=$work/console.log
loglevel=4
[ "${CX_STRICT_CONSOLE:-0}" = 1 ] && loglevel=5
cmdline="console=ttyS0 panic=-1 oops=panic loglevel=$loglevel $VM_CLOCK_ARGS"
set +e
# KVM stops with an emulation failure on these (nested) machines: TCG.
timeout "${CX_TIMEOUT:-240}" "$qemu" -L /usr/share/qemu -L /usr/share/seabios \
	-machine q35 -accel "$VM_TCG" -cpu max -m 2048 -smp 2 -nodefaults \
	-display none -serial stdio -no-reboot "${devs[@]}" \
	-kernel "$vmlinuz" -initrd "$work/initramfs.gz" \
	-append "$cmdline" 2>&1 |
	tr -d '\r' >"$log"
rc=${PIPESTATUS[0]}
set -e
rm -f "$work/initramfs.gz"
sed -n '/^== guest: exit/q;/^== guest/,$p' "$log"
if [ "${CX_STRICT_CONSOLE:-0}" = 1 ]; then
	sh "$vm/console_reports.sh" "$log" || exit 1
fi
sh "$vm/console_panic.sh" "$log" || exit 1
if [ "$rc" = 124 ]; then
	echo "cx_vm: guest killed after ${CX_TIMEOUT:-240} s; console tail:"
	tail -40 "$log"
	exit 124
fi
st=$(sed -n 's/^== guest: exit \([0-9]*\)$/\1/p' "$log" | tail -1)
if [ -z "$st" ]; then
	echo "cx_vm: the guest ended without a status (qemu rc $rc); console tail:"
	tail -40 "$log"
	exit 1
fi
exit "$st"
