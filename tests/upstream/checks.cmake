# rdma-core's own checks on the series (label upstream), included by
# tests/upstream/CMakeLists.txt:
#   upstream_checkpatch    the kernel's checkpatch.pl with rdma-core's CI
#                          options on every patch (checkpatch.sh)
#   upstream_patch_builds  libibverbs and libmlx5, gcc and clang -Werror,
#                          at every patch on every base (a list given
#                          with -DRDMA_CORE_BASES=, or the ones below),
#                          the same series on 64.0 (patch_builds.sh)
#   upstream_check_build   buildlib/check-build --src on the patched tree
#                          of the upstream_rdma_core fixture
# The bases: RDMA_CORE_SOURCE, RDMA_CORE_SOURCE_V64 when defined, and
# rdma-core master 691953d8d and 64.0 from the reference tarballs'
# folder (MLX5_SHARE_UPSTREAM_DIR, else ../shared/upstream), each once.
if(NOT RDMA_CORE_BASES)
	if(MLX5_SHARE_UPSTREAM_DIR)
		set(_dir "${MLX5_SHARE_UPSTREAM_DIR}")
	else()
		set(_dir "${PROJECT_SOURCE_DIR}/../shared/upstream")
	endif()
	set(_bases "")
	foreach(_p ${RDMA_CORE_SOURCE} ${RDMA_CORE_SOURCE_V64}
			"${_dir}/rdma-core-master-691953d8d.tar.xz"
			"${_dir}/rdma-core-64.0.tar.xz")
		if(EXISTS "${_p}")
			get_filename_component(_p "${_p}" REALPATH)
			list(APPEND _bases "${_p}")
		endif()
	endforeach()
	if(_bases)
		list(REMOVE_DUPLICATES _bases)
	endif()
else()
	set(_bases ${RDMA_CORE_BASES})
endif()

set(_checks upstream_checkpatch upstream_patch_builds upstream_check_build)
if(NOT RDMA_CORE_SOURCE)
	foreach(t ${_checks})
		mlx5_share_skipped_test(${t} upstream
			"no rdma-core source (configure with -DRDMA_CORE_SOURCE=...)")
	endforeach()
else()
	# One series for both bases (64.0 is a test input, not a target).
	set(_series_v64 "${PROJECT_SOURCE_DIR}/upstream/patches")
	add_test(NAME upstream_checkpatch
		COMMAND bash "${_here}/checkpatch.sh"
			"${PROJECT_SOURCE_DIR}/upstream/patches"
			"${RDMA_CORE_SOURCE}"
			"${CMAKE_CURRENT_BINARY_DIR}/checkpatch")
	# upstream_build builds RDMA_CORE_SOURCE and upstream_series_v64
	# RDMA_CORE_SOURCE_V64 with gcc at every patch.
	add_test(NAME upstream_patch_builds
		COMMAND bash "${_here}/patch_builds.sh"
			"${PROJECT_SOURCE_DIR}/upstream/patches"
			"${PROJECT_SOURCE_DIR}"
			"${CMAKE_CURRENT_BINARY_DIR}/patch-builds"
			--primary "${RDMA_CORE_SOURCE}"
			--series "${RDMA_CORE_SOURCE_V64}=${_series_v64}"
			--skip "${RDMA_CORE_SOURCE}:gcc"
			--skip "${RDMA_CORE_SOURCE_V64}:gcc" ${_bases})
	set_tests_properties(upstream_patch_builds PROPERTIES TIMEOUT 3600
		COST 250)
	add_test(NAME upstream_check_build
		COMMAND bash "${_here}/check_build.sh" "${_patched}")
	set_tests_properties(upstream_check_build PROPERTIES TIMEOUT 900
		FIXTURES_REQUIRED upstream_rdma_core)
endif()
upstream_test_defaults(${_checks})
