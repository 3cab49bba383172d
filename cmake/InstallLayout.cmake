# What `cmake --install build [--prefix P]` puts where.
#
#   P/LIBDIR/libmlx5-share.so.1                       the library
#   P/LIBDIR/mlx5-share/libmlx5.so                    linker script: -lmlx5
#   P/include/mlx5-share/infiniband/mlx5dv.h          the header
#   P/include/mlx5-share/infiniband/mlx5_share_batch.h  batch import
#   P/LIBDIR/mlx5-share/pkgconfig/libmlx5.pc          drop-in libmlx5.pc
#   P/LIBDIR/pkgconfig/libmlx5-share.pc               same flags, own name
#   P/bin/mlx5-share-demo, mlx5-share-inspect, mlx5-emu
#   P/LIBDIR/mlx5-share/  the emulator's preload library
#   P/share/man/man{1,3,7}/
#
# The three names that rdma-core itself owns (libmlx5.so, mlx5dv.h,
# libmlx5.pc) live in a directory of their own, for every prefix:
#  - at P=/usr they would overwrite files of the system's packages
#    (libibverbs-dev), and our mlx5dv.h, which pulls the system's with
#    #include_next, would no longer find it;
#  - at P=/usr/local a flat libmlx5.so would not help either: gcc passes
#    -L/usr/lib/<multiarch> before ld's own /usr/local/lib, so a plain
#    `cc app.c -lmlx5` always reaches the system's libmlx5.so first (see
#    `gcc -v`); one -L is needed anyway, so one -I beside it costs nothing;
#  - one layout for cmake, .deb and .rpm installs means one way to build
#    against it, and one thing to test (tests/install, tests/package).
set(MLX5_SHARE_PRIVATE_DIR mlx5-share)

install(TARGETS mlx5-share LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# The public headers: rdma-core's name, and the batch import's own.
install(FILES
	"${CMAKE_SOURCE_DIR}/providers/mlx5/mlx5dv.h"
	"${CMAKE_SOURCE_DIR}/providers/mlx5/mlx5_share_batch.h"
	DESTINATION
	"${CMAKE_INSTALL_INCLUDEDIR}/${MLX5_SHARE_PRIVATE_DIR}/infiniband")

# mlx5-emu and its preload library are installed by emulator/CMakeLists.txt.
install(TARGETS mlx5-share-demo mlx5-share-inspect
	RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# The linker script and the .pc files name absolute paths under the
# prefix, which `cmake --install --prefix` may change after configuring:
# they are written at install time (cmake/InstallGenerated.cmake).
set(_soname "$<TARGET_SONAME_FILE_NAME:mlx5-share>")
install(CODE "
	set(MLX5_SHARE_GEN_DIR \"${CMAKE_BINARY_DIR}/install-generated\")
	set(MLX5_SHARE_TEMPLATES \"${CMAKE_SOURCE_DIR}/cmake\")
	set(MLX5_SHARE_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
	set(MLX5_SHARE_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
	set(MLX5_SHARE_PRIVATE_DIR \"${MLX5_SHARE_PRIVATE_DIR}\")
	set(MLX5_SHARE_SONAME \"${_soname}\")
	set(MLX5_SYSTEM_LIBRARY \"${MLX5_SYSTEM_LIBRARY}\")
	set(MLX5_SYSTEM_VERSION \"${MLX5_VERSION}\")
	set(MLX5_SHARE_VERSION \"${PROJECT_VERSION}\")
	include(\"${CMAKE_SOURCE_DIR}/cmake/InstallGenerated.cmake\")
")
