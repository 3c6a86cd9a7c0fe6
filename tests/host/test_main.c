/*
 * model-test: the host unit tests of the model, its decoder, the query
 * parser and, given its path as the argument, the pmctest-model binary.
 */
#include <stdio.h>

#include "suites.h"
#include "tap.h"

int main(int argc, char **argv)
{
	tap_begin();
	test_model();
	test_decode();
	test_query();
	if (argc > 1)
		test_tool(argv[1]);
	else
		puts("# no pmctest-model path given: its tests not run");
	return tap_end();
}
