/*
 * priv.<mode>[.cpl<N>].pce<0|1>.<case>: the #GP(0) rule of RDPMC in every
 * mode it names. Protected and IA-32e mode follow PRIV-1 at every CPL
 * (PRIV-2), a restricted RDPMC faults whatever ECX holds (PRIV-5) and
 * changes nothing (PRIV-6); real-address mode always permits it (PRIV-4);
 * virtual-8086 mode is CPL 3 (PRIV-3). In 64-bit mode RCX[63:32] is ignored
 * and the high halves of RAX and RDX are cleared (MODE-1); in the 16-bit
 * forms the full ECX selects and the full EAX/EDX receive the count
 * (MODE-2). On AMD parts the same rule is AMD-1.
 *
 * The ECX values come from the model, not from knowing the CPU: "valid"
 * is the first ECX the model says reads where RDPMC is permitted in the
 * mode, "invalid" the first it says raises #GP(0) there, "fullecx" one with
 * ECX[31:16] set (a fixed counter, 4000_00xxH, where one exists).
 *
 * In the per-CPU cases (per_cpu() below) each CPU first gives its counters
 * values of its own (tests/lib/known_values.h), and a read must return the
 * value of the counter it reads: one of another counter, or of another
 * vCPU's or the host's, fails (WR-1, PRIV-7, SMP-3). They are left
 * stopped and 0.
 */
#include "harness.h"
#include "known_values.h"
#include "prog_counter.h"
#include "rdpmc_check.h"
#include "sweep.h"

enum priv_case {
	CASE_VALID,	/* a counter that exists */
	CASE_INVALID,	/* an encoding that does not */
	CASE_ANY_ECX,	/* PRIV-5: valid, invalid, fast flag, all ones ... */
	CASE_RCX_HIGH,	/* MODE-1: the valid ECX with RCX[63:32] set */
	CASE_FULL_ECX,	/* MODE-2: ECX[31:16] takes part in the selection */
	CASE_KINDS,
};

static const char *const case_names[CASE_KINDS] = {
	[CASE_VALID] = "valid",
	[CASE_INVALID] = "invalid",
	[CASE_ANY_ECX] = "anyecx",
	[CASE_RCX_HIGH] = "rcxhigh",
	[CASE_FULL_ECX] = "fullecx",
};

static const char *const case_descriptions[CASE_KINDS] = {
	[CASE_VALID] = "RDPMC of a counter the model says exists",
	[CASE_INVALID] = "RDPMC of an encoding the model says does not exist",
	[CASE_ANY_ECX] = "RDPMC with valid, invalid, fast-flag and all-ones ECX",
	[CASE_RCX_HIGH] = "RDPMC with RCX[63:32] set reads as with ECX alone",
	[CASE_FULL_ECX] = "RDPMC with ECX[31:16] set: the full ECX selects",
};

#define KIND(k) (1u << (k))
/* How many kinds a set holds (CASE_KINDS = 5 bits), as a constant. */
#define KINDS_IN(set) (((set) & 1) + ((set) >> 1 & 1) + ((set) >> 2 & 1) + \
		       ((set) >> 3 & 1) + ((set) >> 4 & 1))
#define COMMON_KINDS (KIND(CASE_VALID) | KIND(CASE_INVALID) | KIND(CASE_ANY_ECX))

/* A mode, the CPLs it is checked at, and the cases that mean something
 * there (RCX only exists in 64-bit mode, MODE-2 is about 16-bit forms). */
struct mode_group {
	enum cpu_mode mode;
	unsigned cpl_first, cpl_last;
	unsigned kinds;
};

#define ENTERED_DIRECTLY(GROUP)                                              \
	GROUP(MODE_LONG, 0, 3, COMMON_KINDS | KIND(CASE_RCX_HIGH))           \
	GROUP(MODE_COMPAT, 0, 3, COMMON_KINDS)                               \
	GROUP(MODE_REAL, 0, 0, KIND(CASE_VALID) | KIND(CASE_INVALID) |       \
				       KIND(CASE_FULL_ECX))                  \
	GROUP(MODE_PROT16, 0, 0, COMMON_KINDS | KIND(CASE_FULL_ECX))         \
	GROUP(MODE_PROT16, 3, 3, COMMON_KINDS | KIND(CASE_FULL_ECX))         \
	GROUP(MODE_PROT32, 0, 0, COMMON_KINDS)                               \
	GROUP(MODE_PROT32, 3, 3, COMMON_KINDS)

/*
 * CPL 1 and 2 of legacy protected mode and virtual-8086 mode are entered
 * by an IRET to an outer level or with EFLAGS.VM = 1, which an instruction
 * emulator may not perform (KVM's PVM ends the guest with "emulation
 * failure"): they come last, so that a target that cannot enter them can
 * leave them out by name (exclude=) and still reach its summary line.
 */
#define ENTERED_BY_IRET(GROUP)                                               \
	GROUP(MODE_V86, 3, 3, COMMON_KINDS | KIND(CASE_FULL_ECX))            \
	GROUP(MODE_PROT16, 1, 2, COMMON_KINDS | KIND(CASE_FULL_ECX))         \
	GROUP(MODE_PROT32, 1, 2, COMMON_KINDS)

#define AS_GROUP(mode, first, last, kinds) { mode, first, last, kinds },
/* CPLs x CR4.PCE 0/1 x cases: the tests a group has. */
#define AS_CASES(mode, first, last, kinds) \
	+((last) - (first) + 1) * 2 * KINDS_IN(kinds)

static const struct mode_group entered_directly[] = { ENTERED_DIRECTLY(AS_GROUP) };
static const struct mode_group entered_by_iret[] = { ENTERED_BY_IRET(AS_GROUP) };

/* Encodings that are invalid on some PMU or other: unsupported type, the
 * fast flag, AMD's ECX[31:30], every bit set, metrics, high indices. */
static const uint32_t probe_ecx[] = {
	0x00010000, 0x80000000, 0xC0000000, 0xFFFFFFFF, 0x20000000,
	0x4000FFFF, 0x0000FFFF, 0x7FFFFFFF, 0x00000010, 0x40000020,
};

#define PROBES (sizeof(probe_ecx) / sizeof(probe_ecx[0]))

struct priv_test {
	struct exec_state state;
	enum priv_case kind;
};

static unsigned group_cases(const struct mode_group *g)
{
	return (g->cpl_last - g->cpl_first + 1) * 2 * KINDS_IN(g->kinds);
}

static enum priv_case nth_kind(unsigned kinds, unsigned n)
{
	for (unsigned k = 0; k < CASE_KINDS; k++)
		if ((kinds & KIND(k)) && n-- == 0)
			return (enum priv_case)k;
	return CASE_VALID;
}

/* Case i of a table: CPL by CPL, CR4.PCE 0 then 1, the kinds in order. */
static struct priv_test decode_index(const struct mode_group *g, unsigned i)
{
	while (i >= group_cases(g))
		i -= group_cases(g++);

	unsigned per_context = KINDS_IN(g->kinds);
	unsigned context = i / per_context;

	return (struct priv_test){
		.state = { g->mode, g->cpl_first + context / 2, context % 2 == 1 },
		.kind = nth_kind(g->kinds, i % per_context),
	};
}

static bool restricted(const struct exec_state *s)
{
	return s->mode != MODE_REAL && s->cpl != 0 && !s->pce;
}

static void describe(const struct mode_group *groups, unsigned i,
		     struct test_text *t)
{
	struct priv_test p = decode_index(groups, i);
	const struct exec_state *s = &p.state;
	bool sixteen_bit = s->mode == MODE_REAL || s->mode == MODE_V86 ||
			   s->mode == MODE_PROT16;

	strbuf_printf(&t->id, "priv.%s.", cpu_mode_name(s->mode));
	if (s->mode != MODE_REAL && s->mode != MODE_V86)
		strbuf_printf(&t->id, "cpl%u.", s->cpl);
	strbuf_printf(&t->id, "pce%u.%s", s->pce ? 1 : 0, case_names[p.kind]);

	strbuf_puts(&t->statements, s->mode == MODE_REAL  ? "PRIV-4"
				    : s->mode == MODE_V86 ? "PRIV-1 PRIV-3"
							  : "PRIV-1");
	if (s->mode != MODE_V86 && (s->cpl == 1 || s->cpl == 2))
		strbuf_puts(&t->statements, " PRIV-2");
	if (p.kind == CASE_ANY_ECX)
		strbuf_puts(&t->statements, " PRIV-5 AMD-1");
	if (restricted(s))
		strbuf_puts(&t->statements, " PRIV-6");
	else if (s->mode == MODE_LONG && p.kind != CASE_INVALID)
		strbuf_puts(&t->statements, " MODE-1");
	else if (sixteen_bit && (p.kind == CASE_VALID || p.kind == CASE_FULL_ECX))
		strbuf_puts(&t->statements, " MODE-2");

	strbuf_puts(&t->description, case_descriptions[p.kind]);
}

static enum verdict permitted_verdict(enum cpu_mode mode, uint32_t ecx)
{
	const struct exec_state permitted = { mode, mode == MODE_V86 ? 3 : 0, true };
	struct rdpmc_expect e;

	model_rdpmc(check_pmu(), &permitted, ecx, &e, 0);
	return e.verdict;
}

/* The first ECX the model says `wanted` for in this mode where RDPMC is
 * permitted; with high, only values with ECX[31:16] set. */
static bool find_ecx(enum cpu_mode mode, enum verdict wanted, bool high,
		     uint32_t *ecx)
{
	for (uint32_t index = 0; index < 32; index++) {
		const uint32_t kinds[] = { index, 0x40000000 | index };

		for (unsigned k = high ? 1 : 0; k < 2; k++)
			if (permitted_verdict(mode, kinds[k]) == wanted) {
				*ecx = kinds[k];
				return true;
			}
	}
	for (unsigned k = 0; k < PROBES; k++)
		if ((!high || probe_ecx[k] > 0xFFFF) &&
		    permitted_verdict(mode, probe_ecx[k]) == wanted) {
			*ecx = probe_ecx[k];
			return true;
		}
	return false;
}

/* The sentinels as wide as the mode's registers. */
static struct rdpmc_case make_case(const struct exec_state *s, uint64_t rcx)
{
	uint64_t mask = s->mode == MODE_LONG ? ~0ull : 0xFFFFFFFFull;

	return (struct rdpmc_case){ *s, rcx, SENTINEL_RAX & mask,
				    SENTINEL_RDX & mask };
}

static void run_any_ecx(const struct exec_state *s)
{
	struct sweep sw = { 0 };
	uint32_t valid;

	if (find_ecx(s->mode, VERDICT_READ, false, &valid)) {
		struct rdpmc_case c = make_case(s, valid);

		sweep_case(&sw, &c);
	}
	for (unsigned k = 0; k < PROBES; k++) {
		struct rdpmc_case c = make_case(s, probe_ecx[k]);

		sweep_case(&sw, &c);
	}
	sweep_finish(&sw, "ECX values");
}

/* MODE-2: a read of 4000_00xxH that selects by CX alone or fills only
 * AX/DX shows as a different counter, a #GP, or sentinel bits left. */
static uint32_t full_ecx(enum cpu_mode mode)
{
	uint32_t ecx;

	if (find_ecx(mode, VERDICT_READ, true, &ecx))
		return ecx;
	if (find_ecx(mode, VERDICT_GP, true, &ecx)) {
		test_note("the model knows no counter with ECX[31:16] set; ECX 0x%x must #GP(0) even though CX 0x%x alone may not",
			  ecx, ecx & 0xFFFF);
		return ecx;
	}
	test_note("the model decides no ECX with ECX[31:16] set; 0x40000000 checks what it says");
	return 0x40000000;
}

/* The per-CPU part (kernel/harness.h): the rule itself in 64-bit mode, a
 * counter that exists read at every CPL with CR4.PCE 0 and 1. */
static bool is_per_cpu(const struct priv_test *p)
{
	return p->state.mode == MODE_LONG && p->kind == CASE_VALID;
}

/* check_rdpmc(), and where the model says c reads, the value read against
 * the one this CPU gave the counter just before (SMP-3, PRIV-7). */
static void check_value(const struct rdpmc_case *c)
{
	static struct known_values known;	/* one test at a time */
	struct rdpmc_expect e;
	struct exec_outcome o;
	char text[256];
	struct strbuf why;

	model_rdpmc(check_pmu(), &c->state, c->rcx, &e, 0);
	if (e.verdict != VERDICT_READ) {
		check_rdpmc(c);
		return;
	}
	strbuf_init(&why, text, sizeof(text));
	if (!known_values_write(&known, &why)) {
		test_note("the value read is not judged: %s", text);
		check_rdpmc(c);
		return;
	}
	strbuf_init(&why, text, sizeof(text));
	if (run_rdpmc_case(c, &o, &why))
		known_value_judge(&known, &e, &o, true);
	else
		report_rdpmc_mismatch(c, &o, text);
	prog_leave_cleared();
}

static void run(const struct mode_group *groups, unsigned i)
{
	struct priv_test p = decode_index(groups, i);
	const struct exec_state *s = &p.state;
	struct strbuf why;
	char why_text[120];
	uint64_t rcx = 0;
	uint32_t ecx;

	strbuf_init(&why, why_text, sizeof(why_text));
	if (!exec_available(s, &why)) {
		test_skip("%s", why_text);
		return;
	}
	switch (p.kind) {
	case CASE_VALID:
	case CASE_RCX_HIGH:
		if (find_ecx(s->mode, VERDICT_READ, false, &ecx))
			rcx = ecx;
		else
			test_note("the model knows no counter that must read here; ECX 0 checks what it says");
		if (p.kind == CASE_RCX_HIGH)
			rcx |= 0xFFFFFFFF00000000ull;
		break;
	case CASE_INVALID:
		if (find_ecx(s->mode, VERDICT_GP, false, &ecx)) {
			rcx = ecx;
		} else {
			test_note("the model knows no encoding that must #GP here; ECX 0xFFFFFFFF checks what it says");
			rcx = 0xFFFFFFFF;
		}
		break;
	case CASE_ANY_ECX:
		run_any_ecx(s);
		return;
	case CASE_FULL_ECX:
		rcx = full_ecx(s->mode);
		break;
	case CASE_KINDS:
		return;
	}
	struct rdpmc_case c = make_case(s, rcx);

	if (is_per_cpu(&p))
		check_value(&c);
	else
		check_rdpmc(&c);
}

#define DIRECT_CASES (ENTERED_DIRECTLY(AS_CASES))

/* The directly entered modes first, those entered by IRET after them. */
static const struct mode_group *table_of(unsigned *i)
{
	if (*i < DIRECT_CASES)
		return entered_directly;
	*i -= DIRECT_CASES;
	return entered_by_iret;
}

static void describe_case(unsigned i, struct test_text *t)
{
	const struct mode_group *table = table_of(&i);

	describe(table, i, t);
}

static void run_case(unsigned i)
{
	const struct mode_group *table = table_of(&i);

	run(table, i);
}

/*
 * The per-CPU part (is_per_cpu()). An encoding that does not exist is
 * ecx.types' boundary on every CPU, and the ECX sweep and RCX[63:32]
 * decode the same on every CPU once the rule holds there; each test an AP
 * runs costs milliseconds under emulation.
 */
static bool per_cpu(unsigned i)
{
	const struct mode_group *table = table_of(&i);
	struct priv_test p = decode_index(table, i);

	return is_per_cpu(&p);
}

static const struct suite priv = {
	SUITE_PER_CPU, DIRECT_CASES + ENTERED_BY_IRET(AS_CASES), describe_case,
	run_case,
};
REGISTER_SUITE(priv);
PER_CPU_CASES(priv, per_cpu);
