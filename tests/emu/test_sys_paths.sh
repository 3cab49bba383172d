#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Under mlx5-emu, /sys/class/infiniband and /sys/class/infiniband_verbs
# are the generated tree, for programs that read sysfs by its real path
# (rdma-core's tests cat /sys/class/infiniband/<dev>/ports/1/pkeys/0).
#   test_sys_paths.sh MLX5_EMU
set -u
emu=${1:?mlx5-emu}
failed=0
check() { # WHAT EXPECTED GOT
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: want '$2', got '$3'" >&2
		failed=$((failed + 1))
	fi
}
out=$("$emu" run --devices 2 -- sh -c '
	cat /sys/class/infiniband/mlx5_1/node_guid
	cat "$SYSFS_PATH/class/infiniband/mlx5_1/node_guid"
	cat /sys/class/infiniband/mlx5_0/ports/1/pkeys/0
	ls /sys/class/infiniband | tr "\n" " "; echo
	ls /sys/class/infiniband_verbs | tr "\n" " "; echo
	test -e /sys/class/infiniband/mlx5_0/fw_ver && echo exists
	test -e /sys/class/infiniband/mlx5_7 || echo absent' 2>&1)
set -- $(printf '%s\n' "$out" | tr ' ' '_')
check "node_guid through /sys" "$2" "$1"
check "pkey 0" "0xffff" "$3"
check "devices" "mlx5_0_mlx5_1_" "$4"
check "uverbs class" "abi_version_uverbs0_uverbs1_" "$5"
check "stat" "exists" "$6"
check "no such device" "absent" "$7"
echo "sys_paths: $((7 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
