# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Reruns tests of an existing build with their program under valgrind
# memcheck.  For a test run through mlx5-emu, valgrind goes after the
# launcher's "--", so it watches the test program and every process it
# forks or execs, not the emulator.  Each process writes its own log;
# any log with errors (invalid access, definite or indirect leak) fails.
#
#   cmake -DBUILD_DIR=build -DINCLUDE=regex [-DEXCLUDE=regex]
#         -P valgrind_tests.cmake
cmake_minimum_required(VERSION 3.19)

get_filename_component(BUILD_DIR "${BUILD_DIR}" ABSOLUTE)
find_program(VALGRIND valgrind)
if(NOT VALGRIND)
	message("SKIPPED: valgrind-e2e: valgrind is not installed")
	return()
endif()

set(_sel -R "${INCLUDE}")
if(EXCLUDE)
	list(APPEND _sel -E "${EXCLUDE}")
endif()
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${BUILD_DIR}"
		--show-only=json-v1 ${_sel}
	OUTPUT_VARIABLE _json RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
	message(FATAL_ERROR "ctest --show-only failed")
endif()
string(JSON _n LENGTH "${_json}" tests)
if(_n EQUAL 0)
	message("SKIPPED: valgrind-e2e: no test matches '${INCLUDE}' yet")
	return()
endif()

set(_logs "${BUILD_DIR}/valgrind-e2e")
file(REMOVE_RECURSE "${_logs}")
file(MAKE_DIRECTORY "${_logs}")
set(_failed "")
set(_ran 0)
math(EXPR _last "${_n} - 1")
foreach(i RANGE ${_last})
	string(JSON _name GET "${_json}" tests ${i} name)
	string(JSON _argc LENGTH "${_json}" tests ${i} command)
	# (the system's tools a test script runs, mktemp and the like, are
	# not this project's: their own exit-time leaks are no finding)
	set(_vg ${VALGRIND} --error-exitcode=1 --trace-children=yes
		--trace-children-skip=/usr/bin/*,/bin/*,/usr/sbin/*,/sbin/*
		--child-silent-after-fork=no --leak-check=full
		--errors-for-leak-kinds=definite,indirect
		--show-leak-kinds=definite,indirect
		--log-file=${_logs}/${_name}.%p.log)
	# The command, with valgrind put right after mlx5-emu's "--".
	set(_cmd "")
	set(_put OFF)
	math(EXPR _alast "${_argc} - 1")
	foreach(a RANGE ${_alast})
		string(JSON _arg GET "${_json}" tests ${i} command ${a})
		list(APPEND _cmd "${_arg}")
		if(_arg STREQUAL "--" AND NOT _put)
			list(APPEND _cmd ${_vg})
			set(_put ON)
		endif()
	endforeach()
	if(NOT _put)
		list(PREPEND _cmd ${_vg})
	endif()

	set(_env "")
	set(_wd "${BUILD_DIR}")
	set(_skip 77)
	string(JSON _np LENGTH "${_json}" tests ${i} properties)
	if(_np GREATER 0)
		math(EXPR _plast "${_np} - 1")
		foreach(p RANGE ${_plast})
			string(JSON _pn GET "${_json}" tests ${i} properties ${p} name)
			string(JSON _pv GET "${_json}" tests ${i} properties ${p} value)
			if(_pn STREQUAL "ENVIRONMENT")
				string(JSON _ne LENGTH "${_json}" tests ${i}
					properties ${p} value)
				math(EXPR _elast "${_ne} - 1")
				foreach(e RANGE ${_elast})
					string(JSON _ev GET "${_json}" tests ${i}
						properties ${p} value ${e})
					list(APPEND _env "${_ev}")
				endforeach()
			elseif(_pn STREQUAL "WORKING_DIRECTORY")
				set(_wd "${_pv}")
			elseif(_pn STREQUAL "SKIP_RETURN_CODE")
				set(_skip "${_pv}")
			endif()
		endforeach()
	endif()

	message("== ${_name}: ${_cmd}")
	execute_process(COMMAND ${CMAKE_COMMAND} -E env ${_env} ${_cmd}
		WORKING_DIRECTORY "${_wd}" RESULT_VARIABLE _trc
		TIMEOUT 900)
	file(GLOB _plogs "${_logs}/${_name}.*.log")
	set(_bad "")
	foreach(l ${_plogs})
		file(STRINGS "${l}" _sum REGEX "ERROR SUMMARY: [1-9]")
		if(_sum)
			file(READ "${l}" _text)
			message("${_text}")
			list(APPEND _bad "${l}")
		endif()
	endforeach()
	if(_trc STREQUAL "${_skip}")
		message("   ${_name}: skipped")
	elseif(NOT _trc EQUAL 0 OR _bad)
		message("   ${_name}: FAILED (exit ${_trc}; logs: ${_bad})")
		list(APPEND _failed ${_name})
	else()
		list(LENGTH _plogs _nproc)
		message("   ${_name}: clean (${_nproc} processes checked)")
		math(EXPR _ran "${_ran} + 1")
	endif()
endforeach()

if(_failed)
	message(FATAL_ERROR "valgrind-e2e: failed: ${_failed}")
endif()
message("valgrind-e2e: ${_ran} tests clean under memcheck")
