/*
 * smp.switch.*: a counter and its PMI across the points where a
 * hypervisor switches a vCPU out and in again (SMP-9): an instruction it
 * completes itself (a VM exit and entry), and a halt until another CPU
 * wakes the vCPU. On a processor nothing happens there; under a
 * hypervisor that loads a vCPU's counters at every entry and saves them
 * at every exit, the counter, its overflow status and its pending PMI
 * cross each of them. Both run on the first AP cpus= chooses (the
 * counter's CPU, "own"), with a counter of instructions retired at CPL 3
 * (USR only, PROG-2: nothing the CPU does at CPL 0 around its work, its
 * halt and the wake-up IPI among it, counts) and INT, its LVT entry and
 * CPU 0's unmasked at the PMI vector, so that a PMI sent elsewhere is
 * seen (SMP-4).
 *
 * .out: the overflow falls while the vCPU is, or is about to be, out of
 * guest mode. The AP runs SWITCH_OUT_LOOP iterations of the CPUID loop
 * (xor, CPUID, dec, jnz) with the counter preset to wrap on its
 * SWITCH_OUT_AT + j-th instruction at CPL 3, j = 0..3, one round each:
 * four consecutive instructions of the loop, so that in one round the
 * wrap falls on the CPUID, which a hypervisor completes and counts
 * itself while the vCPU is out of guest mode (EXIT-1), in the round
 * before on the instruction right before it (a PMI with skid arrives
 * after the exit), and in the other two on the first instructions after
 * the hypervisor has entered guest mode again (the dec and jnz: the
 * counter must be loaded by then). Then the AP halts while CPU 0 works,
 * and runs again.
 * Each round: one PMI by the interrupt window that ends the loop (PMI-1),
 * none more by the time the AP runs again after its halt (PMI-5), none
 * elsewhere; the counter wrapped and holds what ran after the wrap, its
 * overflow bit set (OVF-1).
 *
 * .in: the overflow falls in the first instructions after the vCPU is
 * switched back in. The AP arms the counter SWITCH_IN_AT instructions
 * below its top and halts at once, nothing counted; CPU 0 works, then
 * wakes it, and it runs SWITCH_IN_LOOP iterations of the known loop: no
 * PMI before it (SMP-7), one by the interrupt window after it (PMI-1),
 * the wrap where the count says (what ran after it, OVF-1); the AP halts
 * again and runs again: no second PMI (PMI-5), the counter as it was
 * (SMP-7), its overflow bit set.
 */
#include "counters.h"
#include "cpu_work.h"
#include "cpus.h"
#include "harness.h"
#include "interrupt_log.h"
#include "left_counter.h"
#include "pmi_arm.h"

/* .out: 32 iterations of the CPUID loop, 128 instructions; the wraps at
 * its 64th to 67th instruction at CPL 3, well inside the loop whatever
 * the ring's way in counts (at most SWITCH_EXIT_WAY). */
#define SWITCH_OUT_LOOP		32ull
#define SWITCH_OUT_AT		64ull
#define SWITCH_OUT_ROUNDS	4u
#define SWITCH_OUT_INSTRUCTIONS	(EXITING_LOOP_INSTRUCTIONS * SWITCH_OUT_LOOP)
/*
 * The instructions exec_exiting_loop() retires at CPL 3 beside its
 * iterations: the CALL of the ring's entry, the MOV and JMP of the C
 * step, cpuid_loop's PUSH, MOV, POP and RET, and IRETQ, which may count
 * at either CPL (as LEFT_RING_WAY says of the known loop).
 */
#define SWITCH_EXIT_WAY		8ull

/* .in: the wrap on the 16th instruction at CPL 3 after the AP runs again,
 * inside a known loop of 16 iterations (34 instructions). */
#define SWITCH_IN_AT		16ull
#define SWITCH_IN_LOOP		16ull
#define SWITCH_IN_INSTRUCTIONS	(KNOWN_LOOP_INSTRUCTIONS * SWITCH_IN_LOOP + 2)

/* What CPU 0 runs at CPL 3 while the AP halts with its counter armed. */
#define SWITCH_OTHER_LOOP	PROG_SHORT_LOOP

enum { CASE_OUT, CASE_IN, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_OUT ? "smp.switch.out" : "smp.switch.in");
	strbuf_puts(&t->statements, i == CASE_OUT
		    ? "SMP-9 PMI-1 PMI-5 OVF-1 EXIT-1 SMP-4 SMP-7 PROG-2 PRIV-7"
		    : "SMP-9 PMI-1 PMI-5 OVF-1 SMP-4 SMP-7 PROG-2 PRIV-7");
	strbuf_puts(&t->description, i == CASE_OUT
		    ? "an overflow on or just before an instruction a hypervisor completes: one PMI, none after a halt"
		    : "a counter armed as its AP halts overflows in its first instructions after it runs again: one PMI");
}

/* The counter's CPU: the first AP cpus= chooses, or 0 for none. */
static unsigned first_ap(void)
{
	for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
		if (harness_cpu_chosen(cpu))
			return cpu;
	return 0;
}

/* PMIs taken by every CPU but own since the log was cleared, each
 * reported (SMP-4). */
static unsigned pmis_elsewhere(unsigned own, const struct prog_counter *c,
			       const char *when)
{
	unsigned elsewhere = 0;

	for (unsigned cpu = 0; cpu < platform_cpu_count(); cpu++) {
		unsigned taken = interrupt_log_count_on(cpu, PMI_VECTOR);

		if (cpu == own || taken == 0)
			continue;
		elsewhere += taken;
		test_fail("deviation: SMP-4: %s overflowed on CPU %u with INT set %s, and CPU %u, nothing enabled%s, took %u PMI(s) at vector 0x%x",
			  c->name, own, when, cpu,
			  cpu == 0 ? " and its LVT entry unmasked" : "",
			  taken, PMI_VECTOR);
	}
	return elsewhere;
}

/* What the counter's CPU saw in one round: PMIs it had taken at each
 * point, and the counter's value after its work and when it was read. */
struct round {
	unsigned armed;		/* after left_start's work and window */
	unsigned resumed;	/* .in: as it ran again, before its work */
	unsigned worked;	/* .in: after that work and window */
	unsigned read;		/* as it ran again to be read */
	bool worked_read;	/* .in: the RDPMC after the work read */
	uint64_t worked_value;
	uint64_t value;		/* RDPMC as it was read, else RDMSR */
};

/* Arm (and, for .out, the work), CPU 0's work while the AP halts, (.in)
 * run again and work, then run again and read: false, the test failed,
 * where a CPU could not. The counter is read, stopped and cleared
 * whatever happened between. */
static bool round_on(unsigned own, struct left_counter *w, bool resume,
		     struct round *r)
{
	interrupt_log_clear();
	if (!cpu_work(own, left_start, w))
		return false;
	r->armed = w->pmis_after_work;
	if (w->faulted) {
		test_fail("on CPU %u: %s", own, w->why);
		cpu_work(own, left_read, w);	/* stop and clear what it can */
		return false;
	}
	exec_known_loop(LEFT_CPL, SWITCH_OTHER_LOOP);	/* CPU 0 meanwhile */
	if (resume) {
		w->iterations = SWITCH_IN_LOOP;
		if (!cpu_work(own, left_resume, w))
			return false;
		r->resumed = w->pmis_at_resume;
		r->worked = w->pmis_after_work;
		r->worked_read = !w->rdpmc_after_work.faulted;
		r->worked_value = edx_eax(&w->rdpmc_after_work);
	}
	if (!cpu_work(own, left_read, w))
		return false;
	if (w->faulted) {
		test_fail("on CPU %u: %s", own, w->why);
		return false;
	}
	r->read = w->pmis_at_resume;
	r->value = edx_eax(&w->rdpmc);
	if (w->rdpmc.faulted) {
		test_note("CPU %u: RDPMC ECX 0 raised vector %u; %s read by RDMSR",
			  own, w->rdpmc.vector, w->c->name);
		r->value = w->count;
	} else if (r->value != w->count) {	/* stopped between: USR counts no CPL 0 */
		test_fail("deviation: PRIV-7: on CPU %u RDPMC ECX 0 read 0x%llx as the CPU ran again, RDMSR %s (%XH) 0x%llx right after, with the counter stopped in between and no CPL 3 instruction: RDPMC read a counter other than the one the CPU ran with",
			  own, (unsigned long long)r->value, w->c->name,
			  w->c->count_msr, (unsigned long long)w->count);
	}
	if (!r->worked_read)
		r->worked_value = r->value;
	return true;
}

/* OVF-1: the overflow bit of the counter's CPU, where it has one. */
static void expect_status(unsigned own, const struct left_counter *w)
{
	if (w->c->status_msr && !w->overflow_bit)
		test_fail("deviation: OVF-1: %s wrapped on CPU %u, and its overflow bit (0x%llx) of the global status (%XH) is clear there as the CPU ran again",
			  w->c->name, own, (unsigned long long)w->c->status_bit,
			  w->c->status_msr);
}

/* SMP-9, OVF-1: value is what the counter counted past its wrap, which
 * `at` instructions at CPL 3 reached, of `ran` to `ran + way` (plus the
 * tolerance of an exact count) that ran. Returns whether it wrapped at
 * all; fails the test where it did not, or elsewhere. */
static bool expect_past_wrap(unsigned own, const struct left_counter *w,
			     uint64_t value, uint64_t at, uint64_t ran,
			     uint64_t way, const char *what)
{
	uint64_t tolerance = prog_tolerance(ran);
	uint64_t low = ran - at - tolerance, high = ran + way - at + tolerance;

	if (value > width_mask(w->c->width) / 2) {
		test_fail("deviation: SMP-9: %s on CPU %u, preset 0x%llx to wrap on the %lluth instruction at CPL %u %s, reads 0x%llx: it did not wrap (the overflow came late, or not at all)",
			  w->c->name, own, (unsigned long long)w->preset,
			  (unsigned long long)at, LEFT_CPL, what,
			  (unsigned long long)value);
		return false;
	}
	if (value >= low && value <= high)
		return true;
	test_fail("deviation: SMP-9: %s on CPU %u, preset 0x%llx to wrap on the %lluth instruction at CPL %u %s, reads %llu past its wrap: expected %llu to %llu, the %llu to %llu instructions that ran less %llu (%s)",
		  w->c->name, own, (unsigned long long)w->preset,
		  (unsigned long long)at, LEFT_CPL, what,
		  (unsigned long long)value, (unsigned long long)low,
		  (unsigned long long)high, (unsigned long long)ran,
		  (unsigned long long)(ran + way), (unsigned long long)at,
		  value > high ? "more: it wrapped early, or counted work not its own"
			       : "fewer: it wrapped late, or lost counts");
	return true;
}

/* .out, round j: the wrap on the at-th instruction at CPL 3 of the CPUID
 * loop; a PMI by the window after the loop, none more after the halt. */
static void judge_out(unsigned own, const struct left_counter *w,
		      const struct round *r, uint64_t at)
{
	char what[160];
	struct strbuf text;
	bool wrapped;

	strbuf_init(&text, what, sizeof(what));
	strbuf_printf(&text, "of its %llu iterations of the CPUID loop (round %llu of %u: four consecutive instructions, one a CPUID)",
		      SWITCH_OUT_LOOP, (unsigned long long)(at - SWITCH_OUT_AT),
		      SWITCH_OUT_ROUNDS);
	wrapped = expect_past_wrap(own, w, r->value, at, SWITCH_OUT_INSTRUCTIONS,
				   SWITCH_EXIT_WAY, what);
	if (r->armed != 1)
		test_fail("deviation: PMI-1: %s on CPU %u wrapped on the %lluth instruction at CPL %u %s with INT set and LVT 0x%08x: expected 1 PMI at vector 0x%x by the interrupt window that ends the loop, observed %u (%s)",
			  w->c->name, own, (unsigned long long)at, LEFT_CPL,
			  what, LVT_VECTOR(PMI_VECTOR), PMI_VECTOR, r->armed,
			  r->armed ? "more than one overflow's"
				   : r->read ? "it came later, as the CPU halted or ran again"
					     : "none came, by the time the CPU ran again either");
	else if (r->read != r->armed)
		test_fail("deviation: PMI-5: %s on CPU %u wrapped once, on the %lluth instruction at CPL %u %s, and raised its PMI: the CPU then halted and ran again, and had taken %u PMI(s) by then, %u more with nothing overflowing again",
			  w->c->name, own, (unsigned long long)at, LEFT_CPL,
			  what, r->read, r->read - r->armed);
	if (wrapped)
		expect_status(own, w);
}

/* .in: armed SWITCH_IN_AT below the wrap as the AP halted, the wrap in
 * its first instructions at CPL 3 after it ran again. */
static void judge_in(unsigned own, const struct left_counter *w,
		     const struct round *r)
{
	const char *what = "after the CPU halted with it armed and ran again";

	if (r->resumed != 0)
		test_fail("deviation: SMP-7: %s on CPU %u, armed with INT %llu instructions at CPL %u below its wrap as the CPU halted, had raised %u PMI(s) when the CPU ran again, before it ran any instruction at CPL %u: the counter counted while its CPU halted, or the PMI came from nothing",
			  w->c->name, own, SWITCH_IN_AT, LEFT_CPL, r->resumed,
			  LEFT_CPL);
	else if (r->worked != 1)
		test_fail("deviation: PMI-1: %s on CPU %u, armed with INT and LVT 0x%08x to wrap on the %lluth instruction at CPL %u %s: expected 1 PMI at vector 0x%x by the interrupt window after its first %llu instructions there (%llu iterations of the known loop), observed %u (%s)",
			  w->c->name, own, LVT_VECTOR(PMI_VECTOR), SWITCH_IN_AT,
			  LEFT_CPL, what, PMI_VECTOR, SWITCH_IN_INSTRUCTIONS,
			  SWITCH_IN_LOOP, r->worked,
			  r->worked ? "more than one overflow's"
				    : r->read ? "it came later, as the CPU halted again or ran again"
					      : "none came");
	else if (r->read != r->worked)
		test_fail("deviation: PMI-5: %s on CPU %u wrapped once after the CPU ran again and raised its PMI: the CPU then halted and ran again, and had taken %u PMI(s) by then, %u more with nothing overflowing again",
			  w->c->name, own, r->read, r->read - r->worked);
	if (!expect_past_wrap(own, w, r->worked_value, SWITCH_IN_AT,
			      SWITCH_IN_INSTRUCTIONS, LEFT_RING_WAY, what))
		return;
	if (r->value != r->worked_value)
		test_fail("deviation: SMP-7: %s on CPU %u read %llu after the work that wrapped it and %llu when the CPU had halted and ran again, nothing at CPL %u between: it %s while its CPU halted",
			  w->c->name, own, (unsigned long long)r->worked_value,
			  (unsigned long long)r->value, LEFT_CPL,
			  r->value > r->worked_value ? "counted" : "lost counts");
	expect_status(own, w);
}

static void run_out(unsigned own, struct left_counter *w)
{
	uint64_t top = width_mask(w->c->width);

	w->workload = PROG_CPUID_LOOP;
	for (unsigned j = 0; j < SWITCH_OUT_ROUNDS; j++) {
		uint64_t at = SWITCH_OUT_AT + j;
		struct round r = { 0 };

		w->iterations = SWITCH_OUT_LOOP;
		w->preset = top - at + 1;
		if (!round_on(own, w, false, &r))
			return;
		judge_out(own, w, &r, at);
		pmis_elsewhere(own, w->c, "in the CPUID loop");
		if (test_has_failed())
			return;
		test_note("round %u: %s wrapped on the %lluth instruction at CPL 3 and read %llu past it; 1 PMI by the loop's window, none more after the halt",
			  j, w->c->name, (unsigned long long)at,
			  (unsigned long long)r.value);
	}
}

static void run_in(unsigned own, struct left_counter *w)
{
	struct round r = { 0 };

	w->workload = PROG_KNOWN_LOOP;
	w->iterations = 0;	/* armed, and halted at once */
	w->preset = width_mask(w->c->width) - SWITCH_IN_AT + 1;
	if (!round_on(own, w, true, &r))
		return;
	judge_in(own, w, &r);
	pmis_elsewhere(own, w->c, "after its CPU ran again");
	if (!test_has_failed())
		test_note("%s wrapped on the %lluth instruction at CPL 3 after CPU %u ran again and read %llu past it; 1 PMI by the loop's window, none more after the next halt",
			  w->c->name, SWITCH_IN_AT, own,
			  (unsigned long long)r.worked_value);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct left_counter w = { .c = &c };
	unsigned own = first_ap();

	strbuf_init(&why, text, sizeof(text));
	if (own == 0) {
		test_skip("no application processor beside CPU 0 (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
		return;
	}
	if (!pmi_arm(&why)) {	/* CPU 0's entry unmasked too (SMP-4) */
		test_skip("%s", text);
		return;
	}
	if (!prog_take_counter(&c, false)) {
		exec_lvt_pc_write(LVT_MASKED);
		return;
	}
	w.control = prog_enables(&c, FILTER_USR) | c.enable_int;
	w.lvt = LVT_VECTOR(PMI_VECTOR);
	w.lvt_again = true;	/* a second PMI is seen on Intel too */
	if (i == CASE_OUT)
		run_out(own, &w);
	else
		run_in(own, &w);
	pmi_disarm(&c);
}

static const struct suite smp_switch = { 0, CASES, describe, run };
REGISTER_SUITE(smp_switch);
