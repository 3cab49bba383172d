# Guest side of the tests that run programs on the emulated function(s)
# with the RDMA stack loaded: each line of /run.args (CX_RUN, split into lines
# at '%') is one command line, run in turn; each prints
# "== result: <program> <status>".  The status is 0 when every command
# passed or was skipped (77), else 1.
modprobe mlx5_core && modprobe mlx5_ib && modprobe ib_uverbs ||
	{ echo "FAIL: modules"; exit 1; }
i=0
while [ ! -c /dev/infiniband/uverbs0 ] && [ $i -lt 20 ]; do
	sleep 0.5
	i=$((i + 1))
done
st=0
tr '%' '\n' </run.args >/tmp/cmds
while read -r line; do
	[ -n "$line" ] || continue
	echo "== run: $line"
	sh -c "$line" </dev/null
	rc=$?
	echo "== result: ${line%% *} $rc"
	[ "$rc" = 0 ] || [ "$rc" = 77 ] || st=1
done </tmp/cmds
if dmesg | grep -iE 'mlx5.*(timeout|failed)' |
	grep -vf /known.txt; then
	echo "FAIL: the kernel logged the lines above"
	st=1
fi
exit $st
