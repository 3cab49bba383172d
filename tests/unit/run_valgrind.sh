#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs each test program given under valgrind memcheck; fails on the first
# invalid access or definite/indirect leak (or a failing test).
#
#   run_valgrind.sh VALGRIND PROGRAM...
valgrind=$1
shift
status=0
for prog in "$@"; do
	echo "== valgrind $prog"
	"$valgrind" -q --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$prog" || status=1
done
exit $status
