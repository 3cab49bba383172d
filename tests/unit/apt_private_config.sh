#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# cmake/apt-private-config.sh on fixture machines (--root), no network:
# the lines it writes for a deb822 mirror, one-line entries, a caching
# proxy's URI with an inline key, and a machine with no Debian archive
# (exit 77); and that apt under its APT_CONFIG still reads this machine's
# apt.conf.d, everything but the four moved directories being the same.
# The fixtures' archives are file: URIs and a loopback proxy: no archive
# host is named, and nothing is fetched.
#
#   apt_private_config.sh SOURCE_DIR
set -euo pipefail
name=unit_apt_private_config
. "$1/tests/common/check.sh"
helper=$1/cmake/apt-private-config.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# machine NAME CODENAME: a fixture root in $work/NAME (files from stdin
# as "== PATH" headers followed by their lines).
machine() {
	local r=$work/$1 f=
	mkdir -p "$r/etc/apt/sources.list.d"
	[ -z "$2" ] || echo "VERSION_CODENAME=\"$2\"" >"$r/etc/os-release"
	while IFS= read -r line; do
		case $line in
		"== "*) f=$r/${line#== }; : >"$f" ;;
		*) printf '%s\n' "$line" >>"$f" ;;
		esac
	done
}

# expect WHAT ROOT TYPE SUITES...: the helper exits 0 and its
# sources.list is stdin's lines
expect() {
	local what=$1 r=$work/$2 type=$3 out
	shift 3
	out=$work/out-$what
	if ! "$helper" --root "$r" "$out" "$type" "$@" 2>"$out.err"; then
		fail "$what: the helper failed: $(cat "$out.err")"
		cat >/dev/null
		return
	fi
	if diff -u - "$out/sources.list" >"$out.diff"; then
		ok
	else
		fail "$what: sources.list"
		cat "$out.diff" >&2
	fi
}

key=/usr/share/keyrings/debian-archive-keyring.gpg
# A deb822 mirror; a disabled stanza and another vendor's "main" come
# first and are passed over.
machine mirror bookworm <<EOF
== etc/apt/sources.list.d/0-old.sources
Types: deb
URIs: file:/srv/disabled/debian
Suites: bookworm
Components: main
Enabled: no

== etc/apt/sources.list.d/1-vendor.sources
Types: deb
URIs: file:/srv/vendor/apt
Suites: nodistro
Components: main
Signed-By: /usr/share/keyrings/vendor.gpg
== etc/apt/sources.list.d/debian.sources
# a comment line
Types: deb
URIs: file:/srv/mirror/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: $key

Types: deb
URIs: file:/srv/mirror/debian-security
Suites: bookworm-security
Components: main
Signed-By: $key
EOF
expect mirror-src mirror deb-src bookworm bookworm-updates bookworm-security <<EOF
deb-src [signed-by=$key] file:/srv/mirror/debian bookworm main
deb-src [signed-by=$key] file:/srv/mirror/debian bookworm-updates main
deb-src [signed-by=$key] file:/srv/mirror/debian-security bookworm-security main
EOF
expect mirror-sid mirror deb sid experimental <<EOF
deb [signed-by=$key] file:/srv/mirror/debian sid main
deb [signed-by=$key] file:/srv/mirror/debian experimental main
EOF
check "mirror: apt.conf moves the four directories and nothing else" \
	diff - "$work/out-mirror-sid/apt.conf" <<EOF
Dir::Etc::sourcelist "$work/out-mirror-sid/sources.list";
Dir::Etc::sourceparts "$work/out-mirror-sid/sources.list.d";
Dir::State::lists "$work/out-mirror-sid/lists";
Dir::Cache "$work/out-mirror-sid/cache";
EOF

# One-line entries: sources.list first, options in brackets with spaces,
# a .list file of sources.list.d, no signed-by on the security entry.
machine oneline bookworm <<EOF
== etc/apt/sources.list
# deb file:/srv/commented/debian bookworm main
deb [ arch=amd64 signed-by=/etc/apt/keyrings/debian.gpg ] file:/srv/one/debian bookworm main non-free-firmware
deb-src file:/srv/one/debian bookworm main
== etc/apt/sources.list.d/security.list
deb file:/srv/one/debian-security bookworm-security main # inline comment
EOF
expect oneline oneline deb-src bookworm bookworm-security sid <<EOF
deb-src [signed-by=/etc/apt/keyrings/debian.gpg] file:/srv/one/debian bookworm main
deb-src file:/srv/one/debian-security bookworm-security main
deb-src [signed-by=/etc/apt/keyrings/debian.gpg] file:/srv/one/debian sid main
EOF

# A caching proxy's URIs, on a machine that names no codename (sid): the
# key is inline in the .sources file, so it is written beside the list;
# no -security entry, so that suite is left out with a note.  The URI is
# this machine's own first http(s) archive address (a mirror or a proxy
# as it is configured here), else a file: one: none is written down.
proxy_uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v '^[[:space:]]*#' |
	grep -oE 'https?://[^] ]+' | head -1 || true)
proxy_uri=${proxy_uri:-file:/srv/proxy/debian}
machine proxy "" <<EOF
== etc/apt/sources.list.d/debian.sources
Types: deb deb-src
URIs: $proxy_uri
Suites: sid
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 bQINBGPL0BUBEADmW5NdOOHwPIJlgPu6JDcKw/NZJPJpxsjwg4KOIEd0GCHO
 -----END PGP PUBLIC KEY BLOCK-----
EOF
out=$work/out-proxy
expect proxy proxy deb sid experimental bookworm-security <<EOF
deb [signed-by=$out/signed-by-1.asc] $proxy_uri sid main
deb [signed-by=$out/signed-by-1.asc] $proxy_uri experimental main
EOF
check "proxy: the inline key written as its lines" diff - "$out/signed-by-1.asc" <<EOF
-----BEGIN PGP PUBLIC KEY BLOCK-----

bQINBGPL0BUBEADmW5NdOOHwPIJlgPu6JDcKw/NZJPJpxsjwg4KOIEd0GCHO
-----END PGP PUBLIC KEY BLOCK-----
EOF
check "proxy: the left-out suite is named" grep -q bookworm-security "$out.err"

# No Debian archive: only other vendors' entries.
machine none bookworm <<EOF
== etc/apt/sources.list.d/vendor.list
deb file:/srv/vendor/apt cloud-sdk-bookworm main
EOF
st=0
"$helper" --root "$work/none" "$work/out-none" deb sid 2>"$work/none.err" ||
	st=$?
check "none: exit 77" test "$st" -eq 77
check "none: says why" grep -q 'no Debian archive URI configured' \
	"$work/none.err"
check "none: no sources.list" test ! -e "$work/out-none/sources.list"

# Under the private APT_CONFIG apt reads this machine's apt.conf.d (its
# proxy, ...): every setting but the four moved is this machine's own.
if command -v apt-config >/dev/null; then
	moved='^(Dir::Etc::sourcelist|Dir::Etc::sourceparts|Dir::State::lists|Dir::Cache) '
	env -u APT_CONFIG apt-config dump | grep -Ev "$moved" >"$work/dump"
	APT_CONFIG=$work/out-mirror-sid/apt.conf apt-config dump \
		>"$work/dump-private"
	check "apt-config: the machine's settings kept" \
		diff "$work/dump" <(grep -Ev "$moved" "$work/dump-private")
	check "apt-config: the source list moved" grep -qx \
		"Dir::Etc::sourcelist \"$work/out-mirror-sid/sources.list\";" \
		"$work/dump-private"
else
	echo "no apt-config: the apt.conf.d check is left out"
fi
finish
