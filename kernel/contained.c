/*
 * kernel/platform.h: one test run, contained. Here rather than in arch/:
 * the test is the harness's, and arch/ only stands below kernel/; arch/
 * keeps the context an abandoned test resumes at and restores what a
 * test may change (arch/contained.h). With kernel/main.c, the one other
 * kernel file that includes arch/.
 */
#include <stdbool.h>

#include "contained.h"
#include "platform.h"

bool platform_run_contained(void (*run)(unsigned), unsigned i)
{
	struct context *resume = contained_begin();
	bool abandoned = context_save(resume) != 0;

	if (!abandoned)
		run(i);
	contained_end();
	return !abandoned;
}
