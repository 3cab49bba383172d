#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Guest side of vm_text_poke: the kernel rewrites its own text while the
# other CPU runs it.  Flipping kernel.sched_schedstats patches the
# scheduler's static branches (text_poke_bp(): an int3, the new bytes, an
# IPI between steps), and two busy loops keep both CPUs in that code.
# With a QEMU thread per vCPU this Oopsed ("int3" in dequeue_entity())
# within seconds (tests/vm/README.md, "Why one thread"); the runner
# reports any Oops as a panic, so passing means every flip was survived.
#
# Usage: text_poke_stress.sh [FLIPS]   (default 300)
n=${1:-300}
knob=/proc/sys/kernel/sched_schedstats
[ -w $knob ] || { echo "SKIP text_poke_stress: no $knob"; exit 77; }
old=$(cat $knob)
(while :; do /bin/true; done) &
a=$!
(while :; do /bin/true; done) &
b=$!
i=0
while [ "$i" -lt "$n" ]; do
	echo 1 >$knob
	echo 0 >$knob
	i=$((i + 1))
done
kill $a $b
echo "$old" >$knob
echo "text_poke_stress: $i flips ($((2 * i)) text patches) with both" \
	"CPUs busy"
echo "text_poke_stress: 1 passed, 0 failed"
