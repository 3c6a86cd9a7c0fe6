/*
 * The PMU's MSRs and the few programming steps the data checks need,
 * written only against exec_rdmsr() / exec_wrmsr() (kernel/exec.h), so the
 * host simulator runs the same checks. Every helper that can fail appends
 * "WRMSR(C0010004H, ...) raised #GP(0)"-style text to `why` and returns false.
 */
#ifndef PMCTEST_PMU_MSR_H
#define PMCTEST_PMU_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "model.h"
#include "prog_msr.h"
#include "strbuf.h"

/* What tests/kernel/prog_msr.h does not already name. */
#define MSR_IA32_FIXED_CTR3		0x30Cu	/* MET-1: topdown slots */
#define MSR_IA32_PERF_METRICS		0x329u	/* ARCH-4, MET-1 */
#define FIXED_CTRL_METRICS_CLEAR_EN	(1ull << 14)	/* MET-1 */
#define GLOBAL_CTRL_PERF_METRICS	(1ull << 48)	/* EN_PERF_METRICS */

/* AMD (APM Vol. 2, "Performance Counters"): CTL at 2n, CTR at 2n + 1. */
#define MSR_AMD_L2_CTL0			0xC0010230u	/* PerfCtrExtLLC, AMD-2 */
#define MSR_AMD_NB_CTL0			0xC0010240u	/* PerfCtrExtNB, AMD-2 */

bool msr_read(uint32_t msr, uint64_t *value, struct strbuf *why);
bool msr_write(uint32_t msr, uint64_t value, struct strbuf *why);

/* The MSR RDPMC reads for c (PRIV-7); full_width: IA32_A_PMCx (PROG-5). */
uint32_t counter_msr(const struct counter *c, bool full_width);

/* The event select paired with a general-purpose counter (PROG-1). */
uint32_t counter_select_msr(const struct counter *c);

/*
 * Stop every counter the model knows (PROG-3: EN clear before a counter is
 * written): IA32_PERF_GLOBAL_CTRL (version 2 and up) and
 * IA32_FIXED_CTR_CTRL cleared, AMD PerfCntrGlobalCtl (PerfMonV2) cleared,
 * every event select cleared. The kernel
 * counts nothing outside a test, and a test that starts a counter stops it
 * again, so this is also the state a test leaves behind.
 */
bool pmu_stop_counters(struct strbuf *why);

/* An event every PMU here counts at every CPL (Intel: unhalted core
 * cycles, else instructions retired, PROG-4; AMD: PMCx076, cycles not in
 * halt), or 0 with the SKIP reason in why. */
uint64_t pmu_cycle_event(struct strbuf *why);

/* Start general-purpose counter c at `initial` counting `event` at every
 * CPL, in PROG-3 order: everything stopped, the count written, the event
 * select enabled, then the global gate (PROG-5, PerfMonV2). */
bool pmu_start_counter(const struct counter *c, uint64_t event,
		       uint64_t initial, struct strbuf *why);

#endif
