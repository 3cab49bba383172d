#!/bin/bash
# Configure and build mlx5-share into build/ (libraries in build/lib,
# programs in build/bin, public headers in build/include).
#
#   ./build.sh [--deps | --test-deps] [extra cmake -D options]
#
# --deps first installs the Debian packages the build and the demo need
# (cmake/debian-packages-demo.txt); --test-deps those and the ones the
# tests add (cmake/debian-packages-tests.txt).  As root it runs apt-get;
# otherwise it prints the one apt-get line to run and stops.
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"

lists=()
case ${1:-} in
--deps) lists=(cmake/debian-packages-demo.txt) ;;
--test-deps) lists=(cmake/debian-packages-demo.txt
	cmake/debian-packages-tests.txt) ;;
esac
if [ ${#lists[@]} -gt 0 ]; then
	shift
	mapfile -t pkgs < <(grep -hv '^#' "${lists[@]}" | grep .)
	missing=()
	for p in "${pkgs[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		if [ "$(id -u)" -ne 0 ]; then
			echo "build.sh: missing packages; run as root:" >&2
			echo "  apt-get update && apt-get install -y" \
				"--no-install-recommends ${missing[*]}" >&2
			exit 1
		fi
		echo "build.sh: installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q >/dev/null
		apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
	fi
fi

cmake -S . -B build "$@" >/dev/null
cmake --build build -j"$(nproc)"
