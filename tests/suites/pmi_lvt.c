/*
 * pmi.lvt.*: the LVT performance-counter entry as the overflow finds it
 * decides the PMI, whatever it held when the counter was armed (PMI-1,
 * PMI-2). A counter armed with INT while the entry is masked (at another
 * vector), the entry then unmasked with no PMU MSR write in between, must
 * deliver one PMI at the vector the entry now names; one armed while the
 * entry is unmasked, the entry then masked, none. A vPMU that decides at
 * WRMSR time, from the entry it sees then, whether the overflow
 * interrupts gets both wrong. Every pmi.* test before these writes the
 * entry first, so none of them can tell.
 */
#include "exec.h"
#include "harness.h"
#include "interrupt_log.h"
#include "pmi_arm.h"
#include "prog_measure.h"

/* The vector the masked entry names while the counter is armed: a vPMU
 * that keeps the entry it saw then would deliver there. */
#define STALE_VECTOR	(PMI_VECTOR + 1)

static const struct {
	const char *id;
	uint32_t at_arming, after_arming;	/* the LVT entry */
	unsigned want;				/* PMIs at PMI_VECTOR */
	const char *description;
} cases[] = {
	{ "pmi.lvt.unmasked-after-arming",
	  LVT_MASKED | LVT_VECTOR(STALE_VECTOR), LVT_VECTOR(PMI_VECTOR), 1,
	  "a counter armed with INT while the LVT entry is masked, the entry unmasked before the overflow: one PMI, at the vector it now names" },
	{ "pmi.lvt.masked-after-arming",
	  LVT_VECTOR(PMI_VECTOR), LVT_MASKED | LVT_VECTOR(PMI_VECTOR), 0,
	  "a counter armed with INT while the LVT entry is unmasked, the entry masked before the overflow: no PMI" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "PMI-1 PMI-2 OVF-1");
	strbuf_puts(&t->description, cases[i].description);
}

/* What the running case writes to the entry once the counter is armed. */
static uint32_t entry_after_arming;

static void rewrite_entry(void)
{
	exec_lvt_pc_write(entry_after_arming);
}

static void expect_pmis(unsigned i, const struct prog_counter *c)
{
	unsigned taken = pmi_taken(), total = pmi_interrupts();

	if (taken == cases[i].want && total == cases[i].want) {
		test_note("%s: %u PMI at vector 0x%x, as expected", c->name,
			  taken, PMI_VECTOR);
		return;
	}
	test_fail("deviation: %s: %s armed with INT while the LVT entry was 0x%08x, the entry then written 0x%08x with no PMU MSR write, then the overflow: expected %u PMI at vector 0x%x, observed %u (%u interrupts in all, %u at vector 0x%x)",
		  cases[i].want ? "PMI-1" : "PMI-2", c->name,
		  cases[i].at_arming, cases[i].after_arming, cases[i].want,
		  PMI_VECTOR, taken, total, interrupt_log_count(STALE_VECTOR),
		  STALE_VECTOR);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t count;

	strbuf_init(&why, text, sizeof(text));
	if (!pmi_take_counter(&c, false, cases[i].at_arming))
		return;
	entry_after_arming = cases[i].after_arming;
	if (!prog_overflow_armed(&c, c.enable_int, rewrite_entry, &count, &why))
		test_fail("%s", text);
	else
		expect_pmis(i, &c);
	pmi_disarm(&c);
}

static const struct suite pmi_lvt = { SUITE_PER_CPU, CASES, describe, run };
REGISTER_SUITE(pmi_lvt);
