/*
 * tap: the host unit tests' report, TAP version 13, closed by the line
 * "N passed, N failed" that CI reads.
 */
#ifndef PMCTEST_TAP_H
#define PMCTEST_TAP_H

#include <stdbool.h>

void tap_begin(void);

/* One test: "ok N - name", or "not ok" with the expected and observed text. */
bool tap_result(bool pass, const char *name, const char *expected,
		const char *observed);

/* Compares two strings as one test. */
bool tap_check_str(const char *name, const char *expected,
		   const char *observed);

/* Prints the plan and the closing line; returns the exit status. */
int tap_end(void);

#endif
