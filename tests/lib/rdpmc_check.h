/*
 * One conformance check: execute RDPMC in a context, ask the model what the
 * spec requires there, and compare. Written only against kernel/exec.h and
 * the model, so the host simulator runs the very same checks. Many of them
 * in one test: tests/lib/sweep.h.
 */
#ifndef PMCTEST_RDPMC_CHECK_H
#define PMCTEST_RDPMC_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "exec.h"
#include "model.h"
#include "strbuf.h"

/* Sentinels with the high halves set: a fault must leave them (PRIV-6), a
 * read in 64-bit mode must clear the high halves (MODE-1). */
#define SENTINEL_RAX 0xDEADBEEFA5A5A5A5ull
#define SENTINEL_RDX 0xFEEDFACE5A5A5A5Aull

struct rdpmc_case {
	struct exec_state state;
	uint64_t rcx;		/* full RCX; outside 64-bit mode only ECX */
	uint64_t rax, rdx;	/* what the registers hold before RDPMC */
};

/* The PMU the suite runs on, decoded once. */
const struct pmu_info *check_pmu(void);

/*
 * Whether outcome o conforms to expectation e for case c. If not, one line
 * saying how it deviates (the statement it breaks) goes to deviation,
 * unless that is NULL.
 */
bool rdpmc_conforms(const struct rdpmc_case *c, const struct rdpmc_expect *e,
		    const struct exec_outcome *o, struct strbuf *deviation);

/* The failure diagnostic: context, expectation (with the model's reasoning
 * under `verbose`), the observed outcome with registers, and the deviation;
 * one line instead where the test has already failed. */
void report_rdpmc_mismatch(const struct rdpmc_case *c,
			   const struct exec_outcome *o, const char *deviation);

/* Execute c, compare with the model; on a mismatch fail the running test
 * with report_rdpmc_mismatch(). Returns whether it conformed. */
bool check_rdpmc(const struct rdpmc_case *c);

/* The same, but the outcome is returned to the caller for further checks
 * (value comparisons) and the test is not failed: *deviation says why. */
bool run_rdpmc_case(const struct rdpmc_case *c, struct exec_outcome *o,
		    struct strbuf *deviation);

/* Whether RAX, RDX and RCX after o hold what c put in them: what a fault
 * must leave (PRIV-6). */
bool registers_kept(const struct rdpmc_case *c, const struct exec_outcome *o);

/* Short human text for an outcome: "read RAX=.. RDX=..", "#GP(0) at ..". */
void format_outcome(const struct exec_outcome *o, struct strbuf *sb);

#endif
