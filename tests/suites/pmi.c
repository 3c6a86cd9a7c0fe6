/*
 * pmi.*: an overflow with the counter's interrupt enable set raises one PMI
 * through the local APIC's LVT performance-counter entry (PMI-1); none
 * without it, none while the entry is masked (PMI-2); an Intel local APIC
 * masks the entry as it delivers (PMI-3).
 */
#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "msr_access.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define PMI_VECTOR	0xE0	/* any vector of 32-255: fixed delivery */

enum pmi_case { INT_UNMASKED, INT_CLEAR, LVT_MASKED_CASE };

static const struct {
	const char *id;
	bool fixed;
	enum pmi_case what;
	const char *statements;
	const char *description;
} cases[] = {
	{ "pmi.gp.int", false, INT_UNMASKED, "PMI-1 PMI-3 OVF-1",
	  "a general-purpose overflow with INT set raises one PMI; Intel masks the LVT entry" },
	{ "pmi.gp.noint", false, INT_CLEAR, "PMI-1 OVF-1",
	  "a general-purpose overflow with INT clear raises no PMI" },
	{ "pmi.gp.masked", false, LVT_MASKED_CASE, "PMI-2 OVF-1",
	  "a general-purpose overflow with INT set raises no PMI while the LVT entry is masked" },
	{ "pmi.fixed.int", true, INT_UNMASKED, "PMI-1 PMI-3 OVF-1 WR-1",
	  "a fixed-counter overflow with its PMI bit set raises one PMI; Intel masks the LVT entry" },
	{ "pmi.fixed.noint", true, INT_CLEAR, "PMI-1 OVF-1 WR-1",
	  "a fixed-counter overflow with its PMI bit clear raises no PMI" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

static void expect_pmis(const struct prog_counter *c, unsigned want,
			uint32_t lvt, bool int_set, const char *statement)
{
	unsigned taken = interrupt_log_count(PMI_VECTOR);
	unsigned total = interrupt_log_total();

	if (taken != want || total != want)
		test_fail("%s: %s overflowed with LVT = 0x%08x and the interrupt enable %s: expected %u PMI at vector 0x%x, observed %u (%u interrupts in all)",
			  statement, c->name, lvt, int_set ? "set" : "clear", want,
			  PMI_VECTOR, taken, total);
	else
		test_note("%s: %u PMI at vector 0x%x, as expected", c->name,
			  taken, PMI_VECTOR);
}

/* PMI-3: Intel sets the mask bit as the PMI is delivered; on AMD the APM
 * says nothing of it, so the entry is not checked there. */
static void expect_masked_after(uint32_t lvt)
{
	uint32_t after = exec_lvt_pc_read();

	if (check_pmu()->vendor != VENDOR_INTEL)
		return;
	if (!(after & LVT_MASKED))
		test_fail("PMI-3: the LVT performance-counter entry reads 0x%08x after the PMI (0x%08x before): the mask bit (16) is clear",
			  after, lvt);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;
	uint32_t lvt = LVT_VECTOR(PMI_VECTOR);

	strbuf_init(&why, text, sizeof(text));
	if (!exec_lvt_pc_available(&why)) {
		test_skip("%s", text);
		return;
	}
	if (!prog_take_counter(&c, cases[i].fixed))
		return;
	if (cases[i].what == LVT_MASKED_CASE)
		lvt |= LVT_MASKED;
	exec_lvt_pc_write(lvt);
	interrupt_log_clear();
	if (!prog_overflow(&c, cases[i].what == INT_CLEAR ? 0 : c.enable_int,
			   &count, &why))
		test_fail("%s", text);
	else if (cases[i].what == INT_UNMASKED) {
		expect_pmis(&c, 1, lvt, true, "PMI-1");
		expect_masked_after(lvt);
	} else {
		expect_pmis(&c, 0, lvt, cases[i].what != INT_CLEAR,
			    cases[i].what == INT_CLEAR ? "PMI-1" : "PMI-2");
	}
	exec_lvt_pc_write(LVT_MASKED);
	interrupt_log_clear();	/* the PMIs were this test's own */
	if (c.status_msr)	/* leave no overflow behind (OVF-2) */
		msr_write(c.status_clear_msr, c.status_bit, &why);
}

static const struct suite pmi = { 0, CASES, describe, run };
REGISTER_SUITE(pmi);
