#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# mlx5-share-demo (exporter and its forked importer) under valgrind
# memcheck: no invalid access, no invalid file descriptor (such as a
# close(-1)), and the demo itself passing.
#
#   demo-valgrind.sh DEMO
set -u
demo=$1
if ! command -v valgrind >/dev/null; then
	echo "SKIPPED: tools-demo-valgrind: valgrind is not installed"
	exit 77
fi
out=$(valgrind --error-exitcode=99 "$demo" --no-emulate 2>&1)
st=$?
printf '%s\n' "$out"
failed=0
if [ "$st" -ne 0 ]; then
	echo "demo-valgrind: FAIL: exit status $st" >&2
	failed=1
fi
if printf '%s\n' "$out" | grep -q 'invalid file descriptor'; then
	echo "demo-valgrind: FAIL: an invalid file descriptor was used" >&2
	failed=1
fi
[ "$failed" -eq 0 ] && echo "demo-valgrind: ok"
exit "$failed"
