# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Shell functions the kernel label's scripts share (sourced, not run):
# installing the build tools, downloading Debian's kernel packages with
# apt-get download (nothing is installed), applying a series with git am
# and building the RDMA modules out of tree with W=1 -Werror.
#
# The caller sets W (its work directory, absolute) and SRC (the project
# source), and gets skip/fail/t for its messages.

skip() { echo "SKIP $NAME: $*"; exit 77; }
fail() { echo "FAIL $NAME: $*"; exit 1; }
t() { echo "== $(date +%T) $*"; }

# The modules a change to struct ib_uobject or the uverbs core forces to
# be rebuilt, by directory: the core's (ib_core, ib_uverbs and the rest
# that share its sources), and the two drivers the VM loads.  Every
# other module that uses ib_core's symbols would need rebuilding too to
# load, and none of them is loaded.
RDMA_MODULE_DIRS="core hw/mlx5 sw/rxe"

# Tools: the headers' CONFIG_CC_VERSION_TEXT names gcc-12 on Debian 12;
# a prepared tree also needs flex, bison and libelf for its host tools.
need_tools() {
	missing=
	for tool in gcc-12:gcc-12 make:make bc:bc pahole:pahole xz:xz-utils \
		    perl:perl git:git flex:flex bison:bison \
		    /usr/include/libelf.h:libelf-dev \
		    /usr/include/openssl/ssl.h:libssl-dev; do
		case ${tool%%:*} in
		/*) [ -e "${tool%%:*}" ] ;;
		*) command -v "${tool%%:*}" >/dev/null ;;
		esac || missing="$missing ${tool#*:}"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || skip "missing$missing (not root: cannot install)"
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ apt-get update -qq &&
		  apt-get install -y -qq --no-install-recommends $missing \
			>/dev/null; } ||
		skip "cannot install$missing"
}

# apt-get download PKG=VER... into DIR, once: DIR/.ok-TAG marks a
# complete download; DIR.lock serializes the scripts that share DIR
# (ctest runs two at once).
download_once() {
	dir=$1 tag=$2
	shift 2
	mkdir -p "$(dirname "$dir")"
	{
		flock 8
		[ -e "$dir/.ok-$tag" ] && return 0
		rm -rf "$dir"; mkdir -p "$dir"
		(cd "$dir" && apt-get download -q=2 "$@" 2>&1 |
			grep -v "unsandboxed" || true)
		[ "$(ls "$dir" | wc -l)" -eq $# ] || return 1
		touch "$dir/.ok-$tag"
	} 8>"$dir.lock"
}

# Removes the unpacked trees a script made once its results are saved
# (a kernel tree is 0.5 to 2 GB, and CI machines' disks are not ours to
# size); KERNEL_KEEP_TREES=1 keeps them, so that the next build after a
# change to the series is incremental.
prune_trees() {
	[ "${KERNEL_KEEP_TREES:-0}" = 1 ] && return 0
	rm -rf "$@"
}

# Debian 12's newest linux-source-6.12 and the headers of the same
# version, downloaded once per build tree into DEBS (the folder beside
# W that every script of the label shares): sets DEBS, V (Debian
# version), ABI (6.12.N+deb12) and KVER (the uname -r of
# linux-image-$ABI-amd64, which the VM boots).
fetch_612() {
	DEBS=$(dirname "$W")/debs-612
	candidate() {
		V=$(apt-cache policy linux-source-6.12 2>/dev/null |
			awk '/Candidate:/ {print $2}')
		[ "$V" != "(none)" ] || V=
	}
	get() {
		[ -n "$V" ] || return 1
		ABI=${V%%-*}+deb12
		download_once "$DEBS" "$V" \
			"linux-headers-$ABI-amd64=$V" \
			"linux-headers-$ABI-common=$V" \
			"linux-kbuild-$ABI=$V" "linux-source-6.12=$V"
	}
	candidate
	if ! get; then
		[ "$(id -u)" = 0 ] ||
			skip "no linux-source-6.12 to download (not root: cannot apt-get update)"
		apt-get update -qq || skip "apt-get update failed"
		candidate
		get || skip "apt offers no linux-source-6.12 (bookworm-security)"
	fi
	KVER=$ABI-amd64
}

# Unpacks the headers and kbuild packages of DEBS into a fresh ROOT and
# points the arch tree's Makefile at the private common tree.  Sets KH
# and KC (the two trees).
unpack_headers() {
	debs=$1 root=$2
	rm -rf "$root"
	for d in "$debs"/linux-headers-*.deb "$debs"/linux-kbuild-*.deb; do
		dpkg -x "$d" "$root"
	done
	KH=$(ls -d "$root"/usr/src/linux-headers-*-amd64 | head -n 1)
	KC=$(ls -d "$root"/usr/src/linux-headers-*-common | head -n 1)
	sed -i "s#/usr/src/#$root/usr/src/#" "$KH/Makefile"
}

# Extracts from the linux-source package in DEBS the paths a build of
# the RDMA modules and checkpatch need into DIR (once), or the whole
# tree when the second argument is "all" (Kconfig reads files from every
# architecture and from Documentation/).
extract_source() {
	debs=$1 dir=$2 what=${3:-}
	[ -e "$dir/.ok" ] && return 0
	rm -rf "$dir"; mkdir -p "$dir"
	set -- "*/drivers/infiniband/*" "*/include/*" \
		"*/scripts/checkpatch.pl" "*/scripts/spelling.txt" \
		"*/scripts/const_structs.checkpatch"
	[ "$what" = all ] && set -- "*"
	dpkg-deb --fsys-tarfile "$debs"/linux-source-*.deb |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		nice tar -xJ -C "$dir" --strip-components=1 --wildcards "$@" ||
		fail "cannot extract the kernel source"
	touch "$dir/.ok"
}

# Signs the series in PATCHES with a test identity into W/signed and
# applies it with git am to TREE, a copy of PRISTINE made of hard links
# (or PRISTINE itself when both are the same), whose git repository
# tracks only the files the series touches: git am replaces each file it
# patches (unlink, then create) and a build only adds files, so PRISTINE
# stays pristine.
apply_series() {
	patches=$1 pristine=$2 tree=$3
	rm -rf "$W/signed"
	if [ "$pristine" != "$tree" ]; then
		rm -rf "$tree"
		cp -al "$pristine" "$tree"
	fi
	sh "$SRC/linux/sign-series.sh" --series "$patches" \
		--author "Kernel Label Test <kernel-test@example.org>" \
		--signoff "$W/signed"
	G="git -C $tree -c user.name=Kernel-Label-Test"
	G="$G -c user.email=kernel-test@example.org"
	set -- $(ls "$W"/signed/*.patch | grep -v '/0000-cover-letter\.patch$')
	rm -rf "$tree/.git"
	$G init -q
	$G add -f $(sed -n 's#^diff --git a/\([^ ]*\) .*#\1#p' "$@" | sort -u)
	$G commit -q -m base
	$G tag base
	$G am -q "$@" || fail "the series does not apply to $tree"
	$G log --reverse --format='  %s' base..HEAD
}

# checkpatch --strict of the tree on every signed patch: 0/0/0.
checkpatch_series() {
	tree=$1 rc=0
	for p in $(ls "$W"/signed/*.patch | grep -v '/0000-cover-letter'); do
		perl "$tree/scripts/checkpatch.pl" --no-tree --strict "$p" \
			>"$p.checkpatch" 2>&1 || true
		total=$(grep '^total:' "$p.checkpatch" || echo "total: none")
		echo "  $(basename "$p"): $total"
		case $total in
		"total: 0 errors, 0 warnings, 0 checks,"*) ;;
		*) cat "$p.checkpatch"; rc=1 ;;
		esac
	done
	[ $rc = 0 ] || fail "checkpatch"
}

# Builds the modules of RDMA_MODULE_DIRS of TREE (its drivers/infiniband)
# with make -C KBUILD ARGS..., core first so that the drivers are
# versioned against the rebuilt core's symbols, at W=1 -Werror with
# KERNEL_JOBS jobs (default 1).  Logs go to W/build-*.log.
build_rdma_modules() {
	tree=$1 kbuild=$2
	shift 2
	ib=$tree/drivers/infiniband
	extra=
	for d in $RDMA_MODULE_DIRS; do
		log=$W/build-$(echo "$d" | tr / -).log
		s=$(date +%s)
		nice make -s -j"${KERNEL_JOBS:-1}" -C "$kbuild" "$@" \
			M="$ib/$d" ${extra:+KBUILD_EXTRA_SYMBOLS="$extra"} \
			W=1 KCFLAGS=-Werror modules >"$log" 2>&1 ||
			{ tail -n 40 "$log"; fail "$d does not build at W=1"; }
		grep -i 'warning:' "$log" | grep -v 'pahole version' &&
			fail "$d: warnings"
		echo "  $d: $(cd "$ib/$d" && ls *.ko | tr '\n' ' ')($(($(date +%s) - s)) s)"
		extra="$extra $ib/$d/Module.symvers"
	done
}

# Builds the test module NAME.ko out of tree in B (its source and Kbuild
# copied there) against the headers tree KH, with MAKE_ARGS... added, at
# W=1 -Werror, and checks that it carries KVER's vermagic.
build_test_module() {
	b=$1 name=$2
	shift 2
	nice make -s -C "$KH" M="$b" "$@" W=1 KCFLAGS=-Werror modules \
		>"$W/build.log" 2>&1 ||
		{ tail -n 40 "$W/build.log"; fail "$name does not build"; }
	grep -i 'warning:' "$W/build.log" | grep -v 'pahole version' &&
		fail "$name: warnings"
	magic=$(tr '\0' '\n' <"$b/$name.ko" | sed -n 's/^vermagic=//p')
	case $magic in
	"$KVER "*) ;;
	*) fail "$name.ko: vermagic '$magic', not $KVER" ;;
	esac
}
