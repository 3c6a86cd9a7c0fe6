#include "rdpmc_check.h"

#include <stdarg.h>

#include "harness.h"
#include "platform.h"
#include "vectors.h"

#define VECTOR_UD 6
#define VECTOR_GP 13

const struct pmu_info *check_pmu(void)
{
	static struct pmu_info pmu;
	static bool decoded;

	if (!decoded) {
		pmu_decode(platform_enumeration(), &pmu);
		decoded = true;
	}
	return &pmu;
}

static uint64_t register_mask(const struct exec_state *s)
{
	return s->mode == MODE_LONG ? ~0ull : 0xFFFFFFFFull;
}

/* "#UD (vector 6) at the RDPMC", "#GP(0x1) (vector 13) at RIP 0x1004f4":
 * the saved RIP only where it is not the RDPMC's (PRIV-6). The RDPMC's own
 * address is part of the context, so that the same outcome reads the same
 * in every test. */
static void format_fault(const struct exec_outcome *o, struct strbuf *sb)
{
	if (o->error_code == EXEC_NO_ERROR_CODE)
		strbuf_printf(sb, "%s (vector %u)", vector_name(o->vector),
			      o->vector);
	else
		strbuf_printf(sb, "%s(0x%x) (vector %u)", vector_name(o->vector),
			      o->error_code, o->vector);
	if (o->fault_rip == o->insn_rip)
		strbuf_puts(sb, " at the RDPMC");
	else
		strbuf_printf(sb, " at RIP 0x%llx", (unsigned long long)o->fault_rip);
}

void format_outcome(const struct exec_outcome *o, struct strbuf *sb)
{
	if (!o->faulted)
		strbuf_printf(sb, "read, ");
	else {
		format_fault(o, sb);
		strbuf_puts(sb, ", ");
	}
	strbuf_printf(sb, "RAX=0x%016llx RDX=0x%016llx RCX=0x%016llx",
		      (unsigned long long)o->rax, (unsigned long long)o->rdx,
		      (unsigned long long)o->rcx);
}

/* Says how an outcome deviates, when the caller wants to know: a sweep
 * asks only for the ones it reports, since formatting costs more than an
 * RDPMC exit. */
static void deviates(struct strbuf *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void deviates(struct strbuf *dev, const char *fmt, ...)
{
	va_list ap;

	if (!dev)
		return;
	va_start(ap, fmt);
	strbuf_vprintf(dev, fmt, ap);
	va_end(ap);
}

bool registers_kept(const struct rdpmc_case *c, const struct exec_outcome *o)
{
	uint64_t m = register_mask(&c->state);

	return o->rax == (c->rax & m) && o->rdx == (c->rdx & m) &&
	       o->rcx == (c->rcx & m);
}

/* PRIV-6: a fault changes nothing: RIP at the RDPMC, registers kept. */
static bool fault_conforms(const struct rdpmc_case *c,
			   const struct exec_outcome *o, const char *required,
			   struct strbuf *dev)
{
	uint64_t m = register_mask(&c->state);

	if (o->vector != VECTOR_GP) {
		deviates(dev, "%s (vector %u) where %s is required%s",
			      vector_name(o->vector), o->vector, required,
			      o->vector == VECTOR_UD
				      ? ": the target does not implement RDPMC here"
				      : "");
		return false;
	}
	if (o->error_code != 0) {
		deviates(dev, "#GP error code 0x%x; PRIV-1 requires exactly 0",
			      o->error_code);
		return false;
	}
	if (o->fault_rip != o->insn_rip) {
		deviates(dev, "saved RIP 0x%llx is not the RDPMC at 0x%llx (PRIV-6)",
			      (unsigned long long)o->fault_rip,
			      (unsigned long long)o->insn_rip);
		return false;
	}
	if (!registers_kept(c, o)) {
		deviates(dev, "the faulting RDPMC changed RAX/RDX/RCX (in: RAX=0x%llx RDX=0x%llx RCX=0x%llx) (PRIV-6)",
			      (unsigned long long)(c->rax & m),
			      (unsigned long long)(c->rdx & m),
			      (unsigned long long)(c->rcx & m));
		return false;
	}
	return true;
}

/* A read: ENC-1 (RCX is input only), MODE-1, ARCH-7 / NARCH-3 / AMD-3
 * (nothing at or above the width), NARCH-2 (fast: EDX = 0). */
static bool read_conforms(const struct rdpmc_case *c,
			  const struct rdpmc_expect *e,
			  const struct exec_outcome *o, struct strbuf *dev)
{
	uint64_t value = edx_eax(o);

	if (o->rcx != (c->rcx & register_mask(&c->state))) {
		deviates(dev, "RDPMC changed RCX to 0x%llx (ENC-1: ECX is an input)",
			      (unsigned long long)o->rcx);
		return false;
	}
	if (c->state.mode == MODE_LONG && (o->rax >> 32 || o->rdx >> 32)) {
		deviates(dev, "RAX[63:32] = 0x%llx, RDX[63:32] = 0x%llx: MODE-1 requires both cleared",
			      (unsigned long long)(o->rax >> 32),
			      (unsigned long long)(o->rdx >> 32));
		return false;
	}
	if (e && e->fast && (o->rdx & 0xFFFFFFFF)) {
		deviates(dev, "EDX = 0x%llx on a fast read; NARCH-2 requires 0",
			      (unsigned long long)(o->rdx & 0xFFFFFFFF));
		return false;
	}
	if (e && e->width && e->width < 64 && value >> e->width) {
		deviates(dev, "counter value 0x%llx has bits at or above its width %u set (%s)",
			      (unsigned long long)value, e->width,
			      e->statements);
		return false;
	}
	return true;
}

bool rdpmc_conforms(const struct rdpmc_case *c, const struct rdpmc_expect *e,
		    const struct exec_outcome *o, struct strbuf *dev)
{
	test_judged(e->statements);	/* the verdict rests on them */
	switch (e->verdict) {
	case VERDICT_GP:
		if (!o->faulted) {
			deviates(dev, "a read where #GP(0) is required (%s)",
				      e->statements);
			return false;
		}
		return fault_conforms(c, o, "#GP(0)", dev);
	case VERDICT_READ:
		if (o->faulted && !e->gp_also_conforms) {
			if (o->vector == VECTOR_GP)
				deviates(dev, "#GP where a read is required (%s)",
					      e->statements);
			else
				fault_conforms(c, o, "a read", dev);
			return false;
		}
		return o->faulted ? fault_conforms(c, o, "a read or #GP(0)", dev)
				  : read_conforms(c, e, o, dev);
	case VERDICT_UNKNOWN:	/* model-specific: a read or #GP(0) */
		return o->faulted ? fault_conforms(c, o, "a read or #GP(0)", dev)
				  : read_conforms(c, 0, o, dev);
	}
	return false;
}

static void report_lines(const char *prefix, const char *text)
{
	const char *line = text;

	while (*line) {
		const char *end = line;

		while (*end && *end != '\n')
			end++;
		test_fail("%s%.*s", prefix, (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

/* The observed outcome as a report gives it: a fault that kept RAX, RDX and
 * RCX (PRIV-6) says so instead of repeating the values of the context. */
static void format_seen(const struct rdpmc_case *c,
			const struct exec_outcome *o, struct strbuf *sb)
{
	if (!o->faulted || !registers_kept(c, o)) {
		format_outcome(o, sb);
		return;
	}
	format_fault(o, sb);
	strbuf_puts(sb, ", RAX RDX RCX kept");
}

/*
 * The first mismatch of a test is reported in full: context, expectation,
 * observation, deviation, each a line. The model's reasoning is long and
 * the model on the host gives it too (pmctest-model --explain): only with
 * `verbose`. A later mismatch of the same test takes one line.
 */
void report_rdpmc_mismatch(const struct rdpmc_case *c,
			   const struct exec_outcome *o, const char *deviation)
{
	char why_text[1024], answer_text[96], seen_text[200];
	struct strbuf why, answer, seen;
	struct rdpmc_expect e;
	bool in_full = !test_has_failed(), verbose = test_verbose();

	strbuf_init(&why, why_text, sizeof(why_text));
	strbuf_init(&answer, answer_text, sizeof(answer_text));
	strbuf_init(&seen, seen_text, sizeof(seen_text));
	model_rdpmc(check_pmu(), &c->state, c->rcx, &e,
		    in_full && verbose ? &why : 0);
	expect_format(&e, &answer);
	format_seen(c, o, &seen);

	if (!in_full) {
		test_fail("RCX=0x%llx, %s mode, CPL %u, CR4.PCE %u: expected %s [%s], observed %s; %s",
			  (unsigned long long)c->rcx,
			  cpu_mode_name(c->state.mode), c->state.cpl,
			  c->state.pce ? 1 : 0, answer_text, e.statements,
			  seen_text, deviation);
		return;
	}
	test_fail("context: %s mode, CPL %u, CR4.PCE %u, RCX=0x%016llx (in: RAX=0x%016llx RDX=0x%016llx), the RDPMC at 0x%llx",
		  cpu_mode_name(c->state.mode), c->state.cpl,
		  c->state.pce ? 1 : 0, (unsigned long long)c->rcx,
		  (unsigned long long)c->rax, (unsigned long long)c->rdx,
		  (unsigned long long)o->insn_rip);
	if (o->faulted && o->error_code == EXEC_NO_ERROR_CODE)
		test_brief("%s at RCX=0x%llx", vector_name(o->vector),
			   (unsigned long long)c->rcx);
	else if (o->faulted)
		test_brief("%s(%u) at RCX=0x%llx", vector_name(o->vector),
			   o->error_code, (unsigned long long)c->rcx);
	else
		test_brief("a read at RCX=0x%llx", (unsigned long long)c->rcx);
	test_fail("expected: %s [%s]", answer_text, e.statements);
	if (verbose)
		report_lines("  ", why_text);
	test_fail("observed: %s", seen_text);
	test_fail("deviation: %s", deviation);
}

bool run_rdpmc_case(const struct rdpmc_case *c, struct exec_outcome *o,
		    struct strbuf *deviation)
{
	struct rdpmc_expect e;

	model_rdpmc(check_pmu(), &c->state, c->rcx, &e, 0);
	exec_rdpmc(&c->state, c->rax, c->rcx, c->rdx, o);
	return rdpmc_conforms(c, &e, o, deviation);
}

bool check_rdpmc(const struct rdpmc_case *c)
{
	char text[256];
	struct strbuf deviation;
	struct exec_outcome o;

	strbuf_init(&deviation, text, sizeof(text));
	if (run_rdpmc_case(c, &o, &deviation))
		return true;
	report_rdpmc_mismatch(c, &o, text);
	return false;
}
