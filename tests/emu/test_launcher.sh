#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5-emu run: the command's exit status and signals come back, the
# environment is set up (LD_PRELOAD prepended, SYSFS_PATH, MLX5_EMU_DIR),
# the private directory and the daemon are gone afterwards, also when
# mlx5-emu itself is terminated, --trace traces, and --fw-ids and
# --handles take their values only and reach the command's environment.
emu="$1"
fail=0
pass=0
check() {
	if [ "$1" = "$2" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $3: got '$1', want '$2'" >&2
		fail=$((fail + 1))
	fi
}

"$emu" run -- sh -c 'exit 7'
check "$?" 7 "exit status"

"$emu" run -- sh -c 'kill -TERM $$'
check "$?" 143 "killed by SIGTERM"

"$emu" run -- /nonexistent/command 2>/dev/null
check "$?" 127 "command not found"

"$emu" run --devices 0 -- true 2>/dev/null
check "$?" 2 "--devices 0 is refused"

"$emu" bogus 2>/dev/null
check "$?" 2 "unknown subcommand"

# --kernel=VERSION: MAJOR.MINOR from 5.4, told to the command
for v in 4.19 5 5.15.3 junk 5.x ""; do
	"$emu" run --kernel="$v" -- true 2>/dev/null
	check "$?" 2 "--kernel=$v is refused"
done
check "$("$emu" run -- sh -c 'echo "$MLX5_EMU_KERNEL"')" 6.12 \
	"MLX5_EMU_KERNEL defaults to 6.12"
check "$(MLX5_EMU_KERNEL=5.4 "$emu" run --kernel=5.15 -- sh -c \
	'echo "$MLX5_EMU_KERNEL"')" 5.15 "--kernel=5.15"

# the model's switches: their values, and what the command sees
"$emu" run --query-handles=on -- true 2>/dev/null
check "$?" 2 "--query-handles (kernel design v2) is gone"
"$emu" run --fw-ids=random -- true 2>/dev/null
check "$?" 2 "--fw-ids takes fresh or lowest-free"
out=$("$emu" run --fw-ids=lowest-free -- sh -c 'echo "$MLX5_EMU_FW_IDS"')
check "$out" "lowest-free" "--fw-ids=lowest-free"
"$emu" run --handles=cyclic -- true 2>/dev/null
check "$?" 2 "--handles takes unique or lowest-free"
out=$("$emu" run --handles=lowest-free -- sh -c 'echo "$MLX5_EMU_HANDLES"')
check "$out" "lowest-free" "--handles=lowest-free"
# the daemon refuses a test seam out of range: the command never runs
MLX5_EMU_TEST_FIRST_HANDLE=2147483649 "$emu" run -- true 2>/dev/null
check "$?" 125 "MLX5_EMU_TEST_FIRST_HANDLE above 2^31"

out=$(LD_PRELOAD=/lib/x86_64-linux-gnu/libc.so.6 "$emu" run -- sh -c \
	'echo "$LD_PRELOAD|$SYSFS_PATH|$MLX5_EMU_DIR|$ASAN_OPTIONS"')
check "$(echo "$out" | grep -c 'libmlx5-emu-preload.so:/lib/x86_64-linux-gnu/libc.so.6|')" 1 \
	"LD_PRELOAD prepended"
dir=$(echo "$out" | cut -d'|' -f3)
check "$(echo "$out" | cut -d'|' -f2)" "$dir/sys" "SYSFS_PATH"
check "$(echo "$out" | cut -d'|' -f4)" "verify_asan_link_order=0" "ASAN_OPTIONS"
check "$(test -e "$dir" && echo exists || echo gone)" gone "private dir removed"

out=$(ASAN_OPTIONS=detect_leaks=0 "$emu" run -- sh -c 'echo "$ASAN_OPTIONS"')
check "$out" "detect_leaks=0:verify_asan_link_order=0" "ASAN_OPTIONS kept"

# the sysfs tree libibverbs reads
out=$("$emu" run --devices 2 -- sh -c \
	'cat $SYSFS_PATH/class/infiniband_verbs/uverbs1/ibdev $SYSFS_PATH/class/infiniband/mlx5_1/device/modalias')
check "$(echo "$out" | head -1)" mlx5_1 "uverbs1/ibdev"
check "$(echo "$out" | tail -1 | cut -c1-22)" "pci:v000015B3d0000101B" "modalias"

# mlx5-emu terminated while its command runs: everything goes away
tmp=$(mktemp)
"$emu" run -- sh -c 'echo "$MLX5_EMU_DIR $MLX5_EMU_DAEMON_PID" > '"$tmp"'; exec sleep 30' &
lpid=$!
i=0
while [ ! -s "$tmp" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
read -r dir dpid < "$tmp"
kill -TERM "$lpid"
wait "$lpid"
check "$?" 143 "terminated launcher reports the command's signal"
check "$(test -e "$dir" && echo exists || echo gone)" gone "dir removed on SIGTERM"
check "$(kill -0 "$dpid" 2>/dev/null && echo alive || echo dead)" dead \
	"daemon gone on SIGTERM"

# mlx5-emu killed outright: the daemon and the command follow it
# (PR_SET_PDEATHSIG) and the daemon removes the private directory
: > "$tmp"
"$emu" run -- sh -c 'echo "$MLX5_EMU_DIR $MLX5_EMU_DAEMON_PID $$" > '"$tmp"'; exec sleep 30' &
lpid=$!
i=0
while [ ! -s "$tmp" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
read -r dir dpid cpid < "$tmp"
kill -KILL "$lpid"
wait "$lpid" 2>/dev/null
i=0
while { [ -e "$dir" ] || kill -0 "$dpid" 2>/dev/null || kill -0 "$cpid" 2>/dev/null; } && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "$(test -e "$dir" && echo exists || echo gone)" gone "dir removed on SIGKILL"
check "$(kill -0 "$dpid" 2>/dev/null && echo alive || echo dead)" dead \
	"daemon gone on SIGKILL"
check "$(kill -0 "$cpid" 2>/dev/null && echo alive || echo dead)" dead \
	"command gone on SIGKILL"
rm -f "$tmp"

# --trace prints decoded ioctls and firmware commands
out=$("$emu" run --trace -- ibv_devices 2>&1 >/dev/null)
check "$(echo "$out" | grep -c 'DEVICE.UVERBS_METHOD_GET_CONTEXT')" 0 \
	"ibv_devices opens nothing"
if command -v ibv_devinfo >/dev/null; then
	out=$("$emu" run --trace -- ibv_devinfo 2>&1 >/dev/null)
	check "$(echo "$out" | grep -c 'UVERBS_METHOD_GET_CONTEXT')" 2 \
		"trace shows the ioctls"
	# a user context's own (uid 0 is the kernel's, at device probe)
	check "$(echo "$out" | grep -c 'fw: QUERY_HCA_CAP (0x100) uid [1-9]')" \
		"$(echo "$out" | grep -c 'DEVX_OTHER')" "trace shows fw commands"
fi

echo "emu_launcher: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
