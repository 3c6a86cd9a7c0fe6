#ifndef PMCTEST_GLOB_H
#define PMCTEST_GLOB_H

#include <stdbool.h>

/* Shell-style match of the whole string: '*' any run, '?' one character. */
bool glob_match(const char *pattern, const char *s);

/*
 * A tests= or exclude= pattern against a test ID, which on an application
 * processor carries the CPU ("priv.long.cpl3.pce1.valid@cpu2"): a pattern
 * with an '@' is matched against the whole ID, one without against the ID
 * up to its '@', so that priv.* selects the test on every CPU and
 * priv.*@cpu2 on CPU 2 alone.
 */
bool glob_match_test(const char *pattern, const char *id);

#endif
