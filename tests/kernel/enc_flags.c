/*
 * enc.flags.<context>: ENC-1, RDPMC affects no flags. The arithmetic flags
 * (CF PF AF ZF SF OF) are set to all ones and to all zeros before an RDPMC
 * of the first counter the model says reads (ECX 0 where none does), in a
 * permitted context at CPL 0 and at CPL 3 with CR4.PCE = 1, and in a
 * restricted one (CPL 3, CR4.PCE = 0: the #GP(0) must leave them too,
 * PRIV-6). The outcome itself must be what the model says, so that a
 * target that does not execute RDPMC (#UD) is not taken for one that
 * keeps the flags. Kernel only: it needs its own probe (arch/probe.asm).
 */
#include "cpu.h"
#include "extable.h"
#include "harness.h"
#include "probe.h"
#include "rdpmc_check.h"
#include "ring.h"

static const struct {
	const char *name;
	struct exec_state state;
} contexts[] = {
	{ "cpl0", { MODE_LONG, 0, false } },
	{ "cpl3.pce1", { MODE_LONG, 3, true } },
	{ "cpl3.pce0", { MODE_LONG, 3, false } },
};

#define CONTEXTS (sizeof(contexts) / sizeof(contexts[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "enc.flags.%s", contexts[i].name);
	strbuf_puts(&t->statements, contexts[i].state.pce || !contexts[i].state.cpl
					    ? "ENC-1" : "ENC-1 PRIV-6");
	strbuf_puts(&t->description, "RDPMC, or its #GP(0), leaves CF PF AF ZF SF OF as they were");
}

static void probe_in_ring(void *p)
{
	probe_rdpmc_flags64(p);
}

static uint32_t first_read_ecx(void)
{
	const struct exec_state cpl0 = { MODE_LONG, 0, false };
	struct rdpmc_expect e;

	for (uint32_t ecx = 0; ecx < 16; ecx++) {
		model_rdpmc(check_pmu(), &cpl0, ecx, &e, 0);
		if (e.verdict == VERDICT_READ)
			return ecx;
	}
	return 0;
}

/* One RDPMC with the flags in `pattern`; false when the test failed. */
static bool check_pattern(const struct exec_state *s, uint32_t ecx,
			  uint64_t pattern)
{
	struct flags_probe p = { ecx, pattern, 0, SENTINEL_RAX, SENTINEL_RDX };
	const struct rdpmc_case c = { *s, ecx, SENTINEL_RAX, SENTINEL_RDX };
	uint64_t cr4 = read_cr4();
	struct exec_outcome o;
	struct rdpmc_expect e;
	struct strbuf deviation;
	char text[256];

	write_cr4(s->pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
	captured_fault.happened = false;
	if (s->cpl == 0)
		probe_rdpmc_flags64(&p);
	else
		ring_run64(s->cpl, probe_in_ring, &p);
	write_cr4(cr4);

	o = (struct exec_outcome){
		.faulted = captured_fault.happened,
		.vector = captured_fault.vector,
		.error_code = captured_fault.error_code,
		.fault_rip = captured_fault.rip,
		.insn_rip = (uint64_t)probe_rdpmc_flags64_insn,
		.rax = p.rax, .rcx = p.rcx, .rdx = p.rdx,
	};
	strbuf_init(&deviation, text, sizeof(text));
	model_rdpmc(check_pmu(), s, ecx, &e, 0);
	if (!rdpmc_conforms(&c, &e, &o, &deviation)) {
		report_rdpmc_mismatch(&c, &o, text);
		return false;
	}
	if ((p.rflags_out & RFLAGS_ARITHMETIC) != pattern) {
		test_fail("arithmetic flags 0x%llx before the RDPMC, 0x%llx after (RFLAGS 0x%llx): ENC-1 says no flags are affected",
			  (unsigned long long)pattern,
			  (unsigned long long)(p.rflags_out & RFLAGS_ARITHMETIC),
			  (unsigned long long)p.rflags_out);
		return false;
	}
	return true;
}

static void run(unsigned i)
{
	const struct exec_state *s = &contexts[i].state;
	uint32_t ecx = first_read_ecx();

	if (check_pattern(s, ecx, RFLAGS_ARITHMETIC) && check_pattern(s, ecx, 0))
		test_note("ECX 0x%x: flags kept with all six set and all six clear", ecx);
}

static const struct suite enc_flags = { 0, CONTEXTS, describe, run };
REGISTER_SUITE(enc_flags);
