/* kernel/cpus.h for a run of CPU 0 alone: no application processor is
 * started. */
#include "cpus.h"

#include "cpu.h"

unsigned platform_cpu_count(void)
{
	return 1;
}

unsigned platform_this_cpu(void)
{
	return 0;
}

/* CPUID.01H:EBX[31:24], the initial APIC ID of the executing CPU. */
uint32_t platform_cpu_apic_id(unsigned cpu)
{
	(void)cpu;
	return cpuid(1, 0).ebx >> 24;
}

bool platform_start_on_cpu(unsigned cpu, void (*fn)(void *), void *arg,
			   struct strbuf *why)
{
	(void)fn;
	(void)arg;
	strbuf_printf(why, "CPU %u was never started: the run has CPU 0 alone",
		      cpu);
	return false;
}

bool platform_wait_cpu(unsigned cpu, unsigned timeout_ms, struct strbuf *why)
{
	(void)timeout_ms;
	strbuf_printf(why, "CPU %u was never started: the run has CPU 0 alone",
		      cpu);
	return false;
}
