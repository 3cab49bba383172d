#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# support_table.sh RESULTS ROW...
#     prints README's "Supported rdma-core" tables from the matrix's
#     result files RESULTS/ROW (written by run_suites.sh, run_refused.sh,
#     build_share.sh --refused)
# support_table.sh --check README RESULTS ROW...
#     fails, with the difference, unless README holds exactly that table
#     between its markers; SKIPPED (77) when a row has no result (a
#     release missing here)
# support_table.sh --update README RESULTS ROW...
#     writes the table into README between the markers
#
# A ROW is BUILT-on-LOADED (the build made against BUILT, run with
# LOADED's libraries), or VER-configure (configuring against VER).
set -euo pipefail

mode=print
if [ "${1:-}" = --check ] || [ "${1:-}" = --update ]; then
	mode=${1#--}
	readme=${2:?usage}
	shift 2
fi
results=${1:?usage: support_table.sh [--check|--update README] RESULTS ROW...}
shift
begin='<!-- matrix-table begin: written by tests/matrix/support_table.sh -->'
end='<!-- matrix-table end -->'
suites="unit emu e2e umem_var batch tools"

# One cell: "passed" when every test of the suite passed.
cell() {
	local line

	line=$(grep -s "^$2 " "$results/$1" || true)
	if [ -z "$line" ]; then
		echo "not run"
		return
	fi
	set -- $line
	if [ "$3" -gt 0 ] && [ "$2" = "$3" ]; then
		echo "passed"
	else
		echo "FAILED ($2 of $3)"
	fi
}

table() {
	local row built loaded s line out note

	echo "$begin"
	echo
	echo "| rdma-core | own libibverbs and libmlx5 loaded |" \
		"unit | emu | e2e | umem_var | batch | tools and demo |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for row in "$@"; do
		case $row in *-on-*) ;; *) continue ;; esac
		built=${row%%-on-*}
		loaded=${row#*-on-}
		[ "$built" = "$loaded" ] || continue
		line="| $built | $(cell "$row" loaded) |"
		for s in $suites; do
			line="$line $(cell "$row" "$s") |"
		done
		echo "$line"
	done
	echo
	echo "| built against | run with | result |"
	echo "| --- | --- | --- |"
	for row in "$@"; do
		case $row in
		*-configure)
			echo "| ${row%-configure} | - |" \
				"configuration stops: $(cell "$row" \
				configure-refused) |"
			;;
		*-on-*)
			built=${row%%-on-*}
			loaded=${row#*-on-}
			[ "$built" != "$loaded" ] || continue
			if grep -q '^refused ' "$results/$row" 2>/dev/null; then
				out="export and import refuse with EOPNOTSUPP:"
				out="$out $(cell "$row" refused)"
			else
				out="libraries loaded: $(cell "$row" loaded)"
				for s in e2e umem_var batch; do
					out="$out, $s: $(cell "$row" "$s")"
				done
			fi
			note=$(sed -n 's/^note //p' "$results/$row" 2>/dev/null)
			echo "| $built | $loaded${note:+ ($note)} | $out |"
			;;
		esac
	done
	echo
	echo "$end"
}

if [ $mode = print ]; then
	table "$@"
	exit 0
fi

missing=
for row in "$@"; do
	[ -f "$results/$row" ] || missing="$missing $row"
done
if [ $mode = check ] && [ -n "$missing" ]; then
	echo "SKIPPED: matrix_readme_table: no result for:$missing"
	exit 77
fi

new=$(mktemp)
trap 'rm -f "$new"' EXIT
table "$@" >"$new.table"
awk -v b="$begin" -v e="$end" -v t="$new.table" '
	$0 == b { while ((getline l < t) > 0) print l; skip = 1; seen++ }
	$0 == e { skip = 0; next }
	!skip { print }
	END { if (seen != 1) exit 3 }' "$readme" >"$new" || {
	rm -f "$new.table"
	echo "support_table: $readme lacks the line '$begin'" \
		"(or has it twice), or '$end'" >&2
	exit 1
}
rm -f "$new.table"
if [ $mode = update ]; then
	cat "$new" >"$readme"
	exit 0
fi
if ! diff -u "$readme" "$new"; then
	echo "README's table is not this run's; to take this run's:" >&2
	echo "  tests/matrix/support_table.sh --update $readme $results $*" >&2
	exit 1
fi
echo "README's table is this run's"
