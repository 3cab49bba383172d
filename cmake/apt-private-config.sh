#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A private apt configuration in DIR for Debian suites this machine does
# not list (deb-src of its release, sid, experimental...), built from the
# Debian archive its own apt already uses: a mirror, a caching proxy's
# URI and apt's proxy settings keep working, and no archive's host name
# is written in this repository.
#
#   apt-private-config.sh [--root ROOT] DIR TYPE SUITE...
#   APT_CONFIG=DIR/apt.conf apt-get update ...
#
# TYPE is deb or deb-src.  DIR/sources.list gets one line per SUITE,
# "TYPE [signed-by=KEY] URI SUITE main": a SUITE ending in -security
# takes the URI of the machine's entry whose suite ends in -security;
# any other the URI of the entry that serves the release's own suite
# (VERSION_CODENAME of os-release; without one, stable, testing,
# unstable or sid).  signed-by is kept where that entry has one (an
# inline key of a .sources file is written to DIR).  The machine's entries
# are read as apt reads them: etc/apt/sources.list, then the *.list
# (one-line) and *.sources (deb822) files of etc/apt/sources.list.d.
#
# DIR/apt.conf moves only the source lists, the package lists and the
# cache into DIR: apt reads the machine's apt.conf.d after APT_CONFIG,
# so its proxy and other settings still apply.
#
# ROOT (default /) is where etc/apt and etc/os-release are read, for the
# tests' fixtures.  Exits 77, saying why on stderr, when no Debian
# archive URI is configured.
set -euo pipefail
root=/
if [ "${1:-}" = --root ]; then
	root=$2
	shift 2
fi
if [ $# -lt 3 ] || { [ "$2" != deb ] && [ "$2" != deb-src ]; }; then
	echo "usage: $0 [--root ROOT] DIR deb|deb-src SUITE..." >&2
	exit 2
fi
dir=$1 type=$2
shift 2
etc=${root%/}/etc/apt

codename=
for f in "${root%/}/etc/os-release" "${root%/}/usr/lib/os-release"; do
	if [ -r "$f" ]; then
		codename=$(sed -n 's/^VERSION_CODENAME=//p' "$f" | tr -d "\"'")
		break
	fi
done

mkdir -p "$dir/sources.list.d" "$dir/lists/partial" \
	"$dir/cache/archives/partial"
dir=$(cd "$dir" && pwd)

# The machine's entries in apt's order, one line per suite of each:
# "SUITE URI SIGNED-BY COMPONENTS" (SIGNED-BY "-" for none, files joined
# with commas as the one-line format wants them).
files=()
[ -e "$etc/sources.list" ] && files+=("$etc/sources.list")
for f in "$etc"/sources.list.d/*; do
	case $f in
	*.list | *.sources) files+=("$f") ;;
	esac
done
entries=$dir/machine-entries
if [ ${#files[@]} -eq 0 ]; then
	: >"$entries"
else
	LC_ALL=C awk -v keys="$dir/signed-by-" '
	function emit(suites, uri, key, comps,    n, s, i) {
		if (uri == "" || suites == "" || comps == "")
			return
		n = split(suites, s, " ")
		for (i = 1; i <= n; i++)
			print s[i], uri, (key == "" ? "-" : key), comps
	}
	# A deb822 stanza ends at a blank line or at the end of its file.
	function stanza(    key, uri) {
		if (enabled != "no" && uris != "") {
			split(uris, uri, " ")
			if (signed ~ /^-----BEGIN/) {
				inline = signed "\n" inline
				signed = ""
			}
			key = signed
			if (inline != "") {
				nkeys++
				key = keys nkeys ".asc"
				printf "%s", inline >key
				close(key)
			}
			gsub(/ +/, ",", key)
			emit(suites, uri[1], key, comps)
		}
		uris = suites = comps = signed = inline = enabled = field = ""
	}
	function trim(s) {
		sub(/^[ \t]+/, "", s)
		sub(/[ \t]+$/, "", s)
		return s
	}
	FNR == 1 {
		if (deb822)
			stanza()
		deb822 = FILENAME ~ /\.sources$/
	}
	deb822 && /^#/ { next }
	deb822 && /^[ \t]*$/ { stanza(); next }
	# A continuation line: an inline key of Signed-By (" ." is a blank
	# line of it), or more values of a list field.
	deb822 && /^[ \t]/ {
		if (field == "signed-by")
			inline = inline (trim($0) == "." ? "" : trim($0)) "\n"
		else if (field == "uris")
			uris = uris " " trim($0)
		else if (field == "suites")
			suites = suites " " trim($0)
		else if (field == "components")
			comps = comps " " trim($0)
		next
	}
	deb822 {
		i = index($0, ":")
		field = tolower(trim(substr($0, 1, i - 1)))
		value = trim(substr($0, i + 1))
		if (field == "uris") uris = value
		else if (field == "suites") suites = value
		else if (field == "components") comps = value
		else if (field == "signed-by") signed = value
		else if (field == "enabled") enabled = tolower(value)
		next
	}
	# One-line: TYPE [OPTIONS] URI SUITE COMPONENT...
	{
		sub(/#.*/, "")
		if ($1 != "deb" && $1 != "deb-src")
			next
		line = $0
		key = ""
		opts = ""
		if (match(line, /\[[^]]*\]/)) {
			opts = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, 1, RSTART - 1) " " \
				substr(line, RSTART + RLENGTH)
		}
		n = split(opts, o, " ")
		for (i = 1; i <= n; i++)
			if (tolower(o[i]) ~ /^signed-by=/)
				key = substr(o[i], 11)
		n = split(line, w, " ")
		if (n < 4)
			next
		comps = w[4]
		for (i = 5; i <= n; i++)
			comps = comps " " w[i]
		emit(w[3], w[2], key, comps)
	}
	END { if (deb822) stanza() }
	' "${files[@]}" >"$entries"
fi

# The first entry of a suite that SUITE_RE matches and that has main.
pick() {
	awk -v re="$1" '$1 ~ re && (" " $0 " ") ~ / main / {
		print $2, $3; exit }' "$entries"
}
if [ -n "$codename" ]; then
	main=$(pick "^$codename\$")
else
	main=$(pick '^(stable|testing|unstable|sid)$')
fi
security=$(pick -security\$)
if [ -z "$main" ]; then
	echo "no Debian archive URI configured in $etc (no entry of" \
		"${codename:-stable, testing, unstable or sid} with main)" >&2
	exit 77
fi

: >"$dir/sources.list"
for s in "$@"; do
	case $s in
	*-security) from=$security ;;
	*) from=$main ;;
	esac
	if [ -z "$from" ]; then
		echo "apt-private-config: no -security entry in $etc:" \
			"$s left out" >&2
		continue
	fi
	read -r uri key <<<"$from"
	opt=
	[ "$key" = - ] || opt="[signed-by=$key] "
	echo "$type $opt$uri $s main" >>"$dir/sources.list"
done

cat >"$dir/apt.conf" <<CONF
Dir::Etc::sourcelist "$dir/sources.list";
Dir::Etc::sourceparts "$dir/sources.list.d";
Dir::State::lists "$dir/lists";
Dir::Cache "$dir/cache";
CONF
