# mlx5_share_skipped_test(NAME LABELS WHY)
#     Stands in for the test NAME where it cannot run in this build (a
#     tool it needs is not installed, a source it builds was not given):
#     the configure still succeeds, and ctest runs NAME with its labels
#     and reports it skipped by name (exit 77) with WHY, rather than
#     leaving it out of the summary unseen.  The packages that bring
#     every tool: cmake/debian-packages-tests.txt.
include_guard(GLOBAL)

function(mlx5_share_skipped_test name labels why)
	add_test(NAME ${name}
		COMMAND sh -c "echo \"SKIPPED: $0: $1\"; exit 77"
			"${name}" "${why}")
	set_tests_properties(${name} PROPERTIES LABELS "${labels}"
		SKIP_RETURN_CODE 77)
endfunction()
