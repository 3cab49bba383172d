# ctest script: every page listed in MAN_DIR/pages.txt exists,
# `groff -man -ww -z` reads it without a single warning, and a full page
# (not a ".so" alias) has the sections its man section calls for.  Run from
# MAN_DIR so that an alias page's ".so manN/page.N" resolves as man(1)
# resolves it.
cmake_minimum_required(VERSION 3.18)
find_program(GROFF groff)
if(NOT GROFF)
	message(FATAL_ERROR "groff not found (Debian package groff-base)")
endif()
file(STRINGS "${MAN_DIR}/pages.txt" pages)
list(FILTER pages EXCLUDE REGEX "^$")
list(LENGTH pages n)
if(n EQUAL 0)
	message(FATAL_ERROR "no man pages listed in ${MAN_DIR}/pages.txt")
endif()
# Sections every page of a man section must have (a function page documents
# its arguments, return value and every errno; a command its options and
# exit status).
set(required_1 "NAME" "SYNOPSIS" "DESCRIPTION" "OPTIONS" "EXIT STATUS"
	"SEE ALSO")
set(required_3 "NAME" "SYNOPSIS" "DESCRIPTION" "ARGUMENTS" "RETURN VALUE"
	"ERRORS" "NOTES" "SEE ALSO")
set(required_7 "NAME" "DESCRIPTION" "SEE ALSO")

set(bad 0)
foreach(page ${pages})
	if(NOT EXISTS "${MAN_DIR}/${page}")
		message(SEND_ERROR "${page}: not built")
		math(EXPR bad "${bad} + 1")
		continue()
	endif()
	file(STRINGS "${MAN_DIR}/${page}" heads REGEX "^\\.(SH|so) ")
	if(NOT heads MATCHES "^\\.so " AND page MATCHES "^man([0-9])/")
		set(missing "")
		foreach(h ${required_${CMAKE_MATCH_1}})
			if(NOT ".SH ${h}" IN_LIST heads AND
			   NOT ".SH \"${h}\"" IN_LIST heads)
				list(APPEND missing "${h}")
			endif()
		endforeach()
		if(missing)
			message(SEND_ERROR "${page}: missing section(s): ${missing}")
			math(EXPR bad "${bad} + 1")
			continue()
		endif()
	endif()
	execute_process(COMMAND "${GROFF}" -man -ww -z "${page}"
		WORKING_DIRECTORY "${MAN_DIR}"
		RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
	if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
		message(SEND_ERROR "${page}: groff -man -ww -z (rc ${rc}):\n${err}")
		math(EXPR bad "${bad} + 1")
	else()
		message(STATUS "${page}: clean")
	endif()
endforeach()
math(EXPR good "${n} - ${bad}")
message(STATUS "man-pages: ${good} passed, ${bad} failed")
if(bad)
	message(FATAL_ERROR "man-pages: ${bad} page(s) with groff warnings or missing sections")
endif()
