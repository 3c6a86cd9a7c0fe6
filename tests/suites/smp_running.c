/*
 * smp.running.*: a counter left enabled while other CPUs work. On the
 * first AP cpus= chooses (the counter's CPU, "own"; one AP only, as each
 * round wakes APs four to eight times, a few ms each under TCG), a
 * counter of instructions retired at CPL 3 (USR only) counts
 * LEFT_OWN_LOOP iterations, and the AP returns and halts with it still
 * enabled; CPU 0
 * and the other APs then run ten times as much of the same work, and the
 * AP resumes and reads its counter with RDPMC before any RDMSR
 * (tests/lib/left_counter.h).
 *
 * .count: the count is the AP's own work alone (SMP-7, PROG-2): the
 * others' would add 202,000 instructions each, a context not restored as
 * the AP runs again would lose its 20,000.
 *
 * .overflow: the same counter, with INT, preset to wrap
 * LEFT_OVERFLOW_EARLY instructions before the AP's loop ends, with every
 * chosen CPU's LVT entry unmasked: the AP takes the one PMI (whether
 * during its loop, in the interrupt window after it, or as it halts, with
 * interrupts enabled, is the skid PMI-1 allows), by the time it runs
 * again; no other CPU takes any (SMP-4); the counter wrapped and its
 * overflow bit is set on the AP (OVF-1).
 */
#include "counters.h"
#include "cpu_work.h"
#include "cpus.h"
#include "harness.h"
#include "interrupt_log.h"
#include "left_counter.h"
#include "pmi_arm.h"

/* The wrap this many instructions before the loop's end: in its last 32
 * iterations, once the AP has retired all but these of its work. */
#define LEFT_OVERFLOW_EARLY	64ull

enum { CASE_COUNT, CASE_OVERFLOW, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_COUNT ? "smp.running.count"
					    : "smp.running.overflow");
	strbuf_puts(&t->statements, i == CASE_COUNT
		    ? "SMP-7 PROG-2 PROG-1 SMP-3 PRIV-7"
		    : "SMP-4 PMI-1 OVF-1 SMP-7 PROG-2 PRIV-7");
	strbuf_puts(&t->description, i == CASE_COUNT
		    ? "a counter left enabled on an AP while the other CPUs work counts the AP's own work alone"
		    : "a counter that overflows as its AP stops raises its PMI on that AP alone, by the time it runs again");
}

/* What the counter read on the AP as it resumed: RDPMC's value, or where
 * RDPMC faulted (its own tests report that) the count by RDMSR. */
static uint64_t read_value(unsigned own, const struct left_counter *w)
{
	uint64_t value = edx_eax(&w->rdpmc);

	if (w->rdpmc.faulted) {
		test_note("CPU %u: RDPMC ECX 0 raised vector %u; %s read by RDMSR",
			  own, w->rdpmc.vector, w->c->name);
		return w->count;
	}
	if (value != w->count)	/* stopped between: USR counts no CPL 0 */
		test_fail("deviation: PRIV-7: on CPU %u RDPMC ECX 0 read 0x%llx as the CPU resumed, RDMSR %s (%XH) 0x%llx right after, with the counter stopped in between and no CPL 3 instruction: RDPMC read a counter other than the one the CPU ran with",
			  own, (unsigned long long)value, w->c->name,
			  w->c->count_msr, (unsigned long long)w->count);
	return value;
}

static void judge_count(unsigned own, const struct left_counter *w)
{
	uint64_t value = read_value(own, w);
	uint64_t tolerance = prog_tolerance(LEFT_OWN_INSTRUCTIONS);
	uint64_t low = LEFT_OWN_INSTRUCTIONS - tolerance;
	uint64_t high = LEFT_OWN_INSTRUCTIONS + LEFT_RING_WAY + tolerance;

	if (value >= low && value <= high) {
		test_note("CPU %u: %s counted %llu over its own %llu iterations at CPL %u while %u other CPU(s) ran %llu each",
			  own, w->c->name, (unsigned long long)value,
			  LEFT_OWN_LOOP, LEFT_CPL, platform_cpu_count() - 1,
			  LEFT_OTHER_LOOP);
		return;
	}
	test_fail("deviation: SMP-7: %s on CPU %u, enabled for USR, counted %llu instructions while it ran %llu iterations at CPL %u and, halted with the counter enabled, the other CPUs ran %llu each: expected %llu to %llu, its own work alone (%s)",
		  w->c->name, own, (unsigned long long)value, LEFT_OWN_LOOP,
		  LEFT_CPL, LEFT_OTHER_LOOP, (unsigned long long)low,
		  (unsigned long long)high,
		  value > high ? "more: another CPU's work reached it"
			       : "fewer: it lost counts while the others ran");
}

static void judge_overflow(unsigned own, const struct left_counter *w)
{
	uint64_t value = read_value(own, w);
	uint64_t past = LEFT_OVERFLOW_EARLY + LEFT_RING_WAY +
			prog_tolerance(LEFT_OWN_INSTRUCTIONS);
	unsigned elsewhere = 0;

	if (value > width_mask(w->c->width) / 2)
		test_fail("deviation: OVF-1: %s on CPU %u, preset to wrap %llu instructions before the end of its %llu iterations at CPL %u, reads 0x%llx: it did not wrap",
			  w->c->name, own, LEFT_OVERFLOW_EARLY, LEFT_OWN_LOOP,
			  LEFT_CPL, (unsigned long long)value);
	else if (value > past)
		test_fail("deviation: SMP-7: %s on CPU %u wrapped %llu instructions before the end of its own work and reads %llu after the other CPUs ran %llu iterations each: expected at most %llu, its own work alone",
			  w->c->name, own, LEFT_OVERFLOW_EARLY,
			  (unsigned long long)value, LEFT_OTHER_LOOP,
			  (unsigned long long)past);
	if (w->c->status_msr && !w->overflow_bit)
		test_fail("deviation: OVF-1: %s wrapped on CPU %u, and its overflow bit (0x%llx) of the global status (%XH) is clear there",
			  w->c->name, own, (unsigned long long)w->c->status_bit,
			  w->c->status_msr);
	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		unsigned taken = interrupt_log_count_on(cpu, PMI_VECTOR);

		if (cpu == own || taken == 0)
			continue;
		elsewhere += taken;
		test_fail("deviation: SMP-4: %s overflowed on CPU %u with INT set as it stopped, and CPU %u, nothing enabled and its LVT entry 0x%08x, took %u PMI(s) at vector 0x%x",
			  w->c->name, own, cpu, LVT_VECTOR(PMI_VECTOR), taken,
			  PMI_VECTOR);
	}
	if (w->pmis_at_resume != 1)
		test_fail("deviation: PMI-1: %s overflowed on CPU %u with INT set and LVT 0x%08x as the CPU stopped: expected 1 PMI at vector 0x%x on CPU %u by the time it ran again, observed %u (%u on other CPUs)",
			  w->c->name, own, LVT_VECTOR(PMI_VECTOR), PMI_VECTOR,
			  own, w->pmis_at_resume, elsewhere);
	else if (!test_has_failed())
		test_note("CPU %u took the PMI of its %s, which wrapped as it stopped; %llu past the wrap",
			  own, w->c->name, (unsigned long long)value);
}

/* One AP's round: start, the others' work, resume and read. */
static bool round_on(unsigned own, struct left_counter *w)
{
	bool others;

	if (!cpu_work(own, left_start, w))
		return false;
	if (w->faulted) {
		test_fail("on CPU %u: %s", own, w->why);
		return false;
	}
	others = left_others_work(own);
	/* Read, stop and clear it whatever happened meanwhile. */
	if (!cpu_work(own, left_read, w) || !others)
		return false;
	if (w->faulted)
		test_fail("on CPU %u: %s", own, w->why);
	return !w->faulted;
}

/* Every chosen CPU's LVT entry unmasked around the round, masked after
 * it whatever happened. */
static void round_overflow(unsigned own, struct left_counter *w)
{
	if (left_quiet_all(own, LVT_VECTOR(PMI_VECTOR))) {
		interrupt_log_clear();
		if (round_on(own, w))
			judge_overflow(own, w);
	}
	interrupt_log_clear();	/* the PMIs were this test's own */
	left_quiet_all(own, LVT_MASKED);
}

/* The counter's CPU: the first AP cpus= chooses, or 0 for none. */
static unsigned first_ap(void)
{
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
		if (harness_cpu_chosen(cpu))
			return cpu;
	return 0;
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct left_counter w = { .c = &c, .workload = PROG_KNOWN_LOOP,
				  .iterations = LEFT_OWN_LOOP };
	unsigned own = first_ap();

	strbuf_init(&why, text, sizeof(text));
	if (own == 0) {
		test_skip("no application processor beside CPU 0 (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
		return;
	}
	if (i == CASE_OVERFLOW && !exec_lvt_pc_available(&why)) {
		test_skip("%s", text);
		return;
	}
	if (!prog_take_counter(&c, false))
		return;
	w.control = prog_enables(&c, FILTER_USR);
	if (i == CASE_COUNT) {
		if (round_on(own, &w))
			judge_count(own, &w);
		return;
	}
	w.control |= c.enable_int;
	w.preset = width_mask(c.width) -
		   (LEFT_OWN_INSTRUCTIONS - LEFT_OVERFLOW_EARLY) + 1;
	w.lvt = LVT_VECTOR(PMI_VECTOR);
	round_overflow(own, &w);
}

static const struct suite smp_running = { 0, CASES, describe, run };
REGISTER_SUITE(smp_running);
