#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs each test program given under valgrind memcheck; fails on the first
# invalid access or definite/indirect leak (or a failing test).
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIPPED: unit_valgrind: valgrind is not installed"
	exit 77
fi
status=0
for prog in "$@"; do
	echo "== valgrind $prog"
	valgrind -q --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$prog" || status=1
done
exit $status
