/*
 * smp.pce: the RDPMC privilege rule is each CPU's own (SMP-2): with
 * CR4.PCE set on CPU 0 and clear on an AP at the same time, RDPMC at CPL 3
 * reads on CPU 0 and raises #GP(0) on the AP (PRIV-1), and the other way
 * round; each CPU's CR4.PCE reads back as it was set. CPU 0 against every
 * AP cpus= chooses, one at a time, the AP kept in its state while CPU 0
 * runs (kernel/cpus.h). A secondary vCPU whose RDPMC a hypervisor still
 * intercepts, or a CR4.PCE shared between vCPUs, fails here. Where the
 * counters hold a written value, each CPU first writes the counter it
 * reads a value of its own (tests/lib/known_values.h), and a read must
 * return it: one of another vCPU's counter, or the host's, fails too
 * (SMP-3, PRIV-7).
 */
#include "counters.h"
#include "cpu_work.h"
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "known_values.h"
#include "msr_access.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

#define CPL 3

/* What one CPU does for the check: keep its CR4.PCE as it was (the AP's,
 * to restore it), set it, read it back, and RDPMC at CPL 3 under it. Runs
 * on the AP without writing the console, one start and wait a pair. */
struct pce_work {
	bool pce;
	uint64_t rcx;
	uint32_t msr;		/* the counter's; 0: no value written */
	bool was;		/* CR4.PCE before */
	bool pce_after;		/* CR4.PCE as it read back */
	bool written;		/* known_value(cpu, 0) is in it */
	unsigned cpu;
	struct exec_outcome outcome;
};

static void set_and_read(void *arg)
{
	struct pce_work *w = arg;
	struct strbuf why = { 0 };	/* a fault leaves the value unjudged */

	w->cpu = platform_this_cpu();
	w->written = w->msr && prog_stop_all(&why) &&	/* PROG-3 */
		     msr_write(w->msr, known_value(w->cpu, 0), &why);
	w->was = exec_cr4_pce();
	exec_cr4_pce_set(w->pce);
	w->pce_after = exec_cr4_pce();
	exec_rdpmc_kept_cr4(CPL, SENTINEL_RAX, w->rcx, SENTINEL_RDX,
			    &w->outcome);
}

/* The AP as it was: its CR4.PCE, and the counter stopped and 0. */
static void restore(void *arg)
{
	const struct pce_work *w = arg;
	struct strbuf why = { 0 };

	exec_cr4_pce_set(w->was);
	if (w->msr)
		msr_write(w->msr, 0, &why);
}

/* A read of the counter cpu gave a value: that value (SMP-3, PRIV-7). */
static void judge_value(unsigned cpu, const struct pce_work *w)
{
	uint64_t value = edx_eax(&w->outcome);

	test_judged(KNOWN_VALUES_STATEMENTS);
	if (value != known_value(cpu, 0))
		test_fail("deviation: SMP-3: RDPMC(ECX=%08XH) at CPL 3 on CPU %u, CR4.PCE 1: expected 0x%llx, what it wrote to the counter (%XH) before, observed 0x%llx (CPU n writes 0x%llx + 0x1000000 * n)",
			  (uint32_t)w->rcx, cpu,
			  (unsigned long long)known_value(cpu, 0), w->msr,
			  (unsigned long long)value,
			  (unsigned long long)known_value(0, 0));
}

/* The outcome on cpu against the model for CR4.PCE = w->pce. */
static void judge(unsigned cpu, const struct pce_work *w)
{
	struct rdpmc_case c = { { MODE_LONG, CPL, w->pce }, w->rcx,
				SENTINEL_RAX, SENTINEL_RDX };
	struct rdpmc_expect e;
	char text[200];
	struct strbuf deviation;

	if (w->pce_after != w->pce)
		test_fail("deviation: SMP-2: CPU %u's CR4.PCE reads %u, set to %u; another CPU's write reached it",
			  cpu, w->pce_after, w->pce);
	model_rdpmc(check_pmu(), &c.state, c.rcx, &e, 0);
	test_judged(e.statements);
	strbuf_init(&deviation, text, sizeof(text));
	if (rdpmc_conforms(&c, &e, &w->outcome, &deviation)) {
		if (w->written && !w->outcome.faulted)
			judge_value(cpu, w);
		return;
	}
	test_note("on CPU %u, CR4.PCE %u there and %u on the other CPU at the same time:",
		  cpu, w->pce, !w->pce);
	report_rdpmc_mismatch(&c, &w->outcome, text);
}

/* CPU 0 with pce0, then the AP with the opposite, then CPU 0 reads under
 * its own, which the AP's write must have left alone. The AP's CR4.PCE as
 * it was goes to *was. */
static bool pair(unsigned ap, bool pce0, uint64_t rcx, uint32_t msr,
		 struct pce_work *theirs)
{
	struct pce_work mine = { pce0, rcx, msr, false, false, false, 0, { 0 } };
	struct strbuf why = { 0 };

	*theirs = (struct pce_work){ !pce0, rcx, msr, false, false, false, 0, { 0 } };
	exec_cr4_pce_set(pce0);
	mine.written = msr && prog_stop_all(&why) &&
		       msr_write(msr, known_value(0, 0), &why);
	if (!cpu_work(ap, set_and_read, theirs))
		return false;
	exec_rdpmc_kept_cr4(CPL, SENTINEL_RAX, rcx, SENTINEL_RDX, &mine.outcome);
	mine.pce_after = exec_cr4_pce();
	judge(0, &mine);
	judge(ap, theirs);
	return true;
}

/* The MSR of counter c where the counters hold a written value, else 0. */
static uint32_t value_msr(const struct counter *c)
{
	struct prog_counter probe;
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (prog_probe_counter(&probe, false, &why) != PROG_BROKEN && c->width >= 32)
		return counter_msr(c, false);
	test_note("the values read are not judged: %s", text);
	return 0;
}

SINGLE_TEST(smp_pce, 0, "smp.pce", "SMP-2 PRIV-1 SMP-6",
	    "RDPMC at CPL 3 with CR4.PCE set on one CPU and clear on another at the same time")
{
	struct counter counters[1];
	uint64_t rcx = 0;
	uint32_t msr = 0;
	unsigned paired = 0;

	(void)i;
	if (model_counters(counters, 1) == 1) {
		rcx = counters[0].ecx;
		msr = value_msr(&counters[0]);
	} else {
		test_note("the model knows no counter that must read; ECX 0 checks what it says");
	}
	for (unsigned ap = 1; ap < platform_cpu_count(); ap++) {
		struct pce_work first, second;

		if (!harness_cpu_chosen(ap) || !pair(ap, true, rcx, msr, &first))
			continue;
		paired++;
		if (pair(ap, false, rcx, msr, &second)) {
			second.was = first.was;
			cpu_work(ap, restore, &second);
		}
	}
	if (msr)	/* CPU 0's counter stopped and 0 again */
		msr_write(msr, 0, &(struct strbuf){ 0 });
	if (paired == 0)
		test_skip("no application processor to pair with CPU 0 (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
}
