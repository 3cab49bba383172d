#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The committed seed corpus is exactly what gen_corpus writes today, so a
# change of the blob format cannot leave the fuzzers starting from junk.
#
#   check_corpus.sh GEN_CORPUS COMMITTED_DIR SCRATCH_DIR
set -euo pipefail
gen=$1
committed=$2
fresh=$3
rm -rf "$fresh"
mkdir -p "$fresh"
"$gen" "$fresh"
if ! diff -r "$committed" "$fresh"; then
	echo "corpus is stale: regenerate with $gen $committed"
	exit 1
fi
echo "fuzz-corpus-fresh: $(ls "$fresh" | wc -l) seeds match"
