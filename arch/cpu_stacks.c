/* Where each CPU's stacks are (cpu_stacks.h). */
#include "cpu_stacks.h"

#include "cpus.h"

#define PAGE	4096u

/* arch/stacks.asm: keep in step. An AP's block holds, from its bottom,
 * a guard page and a stack of these sizes, in enum cpu_stack's order. */
static const uint32_t ap_sizes[CPU_STACKS] = {
	32 * 1024, 16 * 1024, 8 * 1024, 8 * 1024, 16 * 1024,
};
#define AP_STACK_BLOCK	(5 * PAGE + (32 + 16 + 8 + 8 + 16) * 1024)

extern char boot_stack_top[], ring0_stack_top[], df_stack_top[],
	    nmi_stack_top[], ring_stack_top[];
extern char boot_stack_guard[], ring0_stack_guard[], df_stack_guard[],
	    nmi_stack_guard[], ring_stack_guard[];
extern char ap_stacks[], ap_stacks_end[];

_Static_assert(CPUS_MAX == 16, "arch/stacks.asm reserves CPUS_MAX - 1 = 15 blocks");

static char *const boot_tops[CPU_STACKS] = {
	boot_stack_top, ring0_stack_top, df_stack_top, nmi_stack_top,
	ring_stack_top,
};
static char *const boot_guards[CPU_STACKS] = {
	boot_stack_guard, ring0_stack_guard, df_stack_guard, nmi_stack_guard,
	ring_stack_guard,
};

/* The bottom of stack `which`'s guard page in AP cpu's block. */
static uint64_t ap_guard(unsigned cpu, enum cpu_stack which)
{
	uint64_t at = (uint64_t)(uintptr_t)ap_stacks +
		      (uint64_t)(cpu - 1) * AP_STACK_BLOCK;

	for (unsigned s = 0; s < which; s++)
		at += PAGE + ap_sizes[s];
	return at;
}

uint64_t cpu_stack_top(unsigned cpu, enum cpu_stack which)
{
	if (cpu == 0)
		return (uint64_t)(uintptr_t)boot_tops[which];
	return ap_guard(cpu, which) + PAGE + ap_sizes[which];
}

uint64_t cpu_stack_guard(unsigned cpu, enum cpu_stack which)
{
	if (cpu == 0)
		return (uint64_t)(uintptr_t)boot_guards[which];
	return ap_guard(cpu, which);
}

unsigned cpu_stacks_owner(uint64_t address)
{
	uint64_t base = (uint64_t)(uintptr_t)ap_stacks;

	if (address < base || address >= (uint64_t)(uintptr_t)ap_stacks_end)
		return 0;
	return (unsigned)((address - base) / AP_STACK_BLOCK) + 1;
}

const char *cpu_stack_name(enum cpu_stack which)
{
	static const char *const names[CPU_STACKS] = {
		"CPL 0 kernel", "TSS.RSP0", "#DF (IST1)", "NMI (IST2)",
		"ring_run",
	};

	return names[which];
}

/* Every stack a CPU runs on, at any CPL and in any trap, lies in its own
 * block (arch/cpu_stacks.h): the stack pointer says which CPU runs, at the
 * cost of no read a hypervisor sees, where the APIC ID costs an MMIO or
 * MSR read (an exit) on every trap of a sweep, and a GS base is lost to
 * any segment load. */
unsigned platform_this_cpu(void)
{
	uint64_t rsp;

	/* RSP points at the last byte pushed: at an empty stack's top, which
	 * is the first byte past it (and may be the next block's first). */
	__asm__ volatile("mov %%rsp, %0" : "=r"(rsp));
	return cpu_stacks_owner(rsp - 1);
}
