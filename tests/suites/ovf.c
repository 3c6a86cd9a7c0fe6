/*
 * ovf.*: a counter that counts past all ones wraps and records the
 * overflow in the global status (OVF-1); the status bit is cleared through
 * the reset MSR (OVF-2), set through the set MSR where there is one
 * (OVF-3), and not by a write to the status itself (OVF-4).
 */
#include "counters.h"
#include "harness.h"
#include "msr_access.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

enum { CASE_GP, CASE_FIXED, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_GP ? "ovf.gp" : "ovf.fixed");
	strbuf_puts(&t->statements, "OVF-1 OVF-2 OVF-3 OVF-4 PROG-5 WR-1");
	strbuf_printf(&t->description, "%s counter wraps past all ones; its status bit is set, reset and set as the MSRs say",
		      i == CASE_GP ? "a general-purpose" : "fixed");
}

/* The counter's status bit now; false (the test failed) if unreadable. */
static bool status_bit(const struct prog_counter *c, bool *set)
{
	char text[100];
	struct strbuf why;
	uint64_t status;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_read(c->status_msr, &status, &why)) {
		test_fail("%s", text);
		return false;
	}
	*set = (status & c->status_bit) != 0;
	return true;
}

/* Writes value to msr, then the status bit must be `want`. */
static bool expect_status_after(const struct prog_counter *c, uint32_t msr,
				uint64_t value, bool want, const char *statement)
{
	char text[100];
	struct strbuf why;
	bool set;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_write(msr, value, &why)) {
		test_fail("%s: %s", statement, text);
		return false;
	}
	if (!status_bit(c, &set))
		return false;
	if (set != want) {
		test_fail("%s: after WRMSR(%XH, 0x%llx) the status bit 0x%llx of %s is %u; expected %u",
			  statement, msr, (unsigned long long)value,
			  (unsigned long long)c->status_bit, c->name, set, want);
		return false;
	}
	return true;
}

/* OVF-4: the status is read-only: a write raises #GP(0) or changes nothing. */
static void expect_status_read_only(const struct prog_counter *c)
{
	char text[100];
	struct strbuf why;
	bool set;

	strbuf_init(&why, text, sizeof(text));
	msr_write(c->status_msr, 0, &why);
	if (status_bit(c, &set) && !set)
		test_fail("OVF-4: WRMSR(%XH, 0) cleared the overflow bit of %s: the status is read-only",
			  c->status_msr, c->name);
}

/* OVF-1: past the wrap the counter holds what it counted beyond the top:
 * at least the loop's own instructions less the margin, and less than
 * twice that (the code around the loop is far shorter than the loop). A
 * counter that stopped at all ones, or was preset without its high bits,
 * reads otherwise. */
static void expect_wrapped(const struct prog_counter *c, uint64_t count)
{
	uint64_t loop = KNOWN_LOOP_INSTRUCTIONS * PROG_SHORT_LOOP;
	uint64_t least = loop - PROG_OVERFLOW_MARGIN;
	uint64_t preset = width_mask(c->width) - PROG_OVERFLOW_MARGIN + 1;

	if (count < least || count >= least + loop)
		test_fail("OVF-1: %s from 0x%llx over %llu iterations reads 0x%llx; expected it to wrap to %llu..%llu",
			  c->name, (unsigned long long)preset, PROG_SHORT_LOOP,
			  (unsigned long long)count, (unsigned long long)least,
			  (unsigned long long)(least + loop - 1));
	else
		test_note("%s wrapped from 0x%llx to %llu", c->name,
			  (unsigned long long)preset, (unsigned long long)count);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;
	bool set;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_take_counter(&c, i == CASE_FIXED))
		return;
	if (c.status_msr &&
	    !expect_status_after(&c, c.status_clear_msr, c.status_bit, false, "OVF-2"))
		return;
	if (!prog_overflow(&c, 0, &count, &why)) {
		test_fail("%s", text);
		return;
	}
	expect_wrapped(&c, count);
	if (!c.status_msr) {
		test_note("no global status to check: Intel version 1 or AMD without PerfMonV2");
		return;
	}
	if (!status_bit(&c, &set))
		return;
	if (!set) {
		test_fail("OVF-1: %s overflowed but bit 0x%llx of the status (%XH) is clear",
			  c.name, (unsigned long long)c.status_bit, c.status_msr);
		return;
	}
	expect_status_read_only(&c);
	if (!expect_status_after(&c, c.status_clear_msr, c.status_bit, false, "OVF-2"))
		return;
	if (c.status_set_msr &&
	    expect_status_after(&c, c.status_set_msr, c.status_bit, true, "OVF-3"))
		expect_status_after(&c, c.status_clear_msr, c.status_bit, false, "OVF-2");
}

static const struct suite ovf = { 0, CASES, describe, run };
REGISTER_SUITE(ovf);
