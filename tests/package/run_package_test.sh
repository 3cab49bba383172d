#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The packages as a distribution user gets them: build the .debs from a
# copy of the git-tracked tree (never a developer's build dirs), check them
# with lintian, install them next to Debian's libibverbs-dev and
# ibverbs-providers, build the upstream-style application against the
# installed packages and run it under the installed mlx5-emu, remove them;
# then build the RPMs from the same tree.
#
#   run_package_test.sh SOURCE_DIR
#
# Needs root (it installs and removes packages), dpkg-buildpackage and
# rpmbuild; otherwise it prints SKIPPED and exits 77.
set -uo pipefail
name=package
src=$(cd "$1" && pwd)
pkgs=(libmlx5-share1 libmlx5-share-dev mlx5-share-tools)
# shellcheck source=../common/check.sh
. "$(dirname "$0")/../common/check.sh"
step() { echo "== $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root to install and remove the packages"
for tool in dpkg-buildpackage rpmbuild apt-get git lintian cc pkg-config \
	readelf; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	skip "$src is not a git checkout (the tree is copied with git ls-files)"
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null |
		grep -q installed; then
		skip "$p is already installed; this test would replace and remove it"
	fi
done

tmp=$(mktemp -d)
installed=0
cleanup() {
	if [ "$installed" -eq 1 ]; then
		apt-get remove --purge -y -q "${pkgs[@]}" >/dev/null 2>&1
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive

step "copy the git-tracked tree"
tree=$tmp/mlx5-share
mkdir -p "$tree"
(cd "$src" && git ls-files -z | while IFS= read -r -d '' f; do
	[ -e "$f" ] || [ -L "$f" ] || continue	# deleted, not yet committed
	printf '%s\0' "$f"
done | xargs -0 cp -a --parents -t "$tree") || { fail "copy"; finish; }
check "no build dir copied" test -z "$(find "$tree" -maxdepth 1 -type d \
	\( -name 'build*' -o -name 'obj-*' \))"
# A pristine copy for the RPM build, named as its Source0 tarball wants.
version=$(sed -n 's/^Version: *//p' "$tree/redhat/mlx5-share.spec")
cp -a "$tree" "$tmp/mlx5-share-$version"

step "dpkg-buildpackage -us -uc -b"
if (cd "$tree" && dpkg-buildpackage -us -uc -b -j2) >"$tmp/deb.log" 2>&1; then
	ok
else
	tail -40 "$tmp/deb.log" >&2
	fail "dpkg-buildpackage"
	finish
fi
debs=()
for p in "${pkgs[@]}"; do
	f=$(ls "$tmp/${p}_"*.deb 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		debs+=("$f")
		ok
	else
		fail "no $p .deb"
	fi
done

step "lintian"
if lintian --fail-on error "${debs[@]}" >"$tmp/lintian.log" 2>&1; then
	ok
else
	cat "$tmp/lintian.log" >&2
	fail "lintian reports errors"
fi
grep -v 'running with root privileges' "$tmp/lintian.log"

step "apt-get install the packages"
installed=1
if apt-get install -y -q --no-install-recommends "${debs[@]}" \
	>"$tmp/apt.log" 2>&1; then
	ok
else
	cat "$tmp/apt.log" >&2
	fail "apt-get install"
	finish
fi
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# Debian's own files are still Debian's: nothing was replaced or diverted.
check "mlx5dv.h still libibverbs-dev's" \
	sh -c "dpkg -S /usr/include/infiniband/mlx5dv.h | grep -q '^libibverbs-dev:'"
check "libmlx5.so still libibverbs-dev's" \
	sh -c "dpkg -S /usr/lib/$ma/libmlx5.so | grep -q '^libibverbs-dev:'"
check "no diversion" sh -c "! dpkg-divert --list | grep -q mlx5"
check "man page installed" sh -c "man -w mlx5dv_devx_obj_import >/dev/null"

step "build the upstream-style application against the packages"
app=$src/tests/install/upstream_app.c
cflags="-std=gnu11 -Wall -Wextra -Werror -I$src/tests/common"
build_app() { # output, then the flags
	local out=$1; shift
	# shellcheck disable=SC2086
	if cc $cflags "$app" -o "$out" "$@" 2>"$out.log"; then
		ok
	else
		cat "$out.log" >&2
		fail "build $(basename "$out"): $*"
	fi
}
# shellcheck disable=SC2046
build_app "$tmp/app-pc" $(PKG_CONFIG_PATH=/usr/lib/$ma/mlx5-share/pkgconfig \
	pkg-config --cflags --libs libmlx5 libibverbs)
# shellcheck disable=SC2046
build_app "$tmp/app-pc-share" $(pkg-config --cflags --libs libmlx5-share)
for bin in "$tmp/app-pc" "$tmp/app-pc-share"; do
	[ -x "$bin" ] || continue
	b=$(basename "$bin")
	for so in libmlx5.so.1 libmlx5-share.so.1; do
		check "$b NEEDs $so" \
			sh -c "readelf -d '$bin' | grep -q '(NEEDED).*\[$so\]'"
	done
	# Ours first: it keeps its functions over a libmlx5 that has the
	# same MLX5_1.27 ones (rdma-core 63 and later; mlx5-share(7)).
	check "$b NEEDs libmlx5-share.so.1 before libmlx5.so.1" sh -c \
		"readelf -d '$bin' | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		 grep -E '^libmlx5(-share)?\.so\.1$' | head -1 |
		 grep -qx 'libmlx5-share.so.1'"
	# each handle rule of the kernel: the stale records' answers differ
	for h in unique lowest-free; do
		echo "running $b under /usr/bin/mlx5-emu, --handles=$h"
		if /usr/bin/mlx5-emu run --handles=$h -- "$bin" $h; then
			ok
		else
			fail "$b under the installed mlx5-emu --handles=$h"
		fi
	done
done

step "apt-get remove --purge"
if apt-get remove --purge -y -q "${pkgs[@]}" >"$tmp/remove.log" 2>&1; then
	installed=0
	ok
else
	cat "$tmp/remove.log" >&2
	fail "apt-get remove"
fi
for p in "${pkgs[@]}"; do
	check "$p removed" sh -c "! dpkg-query -W -f='\${db:Status-Status}' $p 2>/dev/null | grep -q installed"
done
check "system header intact" test -e /usr/include/infiniband/mlx5dv.h
check "system libmlx5.so intact" test -e "/usr/lib/$ma/libmlx5.so"

step "rpmbuild -bb"
rpmtop=$tmp/rpmbuild
mkdir -p "$rpmtop/SOURCES"
tar -C "$tmp" -czf "$rpmtop/SOURCES/mlx5-share-$version.tar.gz" \
	"mlx5-share-$version"
# Build dependencies name Fedora packages, which dpkg does not know.
if rpmbuild -bb --nodeps --define "_topdir $rpmtop" \
	"$tmp/mlx5-share-$version/redhat/mlx5-share.spec" >"$tmp/rpm.log" 2>&1; then
	ok
else
	tail -40 "$tmp/rpm.log" >&2
	fail "rpmbuild"
fi
for p in mlx5-share mlx5-share-devel mlx5-share-tools; do
	f=$(ls "$rpmtop"/RPMS/*/"$p-$version"-*.rpm 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		ok
		echo "$(basename "$f"):"
		rpm -qlp "$f" 2>/dev/null | sed 's/^/  /'
	else
		fail "no $p rpm"
	fi
done
finish
