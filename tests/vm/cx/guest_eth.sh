# Guest side of the cx_eth_* tests: with the functions' port type Ethernet
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
# byte left in flight on any send queue, BQL's inflight).  "traffic N"
# (two functions joined by a cable) then puts each netdev in a network
# namespace of its own, so the kernel cannot take a shortcut between
# its own addresses, and passes traffic between them: 100 pings each
# way, and a UDP stream of N datagrams (net_stream: every one counted,
# none lost), checked against each netdev's counters (ip -s link: what
# one end sent, the other received) and the device's (ethtool -S: the
# vport's unicast counters, the RQs' out_of_buffer drops), and 8 MB over
# TCP (LSO: the device cuts the kernel's large sends at the MSS).  Then the
# same stream between two veth ends in one guest, for the rate's ratio.
# "traffic N NET_STREAM HANDOVER" adds issue 38's handover (handover.c):
# with mlx5_ib loaded (a RoCE device on each function), process A builds
# a counting drop rule for a UDP port on the receiving function from
# DEVX objects (table, group, entry, counter) hooked in by an mlx5dv
# rule, passes them with its command fd to B and is killed in the middle
# of a burst; B removes the entry and group through its imports, then
# closes the file.  The counter, read through B's import, must have
# counted every datagram sent while the entry lived and none after, and
# the receiving socket must get every datagram of the last burst (none
# before: the rule dropped the first two, the table's miss the third).
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
# iproute2's ip (busybox's sh runs its own applet for a bare "ip", which
# has no network namespaces)
ipr() {
	/usr/sbin/ip "$@"
}
# a netdev's counter from ip -s link's RX or TX line (in namespace ns)
link_stat() {	# ns dev rx|tx field(1: bytes, 2: packets, 4: dropped)
	ipr -n "$1" -s link show "$2" |
		awk -v d="$3" -v f="$4" '
			/RX:/ { w = "rx"; next } /TX:/ { w = "tx"; next }
			w == d { print $f; exit }'
}
# a device counter ethtool -S reports (0 when it does not)
dev_stat() {	# ns dev name
	ipr netns exec "$1" ethtool -S "$2" 2>/dev/null |
		awk -v k="$3:" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }'
}
# ping and the UDP stream from a in namespace na to b in nb, N datagrams;
# prints the stream's rate
stream() {	# na a_addr nb b_addr n
	ipr netns exec "$3" "$net_stream" recv 5001 "$5" >/tmp/recv.out &
	sleep 0.5
	ipr netns exec "$1" "$net_stream" send "$4" 5001 "$5" >/tmp/send.out
	s=$?
	wait $!
	r=$?
	cat /tmp/send.out /tmp/recv.out
	[ "$s" = 0 ] && [ "$r" = 0 ]
}
# the handover's bursts: datagrams each, and the rate
HO_N=3000
HO_RATE=2000
handover_run() {
	pb=$pci_b
	ibdev=
	for d in /sys/class/infiniband/*; do
		[ "$(basename "$(readlink -f "$d/device")")" = "$pb" ] &&
			ibdev=${d##*/}
	done
	[ -n "$ibdev" ] || { echo "FAIL: no RDMA device on $pb"; return 1; }
	rxb0=$(link_stat b "$db" rx 2)
	vrx0=$(dev_stat b "$db" rx_vport_unicast_packets)
	# (not through ipr: $! must be the counter itself, which ip's netns
	# exec becomes, for the TERM that ends it)
	/usr/sbin/ip netns exec b "$net_stream" count 5002 >/tmp/count.out &
	cnt=$!
	sleep 0.5
	ipr netns exec b "$handover" "$ibdev" \
		"/usr/sbin/ip netns exec a $net_stream blast 10.38.0.2 5002 $HO_RATE" \
		$HO_N $HO_N $HO_N $HO_N
	hrc=$?
	sleep 1
	kill -TERM $cnt
	wait $cnt
	cat /tmp/count.out
	got=$(sed -n 's/^net_stream count: \([0-9]*\) .*/\1/p' /tmp/count.out)
	rxb=$(( $(link_stat b "$db" rx 2) - rxb0 ))
	vrx=$(( $(dev_stat b "$db" rx_vport_unicast_packets) - vrx0 ))
	echo "handover on $ibdev: burst 4 (no hook) delivered ${got:-?} of" \
		"$HO_N; over the four bursts netdev b rx_packets +$rxb," \
		"device b rx_vport_unicast_packets +$vrx"
	[ "$hrc" = 0 ] || return 1
	# (the port received all four bursts, whatever steering did)
	[ "$vrx" -ge $((4 * HO_N)) ] ||
		{ echo "FAIL: the device's counters miss datagrams"; return 1; }
	[ "$got" = "$HO_N" ] ||
		{ echo "FAIL: the receiver did not get burst 4, and only it"; return 1; }
}
traffic() {	# dev_a dev_b n net_stream [handover]
	da=$1 db=$2 n=$3 net_stream=$4 handover=${5:-} rc=0
	pci_b=$(basename "$(readlink -f /sys/class/net/$db/device)")
	if [ -n "$handover" ]; then
		modprobe mlx5_ib || { echo "FAIL: modprobe mlx5_ib"; return 1; }
	fi
	mkdir -p /run
	mount -t tmpfs run /run
	ipr netns add a && ipr netns add b || { echo "FAIL: ip netns"; return 1; }
	ipr link set "$1" netns a && ipr link set "$2" netns b
	ipr -n a addr add 10.38.0.1/24 dev "$1"
	ipr -n b addr add 10.38.0.2/24 dev "$2"
	ipr -n a link set "$1" up && ipr -n b link set "$2" up
	ipr -n a link set lo up && ipr -n b link set lo up
	i=0
	while [ $i -lt 40 ] &&
	      { ! ipr -n a link show "$1" | grep -q LOWER_UP ||
		! ipr -n b link show "$2" | grep -q LOWER_UP; }; do
		sleep 0.5
		i=$((i + 1))
	done
	for d in "a $1 10.38.0.2" "b $2 10.38.0.1"; do
		set -- $d
		out=$(ipr netns exec "$1" busybox ping -A -c 100 -W 2 "$3" 2>&1 |
			grep 'packets transmitted')
		echo "ping from $1 ($2) to $3: $out"
		case $out in
		"100 packets transmitted, 100 packets received"*) ;;
		*) echo "FAIL: ping lost packets"; rc=1 ;;
		esac
	done
	set -- $da $db
	txa0=$(link_stat a "$1" tx 2); rxb0=$(link_stat b "$2" rx 2)
	vtx0=$(dev_stat a "$1" tx_vport_unicast_packets)
	vrx0=$(dev_stat b "$2" rx_vport_unicast_packets)
	stream a 10.38.0.1 b 10.38.0.2 "$n" || { echo "FAIL: the stream"; rc=1; }
	rate=$(sed -n 's/.* \([0-9]*\) datagrams\/s$/\1/p' /tmp/send.out)
	txa=$(( $(link_stat a "$1" tx 2) - txa0 ))
	rxb=$(( $(link_stat b "$2" rx 2) - rxb0 ))
	vtx=$(( $(dev_stat a "$1" tx_vport_unicast_packets) - vtx0 ))
	vrx=$(( $(dev_stat b "$2" rx_vport_unicast_packets) - vrx0 ))
	oob=$(dev_stat b "$2" rx_out_of_buffer)
	echo "stream a->b: netdev a tx_packets +$txa, netdev b rx_packets" \
		"+$rxb; device a tx_vport_unicast_packets +$vtx, device b" \
		"rx_vport_unicast_packets +$vrx, rx_out_of_buffer $oob"
	# (each side also carries the few ARP and ack frames)
	[ "$rxb" -ge "$n" ] && [ "$txa" -ge "$n" ] ||
		{ echo "FAIL: the netdevs' counters miss datagrams"; rc=1; }
	[ "$vrx" -ge "$n" ] && [ "$vtx" -ge "$n" ] ||
		{ echo "FAIL: the device's counters miss datagrams"; rc=1; }
	[ "$oob" = 0 ] || { echo "FAIL: out_of_buffer drops"; rc=1; }
	# TCP: the kernel hands the device 64 KB sends (LSO) to cut
	ipr netns exec b "$net_stream" tcp-recv 5003 >/tmp/tcp.out &
	sleep 0.5
	ipr netns exec a "$net_stream" tcp-send 10.38.0.2 5003 8388608 ||
		{ echo "FAIL: the TCP stream"; rc=1; }
	wait
	cat /tmp/tcp.out
	[ -n "$handover" ] && { handover_run || rc=1; }
	# the same stream between veth ends, for the ratio
	if modprobe veth && ipr link add va netns a type veth peer vb netns b
	then
		ipr -n a addr add 10.39.0.1/24 dev va
		ipr -n b addr add 10.39.0.2/24 dev vb
		ipr -n a link set va up && ipr -n b link set vb up
		sleep 1
		stream a 10.39.0.1 b 10.39.0.2 "$n" | sed 's/^/veth: /' ||
			true
		vrate=$(sed -n 's/.* \([0-9]*\) datagrams\/s$/\1/p' /tmp/send.out)
		ratio=?
		[ -n "$rate" ] && [ -n "$vrate" ] && [ "$vrate" -gt 0 ] &&
			ratio=$(awk "BEGIN { printf \"%.2f\", $rate / $vrate }")
		echo "stream rate: mlx5e ${rate:-?} datagrams/s, veth" \
			"${vrate:-?} datagrams/s, ratio ${ratio}x (TCG, same" \
			"guest, same run)"
	else
		echo "stream rate: mlx5e ${rate:-?} datagrams/s (no veth)"
	fi
	return $rc
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
elif grep -qx carrier /run.args || grep -q '^traffic ' /run.args; then
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
set -- $(grep '^traffic ' /run.args)
if [ $# -ge 3 ] && [ "$fail" = 0 ]; then
	traffic $devs "$2" "$3" "${4:-}" || fail=1
fi
ip link show
if dmesg | grep -iE 'mlx5.*(timeout|failed|error)' | grep -vf /known.txt; then
	echo "FAIL: the kernel logged the lines above"
	fail=1
fi
[ "$fail" = 0 ] && echo "PASS: mlx5e netdevs"
exit $fail
