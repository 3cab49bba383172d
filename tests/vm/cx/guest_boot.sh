# Guest side of tests/vm/boot_loop.sh's count for cx_vm.sh: the kernel
# booted with the emulated function on its bus and both CPUs online.
n=$(grep -c '^processor' /proc/cpuinfo)
echo "guest: $n CPUs"
[ "$n" = 2 ] || { echo "FAIL: $n CPUs online, want 2"; exit 1; }
grep -l 0x15b3 /sys/bus/pci/devices/*/vendor >/dev/null ||
	{ echo "FAIL: no Mellanox function on the PCI bus"; exit 1; }
echo "PASS: booted"
