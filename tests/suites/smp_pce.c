/*
 * smp.pce: the RDPMC privilege rule is each CPU's own (SMP-2): with
 * CR4.PCE set on CPU 0 and clear on an AP at the same time, RDPMC at CPL 3
 * reads on CPU 0 and raises #GP(0) on the AP (PRIV-1), and the other way
 * round; each CPU's CR4.PCE reads back as it was set. CPU 0 against every
 * AP cpus= chooses, one at a time, the AP kept in its state while CPU 0
 * runs (kernel/cpus.h). A secondary vCPU whose RDPMC a hypervisor still
 * intercepts, or a CR4.PCE shared between vCPUs, fails here.
 */
#include "counters.h"
#include "cpu_work.h"
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "rdpmc_check.h"

#define CPL 3

/* What one CPU does for the check: keep its CR4.PCE as it was (the AP's,
 * to restore it), set it, read it back, and RDPMC at CPL 3 under it. Runs
 * on the AP without writing the console, one start and wait a pair. */
struct pce_work {
	bool pce;
	uint64_t rcx;
	bool was;		/* CR4.PCE before */
	bool pce_after;		/* CR4.PCE as it read back */
	struct exec_outcome outcome;
};

static void set_and_read(void *arg)
{
	struct pce_work *w = arg;

	w->was = exec_cr4_pce();
	exec_cr4_pce_set(w->pce);
	w->pce_after = exec_cr4_pce();
	exec_rdpmc_kept_cr4(CPL, SENTINEL_RAX, w->rcx, SENTINEL_RDX,
			    &w->outcome);
}

static void restore_pce(void *arg)
{
	exec_cr4_pce_set(*(const bool *)arg);
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
	if (rdpmc_conforms(&c, &e, &w->outcome, &deviation))
		return;
	test_note("on CPU %u, CR4.PCE %u there and %u on the other CPU at the same time:",
		  cpu, w->pce, !w->pce);
	report_rdpmc_mismatch(&c, &w->outcome, text);
}

/* CPU 0 with pce0, then the AP with the opposite, then CPU 0 reads under
 * its own, which the AP's write must have left alone. The AP's CR4.PCE as
 * it was goes to *was. */
static bool pair(unsigned ap, bool pce0, uint64_t rcx, bool *was)
{
	struct pce_work mine = { pce0, rcx, false, false, { 0 } };
	struct pce_work theirs = { !pce0, rcx, false, false, { 0 } };

	exec_cr4_pce_set(pce0);
	if (!cpu_work(ap, set_and_read, &theirs))
		return false;
	exec_rdpmc_kept_cr4(CPL, SENTINEL_RAX, rcx, SENTINEL_RDX, &mine.outcome);
	mine.pce_after = exec_cr4_pce();
	judge(0, &mine);
	judge(ap, &theirs);
	*was = theirs.was;
	return true;
}

SINGLE_TEST(smp_pce, 0, "smp.pce", "SMP-2 PRIV-1 SMP-6",
	    "RDPMC at CPL 3 with CR4.PCE set on one CPU and clear on another at the same time")
{
	struct counter counters[1];
	uint64_t rcx = 0;
	unsigned paired = 0;

	(void)i;
	if (model_counters(counters, 1) == 1)
		rcx = counters[0].ecx;
	else
		test_note("the model knows no counter that must read; ECX 0 checks what it says");
	for (unsigned ap = 1; ap < platform_cpu_count(); ap++) {
		bool was, then;

		if (!harness_cpu_chosen(ap) || !pair(ap, true, rcx, &was))
			continue;
		paired++;
		if (pair(ap, false, rcx, &then))
			cpu_work(ap, restore_pce, &was);
	}
	if (paired == 0)
		test_skip("no application processor to pair with CPU 0 (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
}
