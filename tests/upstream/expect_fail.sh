#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs a sharing scenario against unpatched rdma-core, where it must fail:
# passes only when the program exits with a failure (not a skip) after a
# failed check.  The output says which kind:
#   CHECK failed    the unpatched library accepted what must be refused
#                   (the import that must fail returned an object), or
#                   a crash on a bad argument;
#   REQUIRE failed  the scenario could not go on, e.g. the unpatched
#                   export wrote its field copy, not the checked blob the
#                   scenario reads the exported object id from.
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
checks=$(grep -c "CHECK failed" <<<"$out")
requires=$(grep -c "REQUIRE failed" <<<"$out")
if [[ $rc -ne 0 && $((checks + requires)) -gt 0 ]]; then
	echo "PASS: $name fails against unpatched rdma-core (exit $rc):" \
	     "$checks failed checks, $requires failed requirements"
	exit 0
fi
echo "FAIL: $name was expected to fail against unpatched rdma-core" \
     "(exit $rc)"
exit 1
