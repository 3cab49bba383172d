#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# run_refused.sh LIBDIR RELEASE SHAREBUILD RESULT [NOTE]
#
# With the libraries in LIBDIR (a release outside the supported range)
# loaded, the mlx5-share build SHAREBUILD must refuse: matrix_probe checks
# that exactly those libraries are mapped and that export and import fail
# with EOPNOTSUPP.  Writes "refused 1 1" (or "refused 0 1") to RESULT,
# and "note NOTE" (what the release is, for the table) when given.
set -uo pipefail

libdir=${1:?usage: run_refused.sh LIBDIR RELEASE SHAREBUILD RESULT}
release=${2:?usage}
build=${3:?usage}
result=${4:?usage}
note=${5:-}

mkdir -p "$(dirname "$result")"
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if "$build/bin/mlx5-emu" run --devices 1 -- "$build/bin/matrix_probe" \
	"$libdir" "${release%%.*}" refused; then
	echo "refused 1 1" >"$result"
	st=0
else
	echo "refused 0 1" >"$result"
	st=1
fi
[ -z "$note" ] || echo "note $note" >>"$result"
exit $st
