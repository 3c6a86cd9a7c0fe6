/*
 * glob_test: glob_match_test(), how tests= and exclude= patterns select
 * the tests of an application processor ("@cpuN"): a pattern with '@'
 * matches the whole ID, one without the ID up to its '@'.
 */
#include <stdio.h>

#include "glob.h"
#include "suites.h"
#include "tap.h"

static const struct {
	const char *pattern, *id;
	bool matches;
} cases[] = {
	{ "priv.*", "priv.long.cpl3.pce1.valid", true },
	{ "priv.*", "priv.long.cpl3.pce1.valid@cpu2", true },
	{ "priv.long.cpl3.pce1.valid", "priv.long.cpl3.pce1.valid@cpu2", true },
	{ "*.valid", "priv.long.cpl3.pce1.valid@cpu2", true },
	{ "*cpu2", "priv.long.cpl3.pce1.valid@cpu2", false },
	{ "priv.*@cpu2", "priv.long.cpl3.pce1.valid@cpu2", true },
	{ "priv.*@cpu2", "priv.long.cpl3.pce1.valid@cpu12", false },
	{ "priv.*@cpu2", "priv.long.cpl3.pce1.valid", false },
	{ "*@cpu*", "smp.enum@cpu1", true },
	{ "*@cpu*", "smp.enum", false },
	{ "*@cpu?", "smp.enum@cpu15", false },
	{ "smp.enum@cpu1", "smp.enum@cpu1", true },
	{ "smp.enum@cpu1", "smp.enum@cpu10", false },
	{ "*", "smp.enum@cpu3", true },
	{ "smp.enum", "smp.enumx@cpu3", false },
	{ "@", "smp.enum@cpu3", false },
};

void test_glob(void)
{
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char name[160];
		bool got = glob_match_test(cases[k].pattern, cases[k].id);

		snprintf(name, sizeof(name), "glob_match_test(\"%s\", \"%s\")",
			 cases[k].pattern, cases[k].id);
		tap_result(got == cases[k].matches, name,
			   cases[k].matches ? "match" : "no match",
			   got ? "match" : "no match");
	}
}
