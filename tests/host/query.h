/*
 * query: one line of space-separated key=value tokens describing an
 * enumeration, an execution state and the RCX of one RDPMC:
 *
 *   vendor=intel|amd cpuid.01.eax= cpuid.01.ecx= cpuid.0a.eax= cpuid.0a.ebx=
 *   cpuid.0a.ecx= cpuid.0a.edx= cpuid.23.1.eax= cpuid.23.1.ebx=
 *   cpuid.0b.N.eax= cpuid.0b.N.ebx= cpuid.0b.N.ecx= (N 0..3, and so 1f)
 *   cpuid.80000001.ecx= cpuid.80000022.eax= cpuid.80000022.ebx=
 *   perf_capabilities= mode=real|v86|prot16|prot32|compat|long cpl=0..3
 *   pce=0|1 ecx= rcx=
 *
 * Numbers are decimal or 0x-hex. Defaults: vendor=intel, every CPUID value 0,
 * leaf 23H absent unless a cpuid.23.1.* key is given, leaves 0BH and 1FH
 * absent unless a key of theirs is given, IA32_PERF_CAPABILITIES
 * unreadable unless perf_capabilities= is given, mode=long, cpl=0 (0 in real
 * mode, 3 in v86 mode), pce=0. Used by pmctest-model and, for CPU profiles in
 * the same syntax, the host simulator.
 */
#ifndef PMCTEST_QUERY_H
#define PMCTEST_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

struct query {
	struct pmu_cpuid cpuid;
	struct exec_state state;
	uint64_t rcx;		/* from ecx= or rcx= */
	bool has_counter;	/* ecx= or rcx= was given */
};

/*
 * Parse `line` into `q`. With `need_counter`, a missing ecx= / rcx= is an
 * error. On error returns false and appends "error: ..." naming the
 * offending token to `err`.
 */
bool query_parse(const char *line, bool need_counter, struct query *q,
		 struct strbuf *err);

/* True for a line that holds no query: blank, or a '#' comment. */
bool query_is_blank(const char *line);

#endif
