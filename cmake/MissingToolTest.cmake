# mlx5_share_missing_tool_test(NAME LABELS WHY)
#     Stands in for the test NAME where a tool it needs is not installed:
#     the configure still succeeds, says so once, and ctest runs NAME
#     with its labels and reports it skipped by name (exit 77) with WHY,
#     rather than leaving it out of the summary unseen.  The packages
#     that bring every such tool: cmake/debian-packages-tests.txt.
include_guard(GLOBAL)

function(mlx5_share_missing_tool_test name labels why)
	message(STATUS "${name}: skipped, ${why}")
	add_test(NAME ${name}
		COMMAND sh -c "echo \"SKIPPED: $0: $1\"; exit 77"
			"${name}" "${why}")
	set_tests_properties(${name} PROPERTIES LABELS "${labels}"
		SKIP_RETURN_CODE 77)
endfunction()
