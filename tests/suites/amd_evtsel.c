/*
 * amd.evtsel.*: the parts of AMD's PerfEvtSeln that Intel's select lacks.
 * EventSelect[11:8] (bits 35:32) is part of the event: event FC0H does not
 * count the known loop as retired instructions (C0H) does (AMD-5). With
 * EFER.SVME = 0, which pmctest never sets, a counter with Host-only or
 * Guest-only set counts nothing (AMD-6).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

/* EventSelect[11:8] = FH over retired instructions (C0H). */
#define EVENT_FC0	AMD_EVTSEL_EVENT_HIGH(0xF00)

enum { CASE_EVENT_HIGH, CASE_HOST_GUEST, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_EVENT_HIGH ? "amd.evtsel.eventhigh"
						 : "amd.evtsel.hostguest");
	strbuf_puts(&t->statements, i == CASE_EVENT_HIGH ? "AMD-5 AMD-4 PROG-4"
							 : "AMD-6 AMD-4 PROG-4");
	strbuf_puts(&t->description, i == CASE_EVENT_HIGH
		    ? "EventSelect[11:8] = FH over C0H selects another event than retired instructions"
		    : "with EFER.SVME = 0 a Host-only or Guest-only counter counts nothing");
}

/* The two runs of the known loop with `fields` added; false: failed. */
static bool measure(struct prog_counter *c, uint64_t fields, struct prog_delta *d)
{
	struct prog_run r = { prog_enables(c, FILTER_OS | FILTER_USR) | fields,
			      0, false, 0, 0, PROG_KNOWN_LOOP };

	return prog_measure_run_or_fail(c, &r, d);
}

static void check_event_high(struct prog_counter *c)
{
	uint64_t expected = KNOWN_LOOP_INSTRUCTIONS * PROG_LOOP_DELTA;
	uint64_t tolerance = prog_tolerance(expected);
	struct prog_delta plain, high;
	int64_t off;

	if (!measure(c, 0, &plain) || !measure(c, EVENT_FC0, &high))
		return;
	prog_expect_count(c, "retired instructions (C0H)", &plain,
			  KNOWN_LOOP_INSTRUCTIONS);
	off = (int64_t)(high.long_count - high.short_count - expected);
	if (off <= (int64_t)tolerance && off >= -(int64_t)tolerance)
		test_fail("AMD-5: %s with EventSelect FC0H counted %llu over %llu iterations, exactly as retired instructions (C0H): EventSelect[11:8] was not part of the event",
			  c->name,
			  (unsigned long long)(high.long_count - high.short_count),
			  PROG_LOOP_DELTA);
}

static void check_host_guest(struct prog_counter *c)
{
	static const struct {
		uint64_t bits;
		const char *name;
	} kinds[] = {
		{ AMD_EVTSEL_HOST_ONLY, "Host-only" },
		{ AMD_EVTSEL_GUEST_ONLY, "Guest-only" },
		{ AMD_EVTSEL_HOST_ONLY | AMD_EVTSEL_GUEST_ONLY, "Host-only and Guest-only" },
	};
	char text[120];
	struct strbuf why;
	struct prog_delta d;
	uint64_t efer;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_read(MSR_EFER, &efer, &why)) {
		test_fail("%s", text);
		return;
	}
	if (efer & EFER_SVME) {
		test_skip("EFER.SVME = 1 (EFER = 0x%llx): which events are the host's is for a hypervisor to see",
			  (unsigned long long)efer);
		return;
	}
	if (!measure(c, 0, &d))
		return;
	prog_expect_count(c, "neither bit", &d, KNOWN_LOOP_INSTRUCTIONS);
	for (unsigned k = 0; k < 3; k++)
		if (measure(c, kinds[k].bits, &d))
			prog_expect_count(c, kinds[k].name, &d, 0);
}

static void run(unsigned i)
{
	struct prog_counter c;

	if (check_pmu()->vendor != VENDOR_AMD) {
		test_skip("AMD's PerfEvtSeln only");
		return;
	}
	if (!prog_take_counter(&c, false))
		return;
	if (i == CASE_EVENT_HIGH)
		check_event_high(&c);
	else
		check_host_guest(&c);
}

static const struct suite amd_evtsel = { 0, CASES, describe, run };
REGISTER_SUITE(amd_evtsel);
