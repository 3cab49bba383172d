#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs a sharing scenario against unpatched rdma-core, where it must fail:
# passes only when the program exits with a failure (not a skip) and
# reports a failed check, i.e. the unpatched library accepted what the
# scenario says must be refused.
# usage: expect_fail.sh NAME PROGRAM [ARGS...]
name=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -eq 77 ]]; then
	echo "SKIPPED: $name: the scenario skipped itself"
	exit 77
fi
if [[ $rc -ne 0 ]] && grep -q "CHECK failed" <<<"$out"; then
	echo "PASS: $name fails against unpatched rdma-core (exit $rc)," \
	     "$(grep -c "CHECK failed" <<<"$out") failed checks"
	exit 0
fi
echo "FAIL: $name was expected to fail against unpatched rdma-core" \
     "(exit $rc)"
exit 1
