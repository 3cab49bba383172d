#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Which way libibverbs found the devices.  Its netlink discovery needs no
# class/infiniband_verbs in sysfs (GET_CHARDEV names the char device);
# its sysfs discovery needs nothing else.  With that directory hidden the
# devices are found through netlink, and not found with --no-netlink.
#   test_nl_discovery.sh MLX5_EMU TEST_DISCOVERY
set -u
emu=${1:?mlx5-emu}
disc=${2:?test_discovery}
hide='mv "$SYSFS_PATH/class/infiniband_verbs" "$SYSFS_PATH/hidden" && exec "$0" "$@"'
failed=0

if ! "$emu" run --devices 2 -- sh -c "$hide" "$disc" 2; then
	echo "FAIL: netlink discovery did not find 2 devices" >&2
	failed=$((failed + 1))
fi
if "$emu" run --devices 2 --no-netlink -- sh -c "$hide" "$disc" 2 \
	>/dev/null 2>&1; then
	echo "FAIL: without netlink and without class/infiniband_verbs," \
	     "devices were found" >&2
	failed=$((failed + 1))
fi
echo "nl_discovery: $((2 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
