/*
 * smp.counters: each logical processor has its own counters (SMP-3): with
 * the counters stopped, CPU 0 and every AP cpus= chooses write their
 * general-purpose counter 0, each a value of its own, and only then read
 * it back: each reads its own value. One counter bank shared by vCPUs, or
 * a vCPU's counters not restored as it runs again, fails here.
 */
#include "cpu_work.h"
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "prog_counter.h"

/* What one CPU does: stop its counters, write, or read the counter. */
struct counter_work {
	const struct prog_counter *counter;
	uint64_t value;		/* written; then read */
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

/* Read the counter back, then leave it 0 (a test leaves the counters
 * stopped and cleared): one start and wait for both. */
static void read_back(void *arg)
{
	struct counter_work *w = arg;
	struct strbuf why;
	struct exec_outcome o;

	strbuf_init(&why, w->why, sizeof(w->why));
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

SINGLE_TEST(smp_counters, 0, "smp.counters", "SMP-3 PROG-3 SMP-6",
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
		w = (struct counter_work){ &c, value_for(cpu), false, "" };
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
		w = (struct counter_work){ &c, 0, false, "" };
		if (!cpu_work(cpu, read_back, &w))
			continue;
		if (w.faulted)
			test_fail("on CPU %u: %s", cpu, w.why);
		else if (w.value != value_for(cpu))
			test_fail("deviation: SMP-3: %s (%XH) reads 0x%llx on CPU %u, which wrote 0x%llx before the other CPUs wrote theirs (CPU n wrote 0x5A5000 + 0x1111 * (n + 1))",
				  c.name, c.count_msr,
				  (unsigned long long)w.value, cpu,
				  (unsigned long long)value_for(cpu));
	}
	if (!test_has_failed())
		test_note("%s held each of %u CPUs' own value", c.name, cpus);
}
