/*
 * pmi.*: an overflow with the counter's interrupt enable set raises one PMI
 * through the local APIC's LVT performance-counter entry (PMI-1); none
 * without it, none while the entry is masked (PMI-2); an Intel local APIC
 * masks the entry as it delivers (PMI-3), an AMD one does not, so a second
 * overflow raises a second PMI there (PMI-4); the PMI finds the counter's
 * overflow bit already set, and no second PMI follows (PMI-5).
 */
#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "msr_access.h"
#include "pmi_arm.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

enum pmi_case { INT_UNMASKED, INT_CLEAR, LVT_MASKED_CASE, REPEAT, STATUS };

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
	{ "pmi.repeat", false, REPEAT, "PMI-3 PMI-4 PMI-1 OVF-1",
	  "a second overflow while the handler leaves the LVT entry alone: a second PMI on AMD, none on Intel" },
	{ "pmi.status", false, STATUS, "PMI-5 PMI-1 OVF-1",
	  "one overflow raises exactly one PMI, and the PMI finds the counter's overflow bit set" },
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

/* PMI-3, PMI-4: two overflows, each with its interrupt window; the LVT
 * entry left as the first delivery left it. */
static void expect_repeat(struct prog_counter *c, uint32_t lvt)
{
	bool amd = check_pmu()->vendor == VENDOR_AMD;
	unsigned want = amd ? 2 : 1;
	char text[160];
	struct strbuf why;
	uint64_t count;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_overflow(c, c->enable_int, &count, &why)) {
		test_fail("%s", text);
		return;
	}
	if (interrupt_log_count(PMI_VECTOR) != want ||
	    interrupt_log_total() != want)
		test_fail("%s: %s overflowed twice with INT set, the LVT entry left alone after the first PMI (0x%08x before, 0x%08x now): expected %u PMI at vector 0x%x, observed %u (%u interrupts in all)",
			  amd ? "PMI-4" : "PMI-3", c->name, lvt,
			  exec_lvt_pc_read(), want, PMI_VECTOR,
			  interrupt_log_count(PMI_VECTOR), interrupt_log_total());
	else
		test_note("%s: %u PMI for two overflows (%s)", c->name, want,
			  amd ? "AMD: the entry is not masked on delivery"
			      : "Intel: the first delivery masked the entry");
}

/* PMI-5: the status MSR the probe reads in the handler. */
static uint32_t probed_status_msr;

static uint64_t read_status(void)
{
	struct exec_outcome o;

	exec_rdmsr(probed_status_msr, &o);
	return o.faulted ? 0 : edx_eax(&o);
}

static void expect_status_at_pmi(const struct prog_counter *c)
{
	uint64_t seen[INTERRUPT_LOG_SAMPLES];
	unsigned n = interrupt_log_samples(seen, INTERRUPT_LOG_SAMPLES);

	expect_pmis(c, 1, exec_lvt_pc_read(), true, "PMI-5");
	if (!c->status_msr) {
		test_note("no global status to read in the handler: Intel version 1 or AMD without PerfMonV2");
		return;
	}
	if (n >= 1 && !(seen[0] & c->status_bit))
		test_fail("PMI-5: the PMI found %XH = 0x%llx: the overflow bit 0x%llx of %s is not set when the PMI arrives",
			  c->status_msr, (unsigned long long)seen[0],
			  (unsigned long long)c->status_bit, c->name);
	else if (n >= 1)
		test_note("the PMI found %XH = 0x%llx", c->status_msr,
			  (unsigned long long)seen[0]);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;
	uint32_t lvt = LVT_VECTOR(PMI_VECTOR);

	strbuf_init(&why, text, sizeof(text));
	if (cases[i].what == LVT_MASKED_CASE)
		lvt |= LVT_MASKED;
	if (!pmi_take_counter(&c, cases[i].fixed, lvt))
		return;
	if (cases[i].what == STATUS && c.status_msr) {
		probed_status_msr = c.status_msr;
		interrupt_log_set_probe(read_status);
	}
	if (!prog_overflow(&c, cases[i].what == INT_CLEAR ? 0 : c.enable_int,
			   &count, &why))
		test_fail("%s", text);
	else if (cases[i].what == REPEAT)
		expect_repeat(&c, lvt);
	else if (cases[i].what == STATUS)
		expect_status_at_pmi(&c);
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
