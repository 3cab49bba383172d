# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Preparing an rdma-core source tree, for every test that builds one
# (tests/matrix/build_rdma_core.sh, tests/upstream/*.sh); sourced:
#   rc_unpack SOURCE DIR   SOURCE (a release tarball rdma-core-VER.tar.*,
#                          a git checkout or a plain tree) into DIR
#   rc_git_base DIR MSG    DIR made a git repository with one commit, MSG,
#                          by a fixed identity, for `git am` to apply to
#   rc_am_build TREE BUILD SERIES WHO
#                          each patch of SERIES (cover letter left out)
#                          applied to TREE with git am, then libibverbs and
#                          libmlx5 (targets ibverbs, mlx5) rebuilt in BUILD
#                          by ninja (UPSTREAM_JOBS jobs, default 1): what
#                          the patch changed and what depends on it; fails
#                          at the first patch that does not apply or build,
#                          saying "FAIL: WHO<patch> ..."
#   rc_cmake_python        the -DPYTHON_EXECUTABLE= option every rdma-core
#                          configure gets: the system's python3 when there
#                          is one, so that the generators run by the
#                          build (kernel-abi, pyverbs) do not go through a
#                          version manager's shim (pyenv's costs ~0.2 s a
#                          call, and a build makes dozens)
#   RC_NO_DEBUG_INFO       (array) the options every rdma-core configure
#                          gets: its build types' flags without -g, i.e.
#                          RelWithDebInfo -O2 -DNDEBUG and Debug -O0 as
#                          CMake and rdma-core set them, less the debug
#                          information nothing here reads.  The code and
#                          the compilers' diagnostics (-Werror) are those
#                          of the build type; -g costs 20-30% of each
#                          compile (gcc -O2 and clang -O0 on mlx5/verbs.c,
#                          gcc -O2 on pyverbs/qp.c, measured here)

rc_unpack() {
	mkdir -p "$2"
	if [[ -f "$1" ]]; then
		tar -xf "$1" -C "$2" --strip-components=1
	elif [[ -e "$1/.git" ]]; then
		git -C "$1" archive HEAD | tar -xf - -C "$2"
	elif [[ -f "$1/CMakeLists.txt" ]]; then
		cp -a "$1/." "$2"
	else
		echo "$1 is neither a tarball nor an rdma-core tree" >&2
		return 1
	fi
}

# git am records the identity; nothing here depends on who runs.
export GIT_AUTHOR_NAME=mlx5-share GIT_AUTHOR_EMAIL=mlx5-share@invalid
export GIT_COMMITTER_NAME=mlx5-share GIT_COMMITTER_EMAIL=mlx5-share@invalid
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

rc_git_base() {
	git -C "$1" init -q &&
		git -C "$1" add -A -f . &&
		git -C "$1" commit -q -m "$2"
}

rc_am_build() {
	local patch
	for patch in "$3"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ "$(basename "$patch")" == 0000-* ]] && continue
		echo "-- $(basename "$patch")"
		if ! git -C "$1" am -q "$patch"; then
			echo "FAIL: $4$(basename "$patch") does not apply"
			return 1
		fi
		if ! ninja -C "$2" -j "${UPSTREAM_JOBS:-1}" ibverbs mlx5 \
			>"$2/ninja.log" 2>&1; then
			cat "$2/ninja.log"
			echo "FAIL: $4$(basename "$patch") does not build" \
				"with -Werror"
			return 1
		fi
	done
}

RC_NO_DEBUG_INFO=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
	-DCMAKE_C_FLAGS_DEBUG=-O0)

rc_cmake_python() {
	if [[ -x /usr/bin/python3 ]]; then
		echo "-DPYTHON_EXECUTABLE=/usr/bin/python3"
	fi
}
