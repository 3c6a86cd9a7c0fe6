/*
 * The C side of exception and interrupt entry. An external interrupt
 * (vector 32 and up) is acknowledged and reported through the interrupt
 * hook, but for the arch's own: the wake-up IPI and CPU 0's alarm
 * (arch/alarm.h). A fault at an exception-table address is captured or ends a
 * ring_run(); anything else is unexpected: it is reported with the
 * registers through the fail hook and ends the running test as failed (the
 * suite goes on with the next test). A fault while reporting one ends the
 * run at once with status 2, on COM1 alone: the report's own path (the
 * harness, the console, the screen) is what faulted, so it is not used
 * again.
 */
#include "trap.h"

#include "cpu.h"
#include "cpus.h"
#include "extable.h"
#include "guard.h"
#include "hooks.h"
#include "alarm.h"
#include "apic.h"
#include "segments.h"
#include "ring.h"
#include "serial.h"
#include "cpu_table.h"
#include "smp.h"
#include "debug_exit.h"


static const char *code_segment_mode(uint64_t cs)
{
	unsigned sel = cs & ~3u;

	if (sel == SEL_KERNEL_CODE32 || sel == (SEL_CODE32(1) & ~3u) ||
	    sel == (SEL_CODE32(2) & ~3u) || sel == (SEL_CODE32(3) & ~3u))
		return "compat";
	return "long";
}

static void report_unexpected(const struct trap_frame *f)
{
	const char *stack = guard_page_owner(read_cr2());

	/* A #PF on a guard page, or the #DF of one a CPL 0 stack could not
	 * take: a stack overflow. */
	if (stack && (f->vector == VECTOR_PF || f->vector == VECTOR_DF))
		arch_hooks->fail("stack overflow: the %s stack ran into its guard page (CR2 %llx)",
				 stack, (unsigned long long)read_cr2());
	if ((uint32_t)f->error_code == NO_ERROR_CODE)
		arch_hooks->fail("unexpected %s (vector %llu) at RIP %llx",
			  vector_name(f->vector), (unsigned long long)f->vector,
			  (unsigned long long)f->rip);
	else
		arch_hooks->fail("unexpected %s (vector %llu) error code 0x%llx at RIP %llx",
			  vector_name(f->vector), (unsigned long long)f->vector,
			  (unsigned long long)f->error_code,
			  (unsigned long long)f->rip);
	arch_hooks->fail("  CPL %llu, %s mode, CS %llx SS %llx RSP %llx RFLAGS %llx CR2 %llx",
		  (unsigned long long)(f->cs & 3), code_segment_mode(f->cs),
		  (unsigned long long)f->cs, (unsigned long long)f->ss,
		  (unsigned long long)f->rsp, (unsigned long long)f->rflags,
		  (unsigned long long)read_cr2());
	arch_hooks->fail("  RAX %016llx RBX %016llx RCX %016llx RDX %016llx",
		  (unsigned long long)f->rax, (unsigned long long)f->rbx,
		  (unsigned long long)f->rcx, (unsigned long long)f->rdx);
	arch_hooks->fail("  RSI %016llx RDI %016llx RBP %016llx R8  %016llx",
		  (unsigned long long)f->rsi, (unsigned long long)f->rdi,
		  (unsigned long long)f->rbp, (unsigned long long)f->r8);
	arch_hooks->fail("  R9  %016llx R10 %016llx R11 %016llx R12 %016llx",
		  (unsigned long long)f->r9, (unsigned long long)f->r10,
		  (unsigned long long)f->r11, (unsigned long long)f->r12);
	arch_hooks->fail("  R13 %016llx R14 %016llx R15 %016llx",
		  (unsigned long long)f->r13, (unsigned long long)f->r14,
		  (unsigned long long)f->r15);
}

#define EXIT_HARNESS_ERROR	2	/* kernel/exit_status.h */

static void serial_hex(uint64_t v)
{
	char digits[18] = "0x";

	for (int i = 0; i < 16; i++)
		digits[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xF];
	serial_write(digits, sizeof(digits));
}

static void serial_text(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	serial_write(s, n);
}

/* A fault inside the report of a fault: name it on COM1 alone and exit
 * with status 2, calling back into nothing that may fault again (the
 * hooks, the console, the screen). */
static __attribute__((noreturn)) void fault_in_report(const struct trap_frame *f)
{
	serial_text("Bail out! an exception while reporting an exception: ");
	serial_text(vector_name(f->vector));
	serial_text(" at RIP ");
	serial_hex(f->rip);
	serial_text("\n");
	serial_flush();
	outb(DEBUG_EXIT_PORT, EXIT_HARNESS_ERROR);
	debug_exit_settle();
	serial_text("# pmctest: exit status 2; no isa-debug-exit device, halting\n");
	serial_flush();
	halt_forever();
}

void trap_handler(struct trap_frame *f)
{
	static int unexpected_depths[CPUS_MAX];
	unsigned cpu = platform_this_cpu();
	int *unexpected_depth = &unexpected_depths[cpu];
	const struct extable_entry *e = 0;

	if (f->vector >= FIRST_INTERRUPT_VECTOR) {
		if (f->vector != APIC_SPURIOUS_VECTOR)
			apic_eoi();
		if (f->vector == APIC_ALARM_VECTOR)
			alarm_fired();
		else if (f->vector != APIC_WAKE_VECTOR)
			arch_hooks->interrupt((unsigned)f->vector);
		return;
	}
	if (f->vector != VECTOR_NMI && f->vector != VECTOR_DF)
		e = extable_find(f->rip);
	if (e && e->kind == EXTABLE_RING_EXIT && f->vector == VECTOR_UD)
		ring_resume(ring_saved_rsp());
	if (e && e->kind == EXTABLE_CAPTURE) {
		captured_fault.happened = true;
		captured_fault.vector = (uint8_t)f->vector;
		captured_fault.error_code = (uint32_t)f->error_code;
		captured_fault.rip = f->rip;
		f->rip = e->resume;
		return;
	}

	/* An AP outside a contained run has no test to end, and one that
	 * faults while reporting a fault must not write the ports (only CPU
	 * 0 does, arch/ap_console.h): its waiter on CPU 0 reports either
	 * (platform_wait_cpu). */
	if (cpu != 0 && (!cpu_table[cpu].in_contained_run || *unexpected_depth))
		smp_ap_fault(cpu, f);
	if (*unexpected_depth > 1) {	/* a fault in fault_in_report() */
		outb(DEBUG_EXIT_PORT, EXIT_HARNESS_ERROR);
		halt_forever();
	}
	if ((*unexpected_depth)++)
		fault_in_report(f);
	report_unexpected(f);
	*unexpected_depth = 0;
	arch_abort_test();
}
