# The one target mlx5-share is built for: x86_64 with 8-byte pointers.
#
# Why refuse the others: the library fills libmlx5's private structs
# (providers/mlx5/layout.h), whose layout depends on the ABI, and only
# x86_64 is built and tested in CI (every suite, the rdma-core matrix,
# the packages).  A 32-bit or x32 build, or another processor, would ship
# code that no test has run.  -DMLX5_SHARE_UNTESTED_ARCH=ON builds anyway,
# for whoever means to test such a port; nothing here vouches for it.
option(MLX5_SHARE_UNTESTED_ARCH
	"build for a target not x86_64 with 8-byte pointers (untested)"
	OFF)

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _mlx5_share_cpu)
if(_mlx5_share_cpu MATCHES "^(x86_64|amd64)$" AND CMAKE_SIZEOF_VOID_P EQUAL 8)
	# the tested target
elseif(MLX5_SHARE_UNTESTED_ARCH)
	message(WARNING "MLX5_SHARE_UNTESTED_ARCH=ON: building for "
		"${CMAKE_SYSTEM_PROCESSOR} with ${CMAKE_SIZEOF_VOID_P}-byte "
		"pointers, a target mlx5-share is never built or tested on")
else()
	message(FATAL_ERROR "mlx5-share is built and tested only for x86_64 "
		"with 8-byte pointers; this target is "
		"${CMAKE_SYSTEM_PROCESSOR} with ${CMAKE_SIZEOF_VOID_P}-byte "
		"pointers (-m32 and -mx32 are 4). Configure with "
		"-DMLX5_SHARE_UNTESTED_ARCH=ON to build it anyway, untested.")
endif()
unset(_mlx5_share_cpu)
