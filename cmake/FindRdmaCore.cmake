# Locate the installed rdma-core (libibverbs, libmlx5) and decide which
# private libmlx5 layout this build targets.
#
# Sets: IBVERBS_*, MLX5_* (pkg-config), RDMA_CORE_VERSION (e.g. 44),
#       MLX5_SYSTEM_LIBRARY (absolute path of the runtime libmlx5.so.1).
#
# Which rdma-core: the one pkg-config finds (PKG_CONFIG_PATH or
# PKG_CONFIG_LIBDIR name another prefix; the rdma-core matrix,
# tests/matrix, builds against each release that way).
#
# Kernel uapi headers (rdma/ uapi headers): the system's, or with
# -DRDMA_UAPI_INCLUDE_DIR=DIR those in DIR/rdma, searched first by every
# target (the matrix builds each release with the kernel headers of its
# time).  kernel-headers/ supplies the few constants older ones lack.
set(RDMA_UAPI_INCLUDE_DIR "" CACHE PATH
	"directory whose rdma/*.h replace the system's kernel uapi headers")
if(RDMA_UAPI_INCLUDE_DIR)
	if(NOT EXISTS "${RDMA_UAPI_INCLUDE_DIR}/rdma/ib_user_ioctl_cmds.h")
		message(FATAL_ERROR "RDMA_UAPI_INCLUDE_DIR=${RDMA_UAPI_INCLUDE_DIR}"
			" has no rdma/ib_user_ioctl_cmds.h")
	endif()
	include_directories(BEFORE SYSTEM "${RDMA_UAPI_INCLUDE_DIR}")
	message(STATUS "kernel uapi headers: ${RDMA_UAPI_INCLUDE_DIR}")
endif()

find_package(PkgConfig REQUIRED)
pkg_check_modules(IBVERBS REQUIRED IMPORTED_TARGET libibverbs)
pkg_check_modules(MLX5 REQUIRED IMPORTED_TARGET libmlx5)

# rdma-core versions its libraries 1.<abi>.<release>.<minor>; the release
# is the rdma-core version, which names the private struct layout.
string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.([0-9]+)" _m "${MLX5_VERSION}")
if(NOT _m)
	message(FATAL_ERROR "cannot parse libmlx5 version '${MLX5_VERSION}'")
endif()
set(RDMA_CORE_VERSION ${CMAKE_MATCH_1})

# The supported range.  The private layouts of struct mlx5dv_devx_obj,
# mlx5_devx_umem and mlx5_var_obj are identical from v39 to v64 (v38 and
# older lack the priv pointer); upstream's own implementation of this API
# arrived in v63, so a build is only useful, and only allowed, up to v62.
set(RDMA_CORE_MIN 39)
set(RDMA_CORE_MAX 62)

include(CheckSymbolExists)
set(CMAKE_REQUIRED_INCLUDES ${MLX5_INCLUDE_DIRS})
check_symbol_exists(mlx5dv_devx_obj_export "infiniband/mlx5dv.h"
	HAVE_UPSTREAM_EXPORT)
unset(CMAKE_REQUIRED_INCLUDES)
if(HAVE_UPSTREAM_EXPORT OR RDMA_CORE_VERSION GREATER RDMA_CORE_MAX)
	message(FATAL_ERROR
		"rdma-core ${RDMA_CORE_VERSION} already provides "
		"mlx5dv_devx_obj_export() and its family in libmlx5 "
		"(since rdma-core 63); "
		"mlx5-share would shadow it. Use the system library instead.")
endif()
if(RDMA_CORE_VERSION LESS RDMA_CORE_MIN)
	message(FATAL_ERROR
		"rdma-core ${RDMA_CORE_VERSION} is older than ${RDMA_CORE_MIN}, "
		"the oldest release whose private mlx5 layout mlx5-share knows.")
endif()

find_library(MLX5_SYSTEM_LIBRARY_LINK NAMES mlx5
	HINTS ${MLX5_LIBRARY_DIRS} REQUIRED)
get_filename_component(_real "${MLX5_SYSTEM_LIBRARY_LINK}" REALPATH)
get_filename_component(_dir "${_real}" DIRECTORY)
set(MLX5_SYSTEM_LIBRARY "${_dir}/libmlx5.so.1" CACHE INTERNAL "")
message(STATUS "rdma-core ${RDMA_CORE_VERSION} (libmlx5 ${MLX5_VERSION}, "
	"${MLX5_SYSTEM_LIBRARY})")
