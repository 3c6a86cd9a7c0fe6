/*
 * amd.ranges.<context>: the AMD counter numbers (AMD-2): ECX 0-3 legacy
 * core, 4-5 with PerfCtrExtCore, 6-9 with PerfCtrExtNB, 10-15 with
 * PerfCtrExtLLC, #GP(0) for every other ECX, among them every value with
 * ECX[31:30] set (no type field, no fast flag); reads at most 48 bits wide
 * (AMD-3). At CPL 3 with CR4.PCE = 0 every one of them must #GP(0) as on
 * Intel (AMD-1, PRIV-5). SKIPs where the vendor is not AuthenticAMD.
 */
#include "check_context.h"
#include "harness.h"
#include "sweep.h"

#define LOW 64			/* ECX 0..63: the ranges and past them */
#define HIGH_FORMS 3		/* ECX[31:30] = 01, 10, 11 ... */
#define HIGH_INDICES 16		/* ... with each counter number */
#define TABLE (LOW + HIGH_FORMS * HIGH_INDICES + 3)

#define CONTEXTS (CHECK_CONTEXTS + 1)	/* and CPL 3 with CR4.PCE = 0 */

static const struct exec_state restricted = { MODE_LONG, 3, false };

static const struct exec_state *context(unsigned i)
{
	return i < CHECK_CONTEXTS ? check_context(i) : &restricted;
}

static void describe(unsigned i, struct test_text *t)
{
	if (i < CHECK_CONTEXTS) {
		strbuf_printf(&t->id, "amd.ranges.%s", check_context_name(i));
		strbuf_puts(&t->statements, "AMD-2 AMD-3");
	} else {
		strbuf_puts(&t->id, "amd.ranges.cpl3.pce0");
		strbuf_puts(&t->statements, "AMD-1 PRIV-1 PRIV-5");
	}
	strbuf_puts(&t->description,
		    "RDPMC of ECX 0-63 and of 0-15 with ECX[31:30] set on AMD");
}

static void run(unsigned i)
{
	const struct exec_state *s = context(i);
	uint32_t table[TABLE];
	unsigned n = 0;
	struct sweep sw = { 0 };

	if (check_pmu()->vendor != VENDOR_AMD) {
		test_skip("the vendor is not AuthenticAMD (AMD-2 does not apply)");
		return;
	}
	if (!check_context_usable(s))
		return;
	for (uint32_t x = 0; x < LOW; x++)
		table[n++] = x;
	for (uint32_t form = 1; form <= HIGH_FORMS; form++)
		for (uint32_t x = 0; x < HIGH_INDICES; x++)
			table[n++] = form << 30 | x;
	table[n++] = 0x0000FFFF;
	table[n++] = 0x3FFFFFFF;
	table[n++] = 0xFFFFFFFF;
	sweep_table(&sw, s, table, n);
	sweep_finish(&sw, "ECX values");
}

static const struct suite amd_ranges = { 0, CONTEXTS, describe, run };
REGISTER_SUITE(amd_ranges);
