#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The style every git-tracked C source and header keeps (ctest -L style):
#  - the first line is the SPDX identifier, "//" in a .c file and "/* */"
#    in a .h file, as the kernel writes them;
#  - no line is wider than 80 columns, tabs counting to the next multiple
#    of 8;
#  - no line ends in white space.
# Layout beyond that follows .clang-format, which is not enforced here.
# Prints every violation as FILE:LINE: what, and fails when there is one.
#
#   check-style.sh SOURCE_DIR
set -u
export LC_ALL=C
cd "$1" || exit 1
if ! command -v git >/dev/null; then
	echo "SKIPPED: style: no git (the check reads git ls-files)"
	exit 77
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIPPED: style: $1 is not a git checkout (the check reads" \
		"git ls-files)"
	exit 77
fi

spdx='SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB'
git ls-files -z -- '*.c' '*.h' | xargs -0 awk -v spdx="$spdx" '
function columns(s,    i, c, w) {
	w = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\t")
			w += 8 - w % 8
		else
			w++
	}
	return w
}
FNR == 1 {
	files++
}
FNR == 1 {
	want = FILENAME ~ /\.c$/ ? "// " spdx : "/* " spdx " */"
	if ($0 != want) {
		printf "%s:1: first line is not \"%s\"\n", FILENAME, want
		bad++
	}
}
{
	line = $0
	# a UTF-8 character is one column
	gsub(/[\200-\277]/, "", line)
	if (columns(line) > 80) {
		printf "%s:%d: %d columns (80 at most)\n", FILENAME, FNR,
		       columns(line)
		bad++
	}
	if ($0 ~ /[ \t\r]$/) {
		printf "%s:%d: trailing white space\n", FILENAME, FNR
		bad++
	}
}
END {
	printf "style: %d files, %d violations\n", files, bad
	exit bad > 0
}'
