/*
 * smp.pmi.quiet: a CPU with nothing enabled takes no PMI while another
 * CPU's counter overflows with its interrupt enable set (SMP-4). Unlike
 * smp.pmi, every CPU's LVT performance-counter entry is unmasked at the
 * PMI vector during the overflow, so a PMI sent to another CPU (or to
 * all) is taken there and seen: every AP cpus= chooses stops its counters
 * and unmasks its entry, then halts, with interrupts enabled, while CPU 0's
 * general-purpose counter overflows with INT; CPU 0 takes the one PMI,
 * the APs none. Each AP masks its entry again afterwards.
 */
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "left_counter.h"
#include "pmi_arm.h"

SINGLE_TEST(smp_pmi_quiet, 0, "smp.pmi.quiet", "SMP-4 PMI-1 OVF-1",
	    "with every CPU's LVT entry unmasked, an overflow's PMI reaches its own CPU alone")
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;
	unsigned aps = 0, elsewhere = 0;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	if (!pmi_arm(&why)) {
		test_skip("%s", text);
		return;
	}
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
		aps += harness_cpu_chosen(cpu);
	if (aps == 0) {
		exec_lvt_pc_write(LVT_MASKED);
		test_skip("no application processor beside CPU 0 (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
		return;
	}
	if (!prog_take_counter(&c, false)) {
		exec_lvt_pc_write(LVT_MASKED);
		return;
	}
	if (!left_quiet_all(0, LVT_VECTOR(PMI_VECTOR))) {
		left_quiet_all(0, LVT_MASKED);
		pmi_disarm(&c);
		return;
	}
	interrupt_log_clear();
	if (!prog_overflow(&c, c.enable_int, &count, &why))
		test_fail("%s", text);
	/* Each AP, halted with interrupts enabled, took any PMI sent to it
	 * as it came; waking it to mask its entry again orders that before
	 * the count below. */
	if (!left_quiet_all(0, LVT_MASKED)) {
		pmi_disarm(&c);
		return;
	}
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++) {
		unsigned taken = interrupt_log_count_on(cpu, PMI_VECTOR);

		elsewhere += taken;
		if (taken)
			test_fail("deviation: SMP-4: %s overflowed on CPU 0 with INT set, and CPU %u, nothing enabled and its LVT entry 0x%08x, took %u PMI(s) at vector 0x%x",
				  c.name, cpu, LVT_VECTOR(PMI_VECTOR), taken,
				  PMI_VECTOR);
	}
	if (pmi_taken() != 1)
		test_fail("deviation: PMI-1: %s overflowed on CPU 0 with INT set and LVT 0x%08x, every AP's entry unmasked too: expected 1 PMI at vector 0x%x on CPU 0, observed %u (%u on other CPUs)",
			  c.name, LVT_VECTOR(PMI_VECTOR), PMI_VECTOR,
			  pmi_taken(), elsewhere);
	else if (!test_has_failed())
		test_note("CPU 0 took the PMI of its %s; %u AP(s) with their LVT entries unmasked took none",
			  c.name, aps);
	pmi_disarm(&c);
}
