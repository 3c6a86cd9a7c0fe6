/*
 * smp.counters: each logical processor has its own counters (SMP-3): with
 * the counters stopped, CPU 0 and every AP cpus= chooses write their
 * general-purpose counter 0, each a value of its own, and only then read
 * it back: each reads its own value, with RDPMC first and RDMSR after it
 * (PRIV-7: the same counter). One counter bank shared by vCPUs, or a
 * vCPU's counters not restored as it runs again, fails here; so does a
 * hypervisor that loads a vCPU's counters only as it takes an MSR exit,
 * whose RDPMC reads what the last vCPU left until then: the RDMSR would
 * have loaded them and hidden it, so RDPMC goes first.
 */
#include "cpu_work.h"
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

/* RDPMC of general-purpose counter 0 at CPL 0, where PRIV-1 permits it. */
static const struct rdpmc_case read_case = { { MODE_LONG, 0, false }, 0,
					     SENTINEL_RAX, SENTINEL_RDX };

/* What one CPU does: stop its counters, write, or read the counter. */
struct counter_work {
	const struct prog_counter *counter;
	uint64_t value;		/* written; then read with RDMSR */
	struct exec_outcome rdpmc;	/* the RDPMC before the RDMSR */
	bool faulted;
	char why[120];
};

static void stop_and_write(void *arg)
{
	struct counter_work *w = arg;
	struct strbuf why;
	struct exec_outcome o;

	strbuf_init(&why, w->why, sizeof(w->why));
	w->faulted = !prog_stop_all(&why);
	if (w->faulted)
		return;
	exec_wrmsr(w->counter->count_msr, w->value, &o);
	w->faulted = o.faulted;
	if (o.faulted)
		strbuf_printf(&why, "WRMSR %s (%XH) raised vector %u",
			      w->counter->name, w->counter->count_msr, o.vector);
}

/* Read the counter back, RDPMC before RDMSR, then leave it 0 (a test
 * leaves the counters stopped and cleared): one start and wait for all. */
static void read_back(void *arg)
{
	struct counter_work *w = arg;
	struct strbuf why;
	struct exec_outcome o;

	strbuf_init(&why, w->why, sizeof(w->why));
	exec_rdpmc(&read_case.state, read_case.rax, read_case.rcx,
		   read_case.rdx, &w->rdpmc);
	exec_rdmsr(w->counter->count_msr, &o);
	w->faulted = o.faulted;
	w->value = edx_eax(&o);
	if (o.faulted)
		strbuf_printf(&why, "RDMSR %s (%XH) raised vector %u",
			      w->counter->name, w->counter->count_msr, o.vector);
	else
		exec_wrmsr(w->counter->count_msr, 0, &o);
}

/* Distinct on each CPU, below 2^31 (IA32_PMCx sign-extends bit 31, WR-1)
 * and within any counter's width. */
static uint64_t value_for(unsigned cpu)
{
	return 0x5A5000ull + 0x1111ull * (cpu + 1);
}

/* The RDPMC on cpu, where the model says it reads counter 0: its value
 * must be what cpu wrote, as the RDMSR after it must. An RDPMC that does
 * not read as the model says is ecx.* and priv.*'s to report. */
static void judge_rdpmc(unsigned cpu, const struct counter_work *w)
{
	struct rdpmc_expect e;
	uint64_t value = edx_eax(&w->rdpmc);

	model_rdpmc(check_pmu(), &read_case.state, read_case.rcx, &e, 0);
	if (e.verdict != VERDICT_READ || e.index != 0) {
		test_note("the model says RDPMC(ECX=0) at CPL 0 reads no counter 0 here: only RDMSR is judged");
		return;
	}
	if (!rdpmc_conforms(&read_case, &e, &w->rdpmc, 0)) {
		test_note("CPU %u: RDPMC(ECX=0) did not read as the model says (ecx.* and priv.* report that): only RDMSR is judged",
			  cpu);
		return;
	}
	if (value != value_for(cpu))
		test_fail("deviation: SMP-3: RDPMC(ECX=0) on CPU %u before any RDMSR: expected 0x%llx, what it wrote to %s (%XH) before the other CPUs wrote theirs, observed 0x%llx; RDMSR after it read 0x%llx (CPU n wrote 0x5A5000 + 0x1111 * (n + 1))",
			  cpu, (unsigned long long)value_for(cpu),
			  w->counter->name, w->counter->count_msr,
			  (unsigned long long)value,
			  (unsigned long long)w->value);
}

SINGLE_TEST(smp_counters, 0, "smp.counters", "SMP-3 PROG-3 SMP-6 PRIV-7",
	    "a counter written on one CPU is unchanged on the others")
{
	struct prog_counter c;
	struct counter_work w;
	bool written[CPUS_MAX] = { false };
	unsigned cpus = 0;

	(void)i;
	if (!prog_take_counter(&c, false))
		return;
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		if (cpu != 0 && !harness_cpu_chosen(cpu))
			continue;
		w = (struct counter_work){ &c, value_for(cpu), { 0 }, false, "" };
		if (!cpu_work(cpu, stop_and_write, &w))
			continue;
		if (w.faulted) {
			test_fail("on CPU %u: %s", cpu, w.why);
			continue;
		}
		written[cpu] = true;
		cpus++;
	}
	if (cpus < 2) {
		if (written[0])	/* stopped, and 0 again */
			exec_wrmsr(c.count_msr, 0, &(struct exec_outcome){ 0 });
		if (!test_has_failed())
			test_skip("no application processor beside CPU 0 (%u CPU(s); cpus= chooses)",
				  platform_cpu_count());
		return;
	}
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		if (!written[cpu])
			continue;
		w = (struct counter_work){ &c, 0, { 0 }, false, "" };
		if (!cpu_work(cpu, read_back, &w))
			continue;
		judge_rdpmc(cpu, &w);
		if (w.faulted)
			test_fail("on CPU %u: %s", cpu, w.why);
		else if (w.value != value_for(cpu))
			test_fail("deviation: SMP-3: RDMSR %s (%XH) on CPU %u: expected 0x%llx, what it wrote before the other CPUs wrote theirs, observed 0x%llx (CPU n wrote 0x5A5000 + 0x1111 * (n + 1))",
				  c.name, c.count_msr, cpu,
				  (unsigned long long)value_for(cpu),
				  (unsigned long long)w.value);
	}
	if (!test_has_failed())
		test_note("%s held each of %u CPUs' own value", c.name, cpus);
}
