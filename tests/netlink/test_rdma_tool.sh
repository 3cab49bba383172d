#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# iproute2's rdma tool under mlx5-emu: `rdma link show` and `rdma dev
# show`, as text and as JSON, list the emulated devices and ports with
# what the generated sysfs says of them; --no-netlink makes it fail as on
# a kernel without RDMA netlink.
#   test_rdma_tool.sh MLX5_EMU
set -u
emu=${1:?mlx5-emu}
if ! command -v rdma >/dev/null 2>&1; then
	echo "SKIPPED: rdma_tool: iproute2's rdma is not installed"
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: rdma_tool: no python3 to read the JSON"
	exit 77
fi
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
expect() { # expect WHAT PATTERN TEXT
	if printf '%s\n' "$3" | grep -Eq "$2"; then ok; else
		bad "$1: no /$2/ in: $3"; fi
}

out=$("$emu" run --devices 3 -- rdma link show 2>&1)
for i in 0 1 2; do
	expect "link show" "^link mlx5_$i/1 .*lid $((i + 1)) sm_lid 1 lmc 0 state DOWN physical_state POLLING" "$out"
done
[ "$(printf '%s\n' "$out" | grep -c '^link ')" -eq 3 ] && ok ||
	bad "link show: not 3 ports: $out"

out=$("$emu" run --devices 2 -- rdma link show mlx5_1/1 2>&1)
expect "link show mlx5_1/1" "^link mlx5_1/1 .*state DOWN" "$out"
[ "$(printf '%s\n' "$out" | grep -c '^link ')" -eq 1 ] && ok ||
	bad "link show mlx5_1/1: not one port: $out"
if "$emu" run --devices 2 -- rdma link show mlx5_7/1 >/dev/null 2>&1; then
	bad "link show mlx5_7/1 succeeded"
else ok; fi

# the JSON the pyverbs harness reads, against the sysfs of the same run
out=$("$emu" run --devices 2 -- sh -c '
	rdma link show -j && echo @ &&
	cat "$SYSFS_PATH"/class/infiniband/mlx5_*/ports/1/lid' 2>&1)
if printf '%s\n' "$out" | python3 -c '
import json, sys
links, lids = sys.stdin.read().split("@\n")
rows = json.loads(links)
lids = [int(x, 16) for x in lids.split()]
assert len(rows) == 2, rows
for i, r in enumerate(rows):
    assert r["ifindex"] == i and r["port"] == 1, r
    assert r["ifname"] == "mlx5_%d" % i, r
    assert r["state"] == "DOWN" and r["physical_state"] == "POLLING", r
    assert r["lid"] == lids[i] and r["sm_lid"] == 1 and r["lmc"] == 0, r
    assert r["subnet_prefix"] == "fe80:0000:0000:0000", r
    assert "netdev" not in r, r
'; then ok; else bad "link show -j: $out"; fi

out=$("$emu" run --devices 2 -- sh -c '
	rdma dev show -j && echo @ &&
	cat "$SYSFS_PATH"/class/infiniband/mlx5_*/fw_ver &&
	cat "$SYSFS_PATH"/class/infiniband/mlx5_*/node_guid' 2>&1)
if printf '%s\n' "$out" | python3 -c '
import json, sys
devs, facts = sys.stdin.read().split("@\n")
rows = json.loads(devs)
facts = facts.split()
assert len(rows) == 2, rows
for i, r in enumerate(rows):
    assert r["ifindex"] == i and r["ifname"] == "mlx5_%d" % i, r
    assert r["node_type"] == "ca", r
    assert r["fw"] == facts[i], (r, facts)
    assert r["node_guid"] == facts[2 + i], (r, facts)
    assert r["sys_image_guid"] == facts[2 + i], (r, facts)
'; then ok; else bad "dev show -j: $out"; fi

out=$("$emu" run --devices 2 -- rdma dev show 2>&1)
expect "dev show" "^0: mlx5_0: node_type ca fw [0-9.]+ node_guid 0002:c903:00ab:cd00" "$out"
expect "dev show" "^1: mlx5_1: node_type ca fw [0-9.]+ node_guid 0002:c903:00ab:cd01" "$out"

# the capabilities: what the model implements, no XRC
out=$("$emu" run --devices 1 -- rdma dev show -d 2>&1)
expect "dev show -d" "caps: <.*RC_RNR_NAK_GEN" "$out"
if printf '%s\n' "$out" | grep -q 'XRC'; then
	bad "dev show -d claims XRC: $out"
else ok; fi

# the documented maximum: every device and port listed (rdma opens a
# socket per device; the kernel has no per-process limit on them)
for what in "dev show" "link show"; do
	out=$("$emu" run --devices 64 -- rdma $what 2>&1)
	n=$(printf '%s\n' "$out" | grep -Ec '^(link )?[0-9]*:? ?mlx5_[0-9]+')
	[ "$n" -eq 64 ] && ok || bad "$what with 64 devices: $n listed: $out"
	expect "$what with 64 devices" "mlx5_63" "$out"
done

# an old kernel: no RDMA netlink at all
if out=$("$emu" run --no-netlink -- rdma link show 2>&1); then
	bad "--no-netlink: rdma link show succeeded: $out"
else
	expect "--no-netlink" "NETLINK_RDMA" "$out"
fi

echo "rdma_tool: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
