# Runs inside `cmake --install`: writes the linker script and the .pc
# files for the prefix being installed to, then installs them with
# file(INSTALL), which honours DESTDIR and records the install manifest.
# The variables come from the install(CODE) block in InstallLayout.cmake.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(IS_ABSOLUTE "${MLX5_SHARE_LIBDIR}")
	set(libdir "${MLX5_SHARE_LIBDIR}")
else()
	set(libdir "${prefix}/${MLX5_SHARE_LIBDIR}")
endif()
if(IS_ABSOLUTE "${MLX5_SHARE_INCLUDEDIR}")
	set(includedir "${MLX5_SHARE_INCLUDEDIR}")
else()
	set(includedir "${prefix}/${MLX5_SHARE_INCLUDEDIR}")
endif()
set(privlibdir "${libdir}/${MLX5_SHARE_PRIVATE_DIR}")
set(privincludedir "${includedir}/${MLX5_SHARE_PRIVATE_DIR}")

set(gen "${MLX5_SHARE_GEN_DIR}")
configure_file("${MLX5_SHARE_TEMPLATES}/libmlx5.so.in"
	"${gen}/libmlx5.so" @ONLY)
configure_file("${MLX5_SHARE_TEMPLATES}/libmlx5.pc.in"
	"${gen}/libmlx5.pc" @ONLY)
configure_file("${MLX5_SHARE_TEMPLATES}/libmlx5-share.pc.in"
	"${gen}/libmlx5-share.pc" @ONLY)

file(INSTALL DESTINATION "${privlibdir}" TYPE FILE
	FILES "${gen}/libmlx5.so")
file(INSTALL DESTINATION "${privlibdir}/pkgconfig" TYPE FILE
	FILES "${gen}/libmlx5.pc")
file(INSTALL DESTINATION "${libdir}/pkgconfig" TYPE FILE
	FILES "${gen}/libmlx5-share.pc")
