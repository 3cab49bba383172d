# Man pages: markdown sources turned into roff with pandoc, as rdma-core
# ships its own, so the text is written once in a readable form.
#
#   mlx5_share_man_pages(page.3.md other.7.md ...)
#       Builds each page to ${CMAKE_BINARY_DIR}/man/man<N>/<page>.<N>
#       (<N> is the section named by the file name) and installs it to
#       ${CMAKE_INSTALL_MANDIR}/man<N>.
#   mlx5_share_man_links(page.3 alias.3 [page.3 alias.3 ...])
#       Adds alias.3 as a one-line ".so man3/page.3" page, the form man(1)
#       follows, for functions that share a page.  Both names must be in
#       the same section.
#
# The build tree's man/ folder is laid out as an installed one, so
# `man -M build/man mlx5dv_devx_obj_import` works before any install.
# The ctest "man-pages" (label unit) runs `groff -man -ww -z` on every
# page and alias built here and fails on any warning, or on a page that
# lacks a section its man section requires (cmake/CheckManPages.cmake).
include_guard(GLOBAL)
include(GNUInstallDirs)

# Without pandoc the pages are neither built nor installed, and the tests
# that read them (man-pages here, install in tests/install) report
# themselves skipped; MLX5_SHARE_MAN_PAGES says which case this build is.
find_program(PANDOC_EXECUTABLE pandoc)
if(PANDOC_EXECUTABLE)
	set(MLX5_SHARE_MAN_PAGES ON)
else()
	set(MLX5_SHARE_MAN_PAGES OFF)
	set(MLX5_SHARE_NO_PANDOC "no pandoc: the man pages are not built")
endif()

set(MLX5_SHARE_MAN_DIR "${CMAKE_BINARY_DIR}/man")
add_custom_target(man ALL)
set_property(TARGET man PROPERTY MAN_PAGES "")

# Section of a page named name.<N>[.md]; fails loudly on a name without one.
function(_mlx5_share_man_section name out)
	if(NOT name MATCHES "\\.([1-9][a-z]*)(\\.md)?$")
		message(FATAL_ERROR "man page '${name}' has no section suffix")
	endif()
	set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(mlx5_share_man_pages)
	if(NOT MLX5_SHARE_MAN_PAGES)
		return()
	endif()
	foreach(src ${ARGN})
		get_filename_component(src "${src}" ABSOLUTE)
		get_filename_component(file "${src}" NAME)
		_mlx5_share_man_section("${file}" sect)
		string(REGEX REPLACE "\\.md$" "" page "${file}")
		set(out "${MLX5_SHARE_MAN_DIR}/man${sect}/${page}")
		add_custom_command(OUTPUT "${out}"
			COMMAND "${CMAKE_COMMAND}" -E make_directory
				"${MLX5_SHARE_MAN_DIR}/man${sect}"
			COMMAND "${PANDOC_EXECUTABLE}" -s -f markdown -t man
				-o "${out}" "${src}"
			MAIN_DEPENDENCY "${src}"
			COMMENT "Building man page ${page}"
			VERBATIM)
		add_custom_target("man-${page}" DEPENDS "${out}")
		add_dependencies(man "man-${page}")
		set_property(TARGET man APPEND PROPERTY MAN_PAGES
			"man${sect}/${page}")
		install(FILES "${out}"
			DESTINATION "${CMAKE_INSTALL_MANDIR}/man${sect}")
	endforeach()
endfunction()

function(mlx5_share_man_links)
	if(NOT MLX5_SHARE_MAN_PAGES)
		return()
	endif()
	list(LENGTH ARGN n)
	math(EXPR odd "${n} % 2")
	if(n EQUAL 0 OR odd)
		message(FATAL_ERROR
			"mlx5_share_man_links takes pairs: page alias ...")
	endif()
	math(EXPR last "${n} - 1")
	foreach(i RANGE 0 ${last} 2)
		math(EXPR j "${i} + 1")
		list(GET ARGN ${i} page)
		list(GET ARGN ${j} alias)
		_mlx5_share_man_section("${page}" sect)
		_mlx5_share_man_section("${alias}" asect)
		if(NOT sect STREQUAL asect)
			message(FATAL_ERROR
				"man link ${alias} -> ${page}: sections differ")
		endif()
		set(out "${MLX5_SHARE_MAN_DIR}/man${sect}/${alias}")
		file(CONFIGURE OUTPUT "${out}"
			CONTENT ".so man${sect}/${page}\n")
		set_property(TARGET man APPEND PROPERTY MAN_PAGES
			"man${sect}/${alias}")
		install(FILES "${out}"
			DESTINATION "${CMAKE_INSTALL_MANDIR}/man${sect}")
	endforeach()
endfunction()

if(NOT MLX5_SHARE_MAN_PAGES)
	mlx5_share_skipped_test(man-pages unit "${MLX5_SHARE_NO_PANDOC}")
	return()
endif()
# The list of every page, known only once all folders are configured,
# hence a generator expression evaluated at generate time.
file(GENERATE OUTPUT "${MLX5_SHARE_MAN_DIR}/pages.txt"
	CONTENT "$<JOIN:$<TARGET_PROPERTY:man,MAN_PAGES>,\n>\n")
add_test(NAME man-pages
	COMMAND "${CMAKE_COMMAND}" -D "MAN_DIR=${MLX5_SHARE_MAN_DIR}"
		-P "${CMAKE_CURRENT_LIST_DIR}/CheckManPages.cmake")
set_tests_properties(man-pages PROPERTIES LABELS unit)
