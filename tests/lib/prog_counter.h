/*
 * Programming the performance counters, as PROG-1/PROG-3/PROG-5 say, the
 * one way the checks do it, written only against exec_rdmsr() /
 * exec_wrmsr() (kernel/exec.h) so the host simulator runs the same checks.
 * Every step that can fail appends why (the MSR access that faulted) to a
 * strbuf and returns false.
 *
 * Two views of a counter: a model counter (tests/lib/counters.h), the
 * ECX RDPMC reads it with, whose MSRs the data checks write and read and
 * which they start to read it while it runs; and a programmed counter
 * (struct prog_counter) that counts the known loop (kernel/exec.h) at a
 * chosen CPL: Intel general-purpose and fixed counters and AMD core
 * counters look the same from there, a control MSR with an off and an on
 * value, a count MSR, and optionally a global gate.
 */
#ifndef PMCTEST_PROG_COUNTER_H
#define PMCTEST_PROG_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "model.h"
#include "strbuf.h"

/* Which rings a counter counts (PROG-2, PROG-5). */
#define FILTER_OS	1u	/* CPL 0 */
#define FILTER_USR	2u	/* CPL 1-3 */

/* A PROG-4 architectural event and its AMD counterpart. */
struct prog_event {
	const char *name;	/* "instructions" */
	int arch_bit;		/* CPUID.0AH:EBX bit */
	uint8_t event, umask;	/* Intel */
	int amd_event;		/* AMD event select; -1: none */
};

enum {
	PROG_CYCLES, PROG_INSTRUCTIONS, PROG_REF_CYCLES, PROG_BRANCHES,
	PROG_EVENTS
};

extern const struct prog_event prog_events[PROG_EVENTS];

/* The MSR RDPMC reads for model counter c (PRIV-7); full_width: IA32_A_PMCx
 * (PROG-5). */
uint32_t counter_msr(const struct counter *c, bool full_width);

/* The event select paired with a general-purpose counter (PROG-1); 0 for
 * a fixed counter and PERF_METRICS. */
uint32_t counter_select_msr(const struct counter *c);

/*
 * Stop every counter the model knows (PROG-3: EN clear before a counter is
 * written): IA32_PERF_GLOBAL_CTRL (version 2 and up) and
 * IA32_FIXED_CTR_CTRL cleared, AMD PerfCntrGlobalCtl (PerfMonV2) cleared,
 * every event select cleared. The kernel counts nothing outside a test,
 * and a test that starts a counter stops it and writes it 0 again
 * (prog_clear_all()).
 */
bool prog_stop_all(struct strbuf *why);

/* prog_stop_all(), then every counter the model knows written 0: what a
 * test leaves behind (kernel/counters_left.h). */
bool prog_clear_all(struct strbuf *why);

/* prog_clear_all() at the end of a test that wrote the counters; a fault
 * fails the running test. */
void prog_leave_cleared(void);

/* An event every PMU here counts at every CPL (Intel: unhalted core
 * cycles, else instructions retired, PROG-4; AMD: PMCx076, cycles not in
 * halt), as event-select bits; 0 with the SKIP reason in why. */
uint64_t prog_cycle_event(struct strbuf *why);

/* Start general-purpose model counter c at `initial` counting `event` at
 * every CPL and leave it running, in PROG-3 order: everything stopped, the
 * count written, the event select enabled, then the global gate (PROG-5,
 * PerfMonV2). prog_stop_all() stops it. */
bool prog_start_counter(const struct counter *c, uint64_t event,
			uint64_t initial, struct strbuf *why);

struct prog_counter {
	char name[24];		/* "IA32_PMC0", "IA32_FIXED_CTR1", "PerfCtr0" */
	char control_name[24];	/* "IA32_PERFEVTSEL0", "IA32_FIXED_CTR_CTRL" */
	uint32_t count_msr, control_msr;
	uint64_t control_field;	/* this counter's bits of the control MSR */
	uint64_t control_off;	/* EN clear (PROG-3) */
	uint64_t enable_os, enable_usr;	/* bits of the control MSR */
	uint32_t global_msr;	/* 0: no global gate */
	uint64_t global_bit;
	uint64_t global_saved;	/* the gate as found, restored afterwards */
	uint64_t enable_int;	/* its PMI enable in the control MSR (PMI-1) */
	/* Its overflow bit (OVF-1..3); status_msr 0: no global status
	 * (Intel version 1, AMD without PerfMonV2), status_set_msr 0: no
	 * STATUS_SET (Intel version 2 and 3). */
	uint32_t status_msr, status_clear_msr, status_set_msr;
	uint64_t status_bit;
	unsigned width;		/* bits the counter holds */
};

/* General-purpose counter `index` for ev on pmu (Intel: IA32_PMCx, AMD:
 * PerfCtrx); false with the SKIP reason if there is none for it. */
bool prog_gp_counter(const struct pmu_info *pmu, const struct prog_event *ev,
		     unsigned index, struct prog_counter *c, struct strbuf *why);

/* Intel fixed counter index; false with the SKIP reason if absent. */
bool prog_fixed_counter(const struct pmu_info *pmu, unsigned index,
			struct prog_counter *c, struct strbuf *why);

/*
 * A counter that does not hold a value written to it (a hypervisor that
 * takes the WRMSR and drops it, as KVM with enable_pmu=0 does) is one
 * deviation, which the test PROG_WRITE_OWNER reports for every counter the
 * PMU enumerates; every
 * other test that needs a counter to hold what it writes observes the same
 * counter itself and SKIPs naming that test, so that the cause fails once.
 */
#define PROG_WRITE_OWNER "prog.write.stopped"

enum prog_probe {
	PROG_USABLE,	/* the counter exists and holds a written value */
	PROG_ABSENT,	/* the PMU has none such: why says what is missing */
	PROG_BROKEN,	/* it exists, but a write faults or is not held */
};

/* General-purpose counter 0 counting instructions retired, or fixed
 * counter 0, and whether it is usable (prog_counter_usable). */
enum prog_probe prog_probe_counter(struct prog_counter *c, bool fixed,
				   struct strbuf *why);

/* SKIPs the running test for a counter that is not usable, with why; a
 * broken one names PROG_WRITE_OWNER. */
void prog_skip_unusable(enum prog_probe probe, const char *why);

/* The counter most checks run on (prog_probe_counter). If it is absent or
 * broken, the running test is SKIPped with the reason (a broken one names
 * PROG_WRITE_OWNER) and false returned. */
bool prog_take_counter(struct prog_counter *c, bool fixed);

/* For a counter prog_gp_counter() or prog_fixed_counter() found: whether it
 * is usable; if not, the running test is SKIPped naming PROG_WRITE_OWNER. */
bool prog_usable_or_skip(struct prog_counter *c);

/* For a check that writes the counters itself: false, with the running
 * test SKIPped naming PROG_WRITE_OWNER, if the counter prog_probe_counter
 * finds is broken; true if it is usable or absent (the check decides what
 * an absent one means). */
bool prog_writes_hold(bool fixed);

/* Whether the MSRs take writes and the count MSR holds a written value;
 * false with the SKIP reason ("WRMSR IA32_PERFEVTSEL0 (186H) raised
 * #GP(0)"). Leaves the counter stopped. */
bool prog_counter_usable(struct prog_counter *c, struct strbuf *why);

/* The control bits that enable counting in the rings of filter. */
uint64_t prog_enables(const struct prog_counter *c, unsigned filter);

/* What a run executes (kernel/exec.h): the known loop, the exiting loop
 * of CPUID, RDMSR or IN (EXIT-1), or the string loop (REF-1, REF-2). */
enum prog_workload { PROG_KNOWN_LOOP, PROG_CPUID_LOOP, PROG_RDMSR_LOOP,
		    PROG_PORT_IN_LOOP, PROG_STRING_LOOP };

/* One counted run of a workload. */
struct prog_run {
	uint64_t control;	/* OR'ed into the stopped control: enables,
				 * INT, CMASK, INV, EDGE (PROG-1) */
	uint64_t preset;	/* the count written before */
	bool gate_closed;	/* leave the global enable clear (PROG-6) */
	unsigned cpl;
	uint64_t iterations;
	enum prog_workload workload;
};

/* Runs r's workload (r->iterations of it at r->cpl), counters as they are. */
void prog_execute(const struct prog_run *r);

/* Stop, write the preset, write the control, open the gate, run the loop,
 * stop, read the count. False, with the MSR access that faulted in why, if
 * one did. */
bool prog_run(struct prog_counter *c, const struct prog_run *r,
	      uint64_t *count, struct strbuf *why);

/* prog_run with armed() called once the counter is armed (its gate open)
 * and before the workload, with no PMU MSR access in between: what a check
 * changes outside the PMU while the counter runs (pmi.lvt.*: the LVT
 * performance-counter entry, PMI-1, PMI-2). */
bool prog_run_armed(struct prog_counter *c, const struct prog_run *r,
		    void (*armed)(void), uint64_t *count, struct strbuf *why);

/* prog_run with a WRMSR of `value` to the count while it is enabled (WR-2):
 * r's loop, the write, then `then` more iterations, stop, read. */
bool prog_run_with_write(struct prog_counter *c, const struct prog_run *r,
			 uint64_t value, uint64_t then, uint64_t *count,
			 struct strbuf *why);

/*
 * What prog_run_with_write counts from the written value besides the
 * iterations after it, measured on the target: `running` is the count of
 * the same run with one iteration on each side of a write of 0. It holds
 * the rest of the write, the call into the loop and back and the path to
 * the stopping WRMSR, which a counter of instructions retired counts like
 * any other (WR-2, PROG-1); so a run of `then` iterations after writing v
 * reads v + running + (then - 1) iterations' worth. `enabling` is the
 * same path measured without a write of a running counter: the counter
 * stopped at 0 and started by the WRMSR of its gate (else its control),
 * which runs the same instructions after it (WR-2's bound on the window,
 * prog_window_bounded in prog_measure.h).
 */
struct prog_window {
	uint64_t running, enabling;
};

bool prog_write_window(struct prog_counter *c, const struct prog_run *r,
		       struct prog_window *w, struct strbuf *why);

/* The same for n counters at once, control[k] for counters[k]; they share
 * one global enable MSR. The gates are restored as counters[0] found them. */
bool prog_run_many(struct prog_counter *counters, unsigned n,
		   const uint64_t *control, const struct prog_run *r,
		   uint64_t *count, struct strbuf *why);

#endif
