#ifndef PMCTEST_GLOB_H
#define PMCTEST_GLOB_H

#include <stdbool.h>

/* Shell-style match of the whole string: '*' any run, '?' one character. */
bool glob_match(const char *pattern, const char *s);

#endif
