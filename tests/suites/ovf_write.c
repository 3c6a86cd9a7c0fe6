/*
 * ovf.write.*: after a WRMSR to a running counter the overflow comes when
 * the counter wraps from the written value (OVF-5), through a plain
 * IA32_PMCx write (sign-extended; AMD's PerfCtr as written), IA32_A_PMCx
 * and IA32_FIXED_CTRx. Two runs: one whose write brings the top closer
 * (status bit and one PMI after the next loop), one whose write moves it
 * away from where the first value would have wrapped (neither).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "pmi_arm.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

/* The written value far from the top, and where the second run starts:
 * closer to the top than both loops together count, farther than one. */
#define FAR_VALUE	0x1000ull
#define AWAY_BELOW	(3 * KNOWN_LOOP_INSTRUCTIONS * PROG_SHORT_LOOP / 2)

enum alias { LEGACY, FULL_WIDTH, FIXED };

static const struct {
	const char *id;
	enum alias alias;
	const char *statements;
	const char *description;
} cases[] = {
	{ "ovf.write.gp", LEGACY, "OVF-5 WR-2 OVF-1 PMI-1 PROG-5 AMD-3",
	  "after a plain write to a running GP counter it overflows from the written value" },
	{ "ovf.write.fullwidth", FULL_WIDTH, "OVF-5 WR-2 OVF-1 PMI-1 PROG-5",
	  "after a write through IA32_A_PMC0 to the running counter it overflows from the written value" },
	{ "ovf.write.fixed", FIXED, "OVF-5 WR-2 WR-1 OVF-1 PMI-1",
	  "after a write to the running fixed counter 0 it overflows from the written value" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

/* The counter, written through the alias of case i; false: SKIPped. */
static bool take(unsigned i, struct prog_counter *c)
{
	const struct pmu_info *pmu = check_pmu();

	if (!prog_take_counter(c, cases[i].alias == FIXED))
		return false;
	if (cases[i].alias != FULL_WIDTH)
		return true;
	if (pmu->vendor != VENDOR_INTEL || !pmu->fw_write) {
		test_skip("IA32_A_PMCx needs IA32_PERF_CAPABILITIES.FW_WRITE (bit 13) = 1 (PROG-5)");
		return false;
	}
	c->count_msr = MSR_IA32_A_PMC0;
	return true;
}

/* One run: preset, the short loop, `value` written while counting, the
 * short loop again; then the count, the status bit and the PMIs. */
static bool run_with_write(struct prog_counter *c, uint64_t preset,
			   uint64_t value, uint64_t *count, bool *status,
			   struct strbuf *why)
{
	struct prog_run r = {
		prog_enables(c, FILTER_OS | FILTER_USR) | c->enable_int,
		preset, false, 0, PROG_SHORT_LOOP, PROG_KNOWN_LOOP,
	};

	*status = false;
	if (!pmi_arm(why))
		return false;
	return prog_run_with_write(c, &r, value, PROG_SHORT_LOOP, count, why) &&
	       (!c->status_msr || pmi_status_bit(c, status, why));
}

/* The write brings the top within reach of the second loop. */
static void closer(struct prog_counter *c)
{
	uint64_t value = width_mask(c->width) - PROG_OVERFLOW_MARGIN + 1;
	uint64_t loop = KNOWN_LOOP_INSTRUCTIONS * PROG_SHORT_LOOP;
	uint64_t least = loop - PROG_OVERFLOW_MARGIN, count;
	char text[160];
	struct strbuf why;
	bool status;

	strbuf_init(&why, text, sizeof(text));
	if (!run_with_write(c, 0, value, &count, &status, &why))
		test_fail("%s", text);
	else if (count < least || count >= least + loop)
		test_fail("OVF-5: %s written with 0x%llx while counting, then %llu iterations: reads 0x%llx; expected it to wrap to %llu..%llu",
			  c->name, (unsigned long long)value, PROG_SHORT_LOOP,
			  (unsigned long long)count, (unsigned long long)least,
			  (unsigned long long)(least + loop - 1));
	else if (c->status_msr && !status)
		test_fail("OVF-5: %s wrapped from the value written while it ran (0x%llx to 0x%llx) but its overflow bit 0x%llx in %XH is clear",
			  c->name, (unsigned long long)value,
			  (unsigned long long)count,
			  (unsigned long long)c->status_bit, c->status_msr);
	else if (pmi_taken() != 1 || pmi_interrupts() != 1)
		test_fail("OVF-5: %s wrapped from the value written while it ran, INT set: expected 1 PMI at vector 0x%x, observed %u (%u interrupts in all)",
			  c->name, PMI_VECTOR, pmi_taken(), pmi_interrupts());
	else
		test_note("%s: written 0x%llx while counting, wrapped to %llu with one PMI",
			  c->name, (unsigned long long)value,
			  (unsigned long long)count);
	pmi_disarm(c);
}

/* The write moves the top out of reach: where the preset would have
 * wrapped, nothing may happen. The count from the written value includes
 * the harness's instructions around the loop (prog_write_window), bounded
 * by the same path after the WRMSR that starts the stopped counter
 * (prog_window_bounded). */
static void away(struct prog_counter *c)
{
	uint64_t preset = width_mask(c->width) - AWAY_BELOW + 1, count;
	uint64_t tolerance = prog_tolerance(KNOWN_LOOP_INSTRUCTIONS * PROG_SHORT_LOOP);
	struct prog_run r = {
		prog_enables(c, FILTER_OS | FILTER_USR), 0, false, 0, PROG_SHORT_LOOP,
		PROG_KNOWN_LOOP,
	};
	struct prog_window window;
	uint64_t expected;
	char text[160];
	struct strbuf why;
	bool status;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_write_window(c, &r, &window, &why)) {
		test_fail("%s", text);
		return;
	}
	if (!prog_window_bounded(c, &window))
		return;
	expected = FAR_VALUE + window.running +
		   KNOWN_LOOP_INSTRUCTIONS * (PROG_SHORT_LOOP - 1);
	if (!run_with_write(c, preset, FAR_VALUE, &count, &status, &why))
		test_fail("%s", text);
	else if (status || pmi_taken() != 0)
		test_fail("OVF-5: %s preset 0x%llx, written with 0x%llx while counting, then %llu iterations: %s and %u PMI; nothing wrapped (it reads 0x%llx), expected neither",
			  c->name, (unsigned long long)preset,
			  (unsigned long long)FAR_VALUE, PROG_SHORT_LOOP,
			  status ? "overflow bit set" : "overflow bit clear",
			  pmi_taken(), (unsigned long long)count);
	else if (count < expected - tolerance || count > expected + tolerance)
		test_fail("WR-2: %s written with 0x%llx while counting, then %llu iterations: reads 0x%llx; expected 0x%llx +- %llu (%llu counted after a write of 0 with one iteration)",
			  c->name, (unsigned long long)FAR_VALUE, PROG_SHORT_LOOP,
			  (unsigned long long)count, (unsigned long long)expected,
			  (unsigned long long)tolerance,
			  (unsigned long long)window.running);
	pmi_disarm(c);
}

static void run(unsigned i)
{
	char text[120];
	struct strbuf why;
	struct prog_counter c;

	strbuf_init(&why, text, sizeof(text));
	if (!exec_lvt_pc_available(&why)) {
		test_skip("%s", text);
		return;
	}
	if (!take(i, &c))
		return;
	closer(&c);
	if (!test_has_failed())
		away(&c);
}

static const struct suite ovf_write = { 0, CASES, describe, run };
REGISTER_SUITE(ovf_write);
