/*
 * kernel/cpus.h on the simulated CPUs: starting fn on a CPU makes it the
 * executing one (sim_this()) until fn returns, and waiting returns what
 * happened. Each CPU keeps its state between the two, so a check that
 * sets CR4.PCE or a counter on one CPU and looks at another finds both as
 * left, as on hardware. The per-vCPU deviations that happen as a
 * hypervisor switches vCPUs happen here.
 */
#include "cpus.h"

#include <setjmp.h>

#include "boot_msrs.h"
#include "sim_count.h"
#include "sim_cpu.h"
#include "sim_cpus.h"
#include "sim_switch.h"

struct sim_cpu sim_cpus[SIM_CPUS_MAX];
unsigned sim_cpu_total = 1;

static struct {
	unsigned current;
	unsigned loaded;	/* whose counters the hardware holds */
	bool started[SIM_CPUS_MAX];	/* given work not yet waited for */
	bool lost[SIM_CPUS_MAX];
	jmp_buf hang[SIM_CPUS_MAX];
} cpus;

_Static_assert(SIM_CPUS_MAX == CPUS_MAX, "one simulated CPU per CPU a run has");

struct sim_cpu *sim_this(void)
{
	return &sim_cpus[cpus.current];
}

unsigned platform_cpu_count(void)
{
	return sim_cpu_total;
}

unsigned platform_this_cpu(void)
{
	return cpus.current;
}

/* Not contiguous, as firmware tables often give them. */
uint32_t platform_cpu_apic_id(unsigned cpu)
{
	return 2 * cpu;
}

static void copy_counters(struct sim_cpu *to, const struct sim_cpu *from)
{
	for (unsigned x = 0; x < SIM_INDEX_BITS; x++) {
		to->gp[x].raw = from->gp[x].raw;
		to->fixed[x].raw = from->fixed[x].raw;
	}
	for (unsigned n = 0; n < SIM_AMD_CORE; n++)
		to->amd_core[n].raw = from->amd_core[n].raw;
}

static void zero_counters(struct sim_cpu *cpu)
{
	static const struct sim_cpu none;

	copy_counters(cpu, &none);
}

/* The hypervisor schedules vCPU `to` in place of the executing one,
 * which halts (sim_switch.h). */
static void switch_to(unsigned to)
{
	struct sim_cpu *from = sim_this(), *next = &sim_cpus[to];

	sim_switch_halt(from);
	if (from->deviation == DEV_COUNTERS_SHARED)
		copy_counters(next, from);
	if (from->deviation == DEV_STATE_LOST_ON_SWITCH && to != cpus.current)
		zero_counters(next);
	cpus.current = to;
	sim_pmi_release();	/* DEV_PMI_TO_NEXT_VCPU */
	sim_switch_resume(next);
}

void sim_cpus_msr_exit(void)
{
	cpus.loaded = cpus.current;
	sim_switch_msr_exit(sim_this());
}

struct sim_cpu *sim_cpus_loaded(void)
{
	if (sim_this()->deviation != DEV_RDPMC_STALE_UNTIL_MSR_EXIT)
		return sim_this();
	return &sim_cpus[cpus.loaded];
}

void sim_cpus_init(unsigned total)
{
	sim_cpu_total = total;
	cpus.current = 0;
}

void sim_cpus_start(void)
{
	boot_msrs_record();
	for (unsigned cpu = 1; cpu < sim_cpu_total; cpu++) {
		cpus.current = cpu;
		boot_msrs_record_cpu(cpu);
	}
	cpus.current = 0;
}

void sim_cpu_hang(void)
{
	longjmp(cpus.hang[cpus.current], 1);
}

void sim_interrupt_to(unsigned cpu, unsigned vector)
{
	unsigned was = cpus.current;

	cpus.current = cpu;	/* the handler runs there */
	interrupt_log_record(vector);
	cpus.current = was;
}

bool platform_start_on_cpu(unsigned cpu, void (*fn)(void *), void *arg,
			   struct strbuf *why)
{
	unsigned was = cpus.current;

	if (cpu == 0 || cpu >= sim_cpu_total) {
		strbuf_printf(why, "CPU %u is not an application processor of this run (%u CPUs)",
			      cpu, sim_cpu_total);
		return false;
	}
	if (cpus.lost[cpu] || cpus.started[cpu]) {
		strbuf_printf(why, "CPU %u is %s", cpu,
			      cpus.lost[cpu] ? "lost" : "still busy");
		return false;
	}
	cpus.started[cpu] = true;
	switch_to(cpu);
	if (setjmp(cpus.hang[cpu]) == 0)
		fn(arg);
	else
		cpus.lost[cpu] = true;
	switch_to(was);
	return true;
}

bool platform_wait_cpu(unsigned cpu, unsigned timeout_ms, struct strbuf *why)
{
	if (cpu >= sim_cpu_total || !cpus.started[cpu]) {
		strbuf_printf(why, "CPU %u was given no work to wait for", cpu);
		return false;
	}
	cpus.started[cpu] = false;
	if (cpus.lost[cpu]) {
		strbuf_printf(why, "CPU %u did not return within %u ms", cpu,
			      timeout_ms);
		return false;
	}
	return true;
}
