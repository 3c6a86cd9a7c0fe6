/*
 * selftest.cpus.*: kernel/cpus.h on the machine proving itself, on a run
 * with APs (SKIP with one CPU). Each AP runs a function and comes back,
 * on its own stack, knowing its index and APIC ID; an AP's exception
 * outside a contained run and an AP that never returns are reported to
 * the waiter, with the vector and RIP or the timeout, and leave that AP
 * lost, never given work again; the other APs still run; what a lost AP
 * logged reaches the log in whole lines. The fault, the hang and the cut
 * each lose an AP: only an explicit tests=selftest.* runs them.
 * selftest.cpus.overflow, which loses one more, runs only when tests=
 * names it exactly.
 */
#include "boot_msrs.h"
#include "console.h"
#include "cpus.h"
#include "harness.h"
#include "platform.h"

enum {
	CASE_ROUNDTRIP,
	CASE_FAULT,
	CASE_HANG,
	CASE_AFTER,
	CASE_CUT,
	CASES,
};

static const char *const ids[CASES] = {
	[CASE_ROUNDTRIP] = "selftest.cpus.roundtrip",
	[CASE_FAULT] = "selftest.cpus.fault",
	[CASE_HANG] = "selftest.cpus.hang",
	[CASE_AFTER] = "selftest.cpus.after",
	[CASE_CUT] = "selftest.cpus.cut",
};

static const char *const descriptions[CASES] = {
	[CASE_ROUNDTRIP] = "each AP recorded its PMU MSRs as it started, runs a function and returns, knowing its CPU index and APIC ID",
	[CASE_FAULT] = "an AP's #UD outside a contained run is reported to the waiter, the AP lost",
	[CASE_HANG] = "an AP that does not return is reported after the timeout, the AP lost",
	[CASE_AFTER] = "after that the lost APs take no work and the others still run",
	[CASE_CUT] = "an AP lost partway through a log line: its whole lines reach the log, no byte of the cut one",
};

#define WAIT_MS		2000
#define HANG_WAIT_MS	200

struct where {
	volatile unsigned cpu;
	volatile uint32_t apic_id;
	volatile uint64_t stack;
};

static void report_where(void *arg)
{
	struct where *w = arg;

	w->cpu = platform_this_cpu();
	w->apic_id = platform_cpu_apic_id(w->cpu);
	w->stack = (uint64_t)(uintptr_t)__builtin_frame_address(0);
}

static void undefined_instruction(void *unused)
{
	(void)unused;
	__asm__ volatile("ud2");
}

/* Push until the AP's own kernel stack runs into its guard page: the #PF
 * cannot be delivered on it, the #DF goes to the AP's own IST1 stack. */
static void overflow_stack(void *unused)
{
	(void)unused;
	__asm__ volatile("1: pushq $0; jmp 1b" : : : "memory");
}

static void spin(void *unused)
{
	(void)unused;
	for (;;)
		__asm__ volatile("cli; pause");
}

#define WHOLE_LINE	"# selftest.cpus.cut: a whole line from an AP\n"

/* A line, and most of the next, then a hang. */
static void log_and_hang(void *unused)
{
	(void)unused;
	console_printf(WHOLE_LINE);
	console_printf("# selftest.cpus.cut: a line that never ends");
	spin(0);
}

static bool contains(const char *text, const char *part)
{
	for (; *text; text++) {
		size_t n = 0;

		while (part[n] && text[n] == part[n])
			n++;
		if (!part[n])
			return true;
	}
	return false;
}

/* Runs report_where on cpu; false (with the failure said) if it did not
 * come back as that CPU. With lost_ok, a CPU that refuses the work as lost
 * counts in *lost instead. */
static bool roundtrip(unsigned cpu, bool lost_ok, unsigned *lost)
{
	struct where w = { ~0u, 0, 0 };
	char text[200];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!platform_start_on_cpu(cpu, report_where, &w, &why)) {
		if (lost_ok && contains(text, "is lost")) {
			(*lost)++;
			return true;
		}
		test_fail("CPU %u: %s", cpu, text);
		return false;
	}
	if (!platform_wait_cpu(cpu, WAIT_MS, &why)) {
		test_fail("CPU %u: %s", cpu, text);
		return false;
	}
	if (!lost_ok && !boot_msrs_at_init(cpu)) {
		test_fail("CPU %u: no reading of its PMU MSRs as it started", cpu);
		return false;
	}
	if (w.cpu != cpu || w.apic_id != platform_cpu_apic_id(cpu)) {
		test_fail("CPU %u: expected index %u, APIC ID 0x%x; observed index %u, APIC ID 0x%x",
			  cpu, cpu, platform_cpu_apic_id(cpu), w.cpu, w.apic_id);
		return false;
	}
	test_note("CPU %u: APIC ID 0x%x, stack at 0x%llx", cpu, w.apic_id,
		  (unsigned long long)w.stack);
	return true;
}

/* Runs fn on the last AP not lost yet (the fault takes CPU n - 1, the
 * hang n - 2, or whatever is left); the wait must fail saying `expected`,
 * and the AP must then refuse work. false if no AP was left to lose. */
static bool lose_one(void (*fn)(void *), unsigned timeout_ms,
		     const char *expected)
{
	char text[320], text2[320];
	struct strbuf why, why2;

	for (unsigned cpu = platform_cpu_count() - 1; cpu > 0; cpu--) {
		strbuf_init(&why, text, sizeof(text));
		if (!platform_start_on_cpu(cpu, fn, 0, &why))
			continue;	/* lost by an earlier case */
		if (platform_wait_cpu(cpu, timeout_ms, &why)) {
			test_fail("CPU %u: expected the wait to fail with \"%s\", observed a return",
				  cpu, expected);
			return true;
		}
		if (!contains(text, expected))
			test_fail("CPU %u: expected \"%s\" in the reason, observed \"%s\"",
				  cpu, expected, text);
		strbuf_init(&why2, text2, sizeof(text2));
		if (platform_start_on_cpu(cpu, report_where, 0, &why2))
			test_fail("CPU %u: lost, yet it took work again", cpu);
		test_note("%s", text);
		return true;
	}
	test_skip("no AP left that is not lost");
	return false;
}

/* The bytes the log gained while the last AP not lost logged a line and
 * was lost in the next: the whole line's (SMP-6). */
static void lose_in_a_line(void)
{
	uint64_t before = platform_console_bytes(), grew;
	unsigned long long whole = sizeof(WHOLE_LINE) - 1;

	if (!lose_one(log_and_hang, HANG_WAIT_MS, "did not return within 200 ms"))
		return;
	console_take_over();
	grew = platform_console_bytes() - before;
	if (grew != whole)
		test_fail("the log grew by %llu bytes; expected %llu, the whole line alone",
			  (unsigned long long)grew, whole);
}

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, ids[i]);
	strbuf_puts(&t->statements, "HARNESS");
	strbuf_puts(&t->description, descriptions[i]);
}

static void run(unsigned i)
{
	unsigned lost = 0;

	if (platform_cpu_count() == 1) {
		test_skip("one CPU: no AP started (the header's \"# cpus:\" lines say why)");
		return;
	}
	switch (i) {
	case CASE_ROUNDTRIP:
		for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
			roundtrip(cpu, false, &lost);
		break;
	case CASE_FAULT:
		lose_one(undefined_instruction, WAIT_MS, "unexpected #UD (vector 6)");
		break;
	case CASE_HANG:
		lose_one(spin, HANG_WAIT_MS, "did not return within 200 ms");
		break;
	case CASE_AFTER:
		for (unsigned cpu = 1; cpu < platform_cpu_count(); cpu++)
			roundtrip(cpu, true, &lost);
		test_note("%u APs lost, %u still run", lost,
			  platform_cpu_count() - 1 - lost);
		break;
	case CASE_CUT:
		lose_in_a_line();
		break;
	}
}

static const struct suite selftest_cpus = { SUITE_EXPLICIT, CASES, describe, run };
REGISTER_SUITE(selftest_cpus);

SINGLE_TEST(cpus_overflow, SUITE_EXPLICIT | SUITE_EXACT, "selftest.cpus.overflow",
	    "HARNESS",
	    "an AP's kernel stack that overflows faults on its own guard page, reported to the waiter")
{
	(void)i;
	if (platform_cpu_count() == 1) {
		test_skip("one CPU: no AP started (the header's \"# cpus:\" lines say why)");
		return;
	}
	lose_one(overflow_stack, WAIT_MS,
		 "unexpected #DF (vector 8) error code 0x0");
}
