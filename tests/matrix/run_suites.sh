#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# run_suites.sh LIBDIR RELEASE SHAREBUILD RESULT SUITE...
#
# Runs, with the rdma-core libraries in LIBDIR loaded (release RELEASE,
# e.g. 39.0), the suites SUITE... of the mlx5-share build SHAREBUILD
# (configured by build_share.sh, possibly against another release), and
# writes one line per suite to RESULT: "SUITE PASSED TOTAL".
#
# First of all, and as the line "loaded": matrix_probe proves under
# mlx5-emu that the process maps exactly one libibverbs and one libmlx5,
# both from LIBDIR and of RELEASE (the provider libibverbs loads from its
# own compiled-in directory is that same libmlx5), and that a flow
# counter exports and imports.  The suites then run in one ctest, two at
# a time, with the same environment.
#
# Suites, as selections of the build's tests:
#   unit      label unit (without the valgrind runs)
#   emu       label emu: the emulator's own and the fault tests
#   e2e, umem_var, batch   tests named e2e_*, umem_var_*, batch_*
#   tools     label tools: the inspector and the demo
set -uo pipefail

libdir=${1:?usage: run_suites.sh LIBDIR RELEASE SHAREBUILD RESULT SUITE...}
release=${2:?usage}
build=${3:?usage}
result=${4:?usage}
shift 4
jobs=${MATRIX_JOBS:-2}

export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The release's own ibv_devinfo and ibv_devices (staged next to its
# libraries) for the tests that run them from PATH: the system's are
# linked against its libibverbs' private ABI version, which other
# releases do not have.
export PATH=$(dirname "$libdir")/bin:$PATH
mkdir -p "$(dirname "$result")"
: >"$result"
failed=0

if "$build/bin/mlx5-emu" run --devices 1 -- "$build/bin/matrix_probe" \
	"$libdir" "${release%%.*}" ok; then
	echo "loaded 1 1" >>"$result"
else
	echo "loaded 0 1" >>"$result"
	echo "run_suites: the libraries loaded are not $release's" >&2
	exit 1
fi

# ctest's selection for each suite.
select_args() {
	case $1 in
	unit) echo "-L unit -LE valgrind" ;;
	emu) echo "-L emu -E ^(e2e_|umem_var_|batch_|tools-)" ;;
	e2e | umem_var | batch) echo "-R ^${1}_" ;;
	tools) echo "-L tools -LE valgrind" ;;
	*) return 1 ;;
	esac
}

names() {
	# shellcheck disable=SC2046
	ctest --test-dir "$build" -N $(select_args "$1") |
		sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p'
}

# One run of the union of the suites.
all=$(for s in "$@"; do names "$s"; done | sort -u)
if [ -z "$all" ]; then
	echo "run_suites: no tests selected" >&2
	exit 1
fi
regex="^($(printf '%s\n' "$all" | paste -sd'|'))\$"
log=$result.log
ctest --test-dir "$build" -j "$jobs" -R "$regex" -LE valgrind \
	--output-on-failure >"$log" 2>&1
tail -n +1 "$log" | grep -v '^ *Start ' | grep -v ' Passed ' || true

for s in "$@"; do
	total=0
	passed=0
	for t in $(names "$s"); do
		total=$((total + 1))
		if grep -Eq "Test +#[0-9]+: $t \.+ +Passed" "$log"; then
			passed=$((passed + 1))
		fi
	done
	echo "$s $passed $total" >>"$result"
	if [ $total = 0 ] || [ $passed != "$total" ]; then
		failed=1
	fi
done
cat "$result"
exit $failed
