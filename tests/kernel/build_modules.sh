#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Builds the Linux series for Debian 12 (linux/patches-6.12) into loadable
# modules for the newest linux-image-6.12.*-amd64 that apt offers, the
# kernel the VM tests boot:
#  1. downloads linux-source-6.12 and the linux-headers/linux-kbuild of
#     the same version (apt-get download: nothing is installed);
#  2. signs the series with a test identity and applies it with git am
#     to the pristine sources (WORK/tree-612, WORK/signed);
#  3. builds the modules of drivers/infiniband/{core,hw/mlx5,sw/rxe}
#     out of tree against the headers, the series' include/ changes put
#     into them, with W=1 -Werror, the drivers versioned against the
#     rebuilt core's symbols (kernel_lib.sh);
#  4. writes WORK/kver (the image's uname -r, e.g. 6.12.57+deb12-amd64)
#     and WORK/modules/*.ko (uncompressed), each checked to carry that
#     vermagic.
# A second run with the same kernel version, series and scripts reuses
# WORK/modules.  Exits 77 where the packages cannot be had (no apt, not
# root to install tools, no bookworm-security).  The VM tests call it
# through the ctest fixture linux_612_modules; keep its interface.
#
# Usage: build_modules.sh PROJECT_SOURCE_DIR WORK_DIR
set -eu
NAME=linux_612_modules
[ $# -eq 2 ] || { echo "usage: $0 PROJECT_SOURCE_DIR WORK_DIR" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
W=$(cd "$2" && pwd)
. "$SRC/tests/kernel/kernel_lib.sh"
start=$(date +%s)

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip "no apt-get/dpkg-deb: not a Debian system"
t "tools"
need_tools
t "download (cached beside $W)"
fetch_612
echo "kernel $KVER (Debian $V)"

# What the modules and the signed copies depend on: not the cover letter.
key=$( (echo "$V"; ls "$SRC"/linux/patches-6.12/*.patch |
	grep -v '/0000-cover-letter\.patch$' | xargs cat;
	cat "$SRC/tests/kernel/kernel_lib.sh" "$SRC/linux/sign-series.sh" \
		"$0") | sha256sum | cut -c1-16)
if [ "$(cat "$W/modules/.key" 2>/dev/null)" = "$key" ] &&
   [ -d "$W/tree-612" ]; then
	echo "reused: $W/modules ($(cat "$W/kver"))"
	exit 0
fi
rm -rf "$W/modules" "$W/kver"

t "headers"
unpack_headers "$DEBS" "$W/root-612"
t "sources (cached in $W/pristine-$V)"
[ -e "$W/pristine-$V/.ok" ] || rm -rf "$W"/pristine-*
extract_source "$DEBS" "$W/pristine-$V"
t "sign and git am"
T=$W/tree-612
apply_series "$SRC/linux/patches-6.12" "$W/pristine-$V" "$T"

t "build (W=1, warnings are errors)"
for f in $(git -C "$T" diff --name-only base HEAD -- include/); do
	cp "$T/$f" "$KC/$f"
done
# cm_trace.h names its own directory relative to include/trace/.
mkdir -p "$KC/drivers/infiniband"
ln -sfn "$T/drivers/infiniband/core" "$KC/drivers/infiniband/core"
build_rdma_modules "$T" "$KH"

t "collect"
rm -rf "$W/modules.new"; mkdir -p "$W/modules.new"
for d in $RDMA_MODULE_DIRS; do
	cp "$T/drivers/infiniband/$d"/*.ko "$W/modules.new/"
done
for m in "$W"/modules.new/*.ko; do
	magic=$(tr '\0' '\n' <"$m" | sed -n 's/^vermagic=//p')
	case $magic in
	"$KVER "*) ;;
	*) fail "$(basename "$m"): vermagic '$magic', not $KVER" ;;
	esac
done
echo "$key" >"$W/modules.new/.key"
mv "$W/modules.new" "$W/modules"
echo "$KVER" >"$W/kver"
echo "  $(ls "$W/modules" | tr '\n' ' ')"
t "built in $(($(date +%s) - start)) s"
