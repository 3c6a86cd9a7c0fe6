/*
 * CPU profiles (tests/profiles/NAME.profile): the enumeration of a CPU in
 * the key=value syntax of pmctest-model queries (tests/host/query.h), over
 * any number of lines; '#' starts a comment. Only enumeration keys: the
 * execution state and ECX belong to each test, not to the CPU.
 */
#ifndef PMCTEST_PROFILE_H
#define PMCTEST_PROFILE_H

#include <stdbool.h>

#include "model.h"
#include "strbuf.h"

/* On failure appends "FILE: why" to err. */
bool profile_load(const char *path, struct pmu_cpuid *out, struct strbuf *err);

/* "skylake" for "tests/profiles/skylake.profile", in the caller's buffer. */
void profile_name(const char *path, char *name, unsigned size);

#endif
