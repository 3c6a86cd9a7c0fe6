/* The table of CPUs (cpu_table.h). */
#include "cpu_table.h"

#include "cpu.h"

struct cpu cpu_table[CPUS_MAX];

void smp_ap_fault(unsigned cpu, const struct trap_frame *f)
{
	struct cpu *c = &cpu_table[cpu];

	c->fault.vector = f->vector;
	c->fault.error_code = f->error_code;
	c->fault.rip = f->rip;
	c->fault.cr2 = read_cr2();
	__atomic_store_n(&c->state, CPU_FAULTED, __ATOMIC_RELEASE);
	for (;;)
		__asm__ volatile("cli; hlt");
}
