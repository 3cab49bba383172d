# Guest side of cx_core_probe: mlx5_core probes the emulated function.
# Passes when the probe completed (the PCI driver bound), the command
# EQ's interrupt fired (events-mode commands completed by EQE + MSI-X)
# and the kernel logged no command timeout or failure.
modprobe mlx5_core || { echo "FAIL: modprobe mlx5_core"; exit 1; }
sleep 1
dmesg | grep -i mlx5
fail=0
dev=$(ls /sys/bus/pci/drivers/mlx5_core/ 2>/dev/null | grep '^0000:' | head -1)
if [ -z "$dev" ]; then
	echo "FAIL: no function bound to mlx5_core"
	fail=1
fi
echo "--- /proc/interrupts"
grep mlx5 /proc/interrupts
# the async (command) EQ's vector: its count is the sum over CPUs
irqs=$(grep 'mlx5_async' /proc/interrupts | head -1 |
	awk '{s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; else break; print s}')
echo "command EQ interrupts: ${irqs:-none}"
if [ -z "$irqs" ] || [ "$irqs" -eq 0 ]; then
	echo "FAIL: the command EQ's interrupt never fired"
	fail=1
fi
# (the function has no vendor-specific PCI capability, which the driver
# reports and does without: crdump and PCI resets are not modelled)
if dmesg | grep -iE 'mlx5.*(timeout|failed|error)' |
	grep -v 'valid vendor specific ID'; then
	echo "FAIL: the kernel logged the lines above"
	fail=1
fi
[ "$fail" = 0 ] && echo "PASS: mlx5_core probe"
exit $fail
