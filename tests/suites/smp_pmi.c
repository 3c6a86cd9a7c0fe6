/*
 * smp.pmi: a counter's overflow interrupt goes to the local APIC of the
 * CPU whose counter overflowed (SMP-4): on this CPU, with its LVT
 * performance-counter entry unmasked, a general-purpose counter overflows
 * with its interrupt enable set, and this CPU takes the one PMI, no other
 * CPU any (kernel/interrupt_log.h records the CPU that took each).
 */
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "pmi_arm.h"
#include "prog_measure.h"

SINGLE_TEST(smp_pmi, SUITE_PER_CPU, "smp.pmi", "SMP-4 PMI-1 OVF-1",
	    "an overflow's PMI arrives at the local APIC of the CPU that counted")
{
	unsigned here = platform_this_cpu(), elsewhere = 0;
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	if (!pmi_take_counter(&c, false, LVT_VECTOR(PMI_VECTOR)))
		return;
	if (!prog_overflow(&c, c.enable_int, &count, &why))
		test_fail("%s", text);
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		unsigned taken = interrupt_log_count_on(cpu, PMI_VECTOR);

		if (cpu == here || taken == 0)
			continue;
		elsewhere += taken;
		test_fail("deviation: SMP-4: %s overflowed on CPU %u with INT set, and CPU %u's local APIC took %u PMI(s) at vector 0x%x",
			  c.name, here, cpu, taken, PMI_VECTOR);
	}
	if (interrupt_log_count(PMI_VECTOR) != 1)
		test_fail("deviation: SMP-4: %s overflowed on CPU %u with INT set and LVT 0x%08x: expected 1 PMI at vector 0x%x on CPU %u, observed %u (%u on other CPUs)",
			  c.name, here, LVT_VECTOR(PMI_VECTOR), PMI_VECTOR,
			  here, interrupt_log_count(PMI_VECTOR), elsewhere);
	else
		test_note("CPU %u took the PMI of its own %s", here, c.name);
	exec_lvt_pc_write(LVT_MASKED);
	interrupt_log_clear();	/* the PMIs were this test's own */
	if (c.status_msr)	/* leave no overflow behind (OVF-2) */
		exec_wrmsr(c.status_clear_msr, c.status_bit,
			   &(struct exec_outcome){ 0 });
}
