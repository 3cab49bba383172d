# The definitions rdma-core's own build adds where they change a type, so
# that the private structs mirrored in providers/mlx5/layout.h have
# libmlx5's layout on every ABI: struct mlx5dv_var's mmap_off is an off_t,
# which rdma-core makes 64 bits wide (-D_FILE_OFFSET_BITS=64) wherever it
# is not already (32-bit ABIs).  On x86_64 nothing is added.
include(CheckTypeSize)
include(CheckCSourceCompiles)

check_type_size(off_t MLX5_SHARE_SIZEOF_OFF_T)
if(NOT MLX5_SHARE_SIZEOF_OFF_T EQUAL 8)
	set(CMAKE_REQUIRED_DEFINITIONS -D_FILE_OFFSET_BITS=64)
	check_type_size(off_t MLX5_SHARE_SIZEOF_OFF_T_LFS)
	unset(CMAKE_REQUIRED_DEFINITIONS)
	if(NOT MLX5_SHARE_SIZEOF_OFF_T_LFS EQUAL 8)
		message(FATAL_ERROR "off_t is not 64 bits wide, even with "
			"_FILE_OFFSET_BITS=64: libmlx5's struct mlx5dv_var "
			"cannot be mirrored")
	endif()
	add_compile_definitions(_FILE_OFFSET_BITS=64)
endif()

# rdma-core also asks the kernel headers for unsigned long long __u64
# where they would use unsigned long (same size, another type).
set(CMAKE_REQUIRED_FLAGS -Werror)
check_c_source_compiles("
#include <linux/types.h>
int main(void) { __u64 v = 0; unsigned long long *p = &v; return (int)*p; }"
	MLX5_SHARE_U64_IS_ULL)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT MLX5_SHARE_U64_IS_ULL)
	add_compile_definitions(__SANE_USERSPACE_TYPES__)
endif()
