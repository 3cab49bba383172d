#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_pyverbs: upstream's DEVX and VAR tests, with the tests the
# series adds to them, through the patched tree's pyverbs, under mlx5-emu.
# Upstream's own skips stand (its traffic tests need a port with a GID);
# each test the series adds (every test_* a patch of SERIES_DIR defines)
# must end as EXPECT says: "ok" (the default: run and pass, not skip,
# since mlx5-emu has what they need) or "skipped" (a kernel without what
# they test: they must skip, not fail).  Outside mlx5-emu (the cx VM),
# "ok" on a kernel that does not report the verbs file (the tests skip,
# saying so) reports this test skipped by name (77).
# usage: run_pyverbs.sh PATCHED_TREE SERIES_DIR [ok|skipped]
set -uo pipefail
tree=$1 series=$2 expect=${3:-ok}
out=$("$tree/build/bin/run_tests.py" -v -k test_mlx5_devx -k test_mlx5_var \
	2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -ne 0 ]]; then
	echo "FAIL: upstream_pyverbs: unittest failed (exit $rc)"
	exit 1
fi
# unittest -v prints "name (module.Class.name)", the docstring's first
# line if any, then " ... RESULT": one result per test name.
results=$(awk '
	/^test[A-Za-z0-9_]* \(/ { name = $1 }
	/ \.\.\. / && name != "" { sub(/.* \.\.\. /, ""); print name, $0;
		name = "" }' <<<"$out")
new=$(sed -n 's/^+ *def \(test[A-Za-z0-9_]*\)(.*/\1/p' \
	"$series"/[0-9][0-9][0-9][0-9]-*.patch)
total=0 bad=0
for t in $new; do
	total=$((total + 1))
	r=$(awk -v t="$t" '$1 == t { $1 = ""; print substr($0, 2) }' \
		<<<"$results")
	if [[ "$r" != "$expect" && "$r" != "$expect "* ]]; then
		echo "FAIL: upstream_pyverbs: $t: ${r:-did not run}"
		bad=$((bad + 1))
	fi
done
nofile=$(grep -c "skipped 'The kernel does not report the verbs file'" \
	<<<"$results")
if [[ $expect == ok && -z "${MLX5_EMU_DIR:-}" && $total -gt 0 &&
	$nofile -eq $total ]]; then
	echo "SKIPPED: upstream_pyverbs: the kernel does not report the" \
	     "verbs file (kernel series v3 absent)"
	exit 77
fi
if [[ $total -eq 0 || $bad -ne 0 ]]; then
	echo "FAIL: upstream_pyverbs: $bad of $total new tests did not end" \
	     "$expect"
	exit 1
fi
echo "PASS: upstream_pyverbs ($total new tests ended $expect)"
