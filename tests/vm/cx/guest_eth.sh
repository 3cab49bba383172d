# Guest side of cx_eth_netdev: with the functions' port type Ethernet
# (CX_PORT=eth), mlx5_core probes its Ethernet part and registers one
# mlx5e netdev per function, whose address is the MAC the firmware
# reports in the NIC vport context (the node GUID's EUI-64 made MAC-48:
# node GUID 0x0002c90300abcd0N, MAC 02:02:c9:ab:cd:0N), and the netdev
# can be set administratively up (its channels, queues and steering
# made) without the kernel logging a failure.  /run.args says what the
# link must be once the netdevs are up: "carrier" (a cable: each netdev
# reports carrier 1, the link ethtool's "Link detected" reads, within
# 20 s) or "no-carrier" (no cable: carrier 0 on each, 5 s after).  With
# a link, each netdev then sends (ARP requests for an address nobody
# has): its tx_packets grows, and the device completes every send (no
# byte left in flight on any send queue, BQL's inflight).  (Nothing is
# received: the device has no receive side yet.)
modprobe mlx5_core || { echo "FAIL: modprobe mlx5_core"; exit 1; }
want=$(ls -d /sys/bus/pci/drivers/mlx5_core/0000:* 2>/dev/null | wc -l)
fail=0
[ "$want" -gt 0 ] || { echo "FAIL: no function bound to mlx5_core"; exit 1; }
# the netdevs of the functions mlx5_core bound (their device is the PCI
# function: mlx5e's netdev parent)
eth_devs() {
	for n in /sys/class/net/*; do
		d=$(readlink -f "$n/device" 2>/dev/null) || continue
		case $(readlink -f "$d/driver" 2>/dev/null) in
		*/mlx5_core) echo "${n##*/}" ;;
		esac
	done
}
i=0
while [ "$(eth_devs | wc -l)" -lt "$want" ] && [ $i -lt 40 ]; do
	sleep 0.5
	i=$((i + 1))
done
dmesg | grep -i mlx5
devs=$(eth_devs)
echo "functions: $want; mlx5e netdevs: $(echo $devs)"
if [ "$(echo "$devs" | grep -c .)" != "$want" ]; then
	echo "FAIL: want one mlx5e netdev per function"
	exit 1
fi
for n in $devs; do
	pci=$(basename "$(readlink -f /sys/class/net/$n/device)")
	mac=$(cat /sys/class/net/$n/address)
	echo "$n ($pci): address $mac"
	case $mac in
	02:02:c9:ab:cd:0[0-9]) ;;
	*) echo "FAIL: $n's address is not the firmware's MAC"; fail=1 ;;
	esac
	ip link set "$n" up || { echo "FAIL: ip link set $n up"; fail=1; }
done
if grep -qx no-carrier /run.args; then
	sleep 5
	for n in $devs; do
		c=$(cat /sys/class/net/$n/carrier 2>/dev/null)
		echo "$n: carrier ${c:-unknown} (no cable)"
		[ "$c" = 0 ] || { echo "FAIL: $n has a link without a cable"; fail=1; }
	done
elif grep -qx carrier /run.args; then
	for n in $devs; do
		i=0
		while [ "$(cat /sys/class/net/$n/carrier 2>/dev/null)" != 1 ] &&
		      [ $i -lt 40 ]; do
			sleep 0.5
			i=$((i + 1))
		done
		c=$(cat /sys/class/net/$n/carrier 2>/dev/null)
		echo "$n: carrier ${c:-unknown}," \
			"operstate $(cat /sys/class/net/$n/operstate)"
		[ "$c" = 1 ] || { echo "FAIL: $n has no carrier"; fail=1; }
	done
	k=1
	for n in $devs; do
		ip addr add 10.38.$k.1/24 dev "$n"
		busybox ping -c 3 -W 1 -I "$n" 10.38.$k.2 >/dev/null 2>&1
		k=$((k + 1))
	done
	sleep 1
	for n in $devs; do
		tx=$(cat /sys/class/net/$n/statistics/tx_packets)
		left=0
		for q in /sys/class/net/$n/queues/tx-*/byte_queue_limits/inflight; do
			left=$((left + $(cat "$q")))
		done
		echo "$n: tx_packets $tx, bytes in flight $left"
		[ "$tx" -gt 0 ] || { echo "FAIL: $n sent nothing"; fail=1; }
		[ "$left" = 0 ] ||
			{ echo "FAIL: $n's sends not all completed"; fail=1; }
	done
fi
ip link show
if dmesg | grep -iE 'mlx5.*(timeout|failed|error)' | grep -vf /known.txt; then
	echo "FAIL: the kernel logged the lines above"
	fail=1
fi
[ "$fail" = 0 ] && echo "PASS: mlx5e netdevs"
exit $fail
