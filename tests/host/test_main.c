/*
 * model-test: the host unit tests of the model, its decoders, the query
 * parser, the test-ID glob and, given its path as the argument, the
 * pmctest-model binary.
 */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "tap.h"

static const char usage[] =
"usage: model-test [PMCTEST-MODEL]\n"
"\n"
"Runs the host unit tests of the model, its CPUID decoder and the query\n"
"parser, and, given the path of pmctest-model, the tests of that command.\n"
"Prints TAP 13 and \"N passed, N failed\"; exits 1 if a test failed.\n";

int main(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "model-test: unexpected argument %s\n%s", argv[argc - 1], usage);
		return 2;
	}
	tap_begin();
	test_model();
	test_model_span();
	test_decode();
	test_topology();
	test_query();
	test_glob();
	if (argc > 1)
		test_tool(argv[1]);
	else
		puts("# no pmctest-model path given: its tests not run");
	return tap_end();
}
