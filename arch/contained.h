#ifndef PMCTEST_CONTAINED_H
#define PMCTEST_CONTAINED_H

#include "context.h"

/*
 * One test's contained run, as arch/ keeps it (kernel/platform.h,
 * platform_run_contained()). kernel/main.c runs the test between the two
 * calls, so that arch/ never calls up into the harness: contained_begin()
 * marks this CPU as inside a test (a fault there abandons the test, not
 * the run: arch/trap.c) and gives the context an abandoned test resumes
 * at (platform_abandon_contained()); contained_end() clears the mark and
 * restores what a test may change.
 */
struct context *contained_begin(void);
void contained_end(void);

#endif
