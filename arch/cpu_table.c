/* The table of CPUs (cpu_table.h). */
#include "cpu_table.h"

#include "apic.h"
#include "cpu.h"

struct cpu cpu_table[CPUS_MAX];

void cpu_wake_waiter(unsigned cpu)
{
	struct cpu *w = &cpu_table[cpu_table[cpu].waiter];

	__atomic_add_fetch(&w->waking, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&w->halted, __ATOMIC_SEQ_CST))
		apic_send_fixed(w->apic_id, APIC_WAKE_VECTOR);
	__atomic_sub_fetch(&w->waking, 1, __ATOMIC_SEQ_CST);
}

void smp_ap_fault(unsigned cpu, const struct trap_frame *f)
{
	struct cpu *c = &cpu_table[cpu];

	c->fault.vector = f->vector;
	c->fault.error_code = f->error_code;
	c->fault.rip = f->rip;
	c->fault.cr2 = read_cr2();
	__atomic_store_n(&c->state, CPU_FAULTED, __ATOMIC_SEQ_CST);
	cpu_wake_waiter(cpu);
	for (;;)
		__asm__ volatile("cli; hlt");
}
