/*
 * priv.real.pce<0|1>.<case>, priv.v86.pce<0|1>.<case>,
 * priv.prot16.cpl<N>.pce<0|1>.<case>, priv.prot32.cpl<N>.pce<0|1>.<case>:
 * the #GP(0) rule of RDPMC outside IA-32e mode. Real-address mode always
 * permits it (PRIV-4); virtual-8086 mode is CPL 3 (PRIV-3); protected mode
 * follows PRIV-1 at every CPL (PRIV-2). In the 16-bit forms the full ECX
 * selects and the full EAX and EDX receive the count (MODE-2).
 *
 * As in priv.c the ECX values come from the model, not from knowing the
 * CPU: "valid" reads at CPL 0 in the mode, "invalid" raises #GP(0) there,
 * "fullecx" has ECX[31:16] set and selects what the model says (a fixed
 * counter, 4000_00xxH, where one exists).
 */
#include "harness.h"
#include "rdpmc_check.h"

enum legacy_case {
	CASE_VALID,	/* a counter that exists */
	CASE_INVALID,	/* an encoding that does not */
	CASE_ANY_ECX,	/* PRIV-5: a restricted RDPMC faults whatever ECX is */
	CASE_FULL_ECX,	/* MODE-2: ECX[31:16] takes part in the selection */
	CASE_KINDS,
};

static const char *const case_names[CASE_KINDS] = {
	[CASE_VALID] = "valid",
	[CASE_INVALID] = "invalid",
	[CASE_ANY_ECX] = "anyecx",
	[CASE_FULL_ECX] = "fullecx",
};

#define KIND(k) (1u << (k))

#define ALL_KINDS (KIND(CASE_VALID) | KIND(CASE_INVALID) | \
		   KIND(CASE_ANY_ECX) | KIND(CASE_FULL_ECX))

/*
 * The modes, the CPLs each has, and the cases that mean something there
 * (PRIV-5 needs a restricted context, MODE-2 a 16-bit form). CPL 1 and 2
 * and virtual-8086 mode are entered by IRET to an outer level or with
 * EFLAGS.VM = 1, which an instruction emulator may not perform (KVM's PVM
 * ends the guest with "emulation failure"): those groups form a suite of
 * their own, so that a target that cannot enter them can leave them out by
 * name (exclude=priv.v86.*,...) and still reach its summary line.
 */
struct mode_group {
	enum cpu_mode mode;
	unsigned cpl_first, cpl_last;
	unsigned kinds;
};

static const struct mode_group direct_groups[] = {
	{ MODE_REAL, 0, 0, ALL_KINDS & ~KIND(CASE_ANY_ECX) },
	{ MODE_PROT16, 0, 0, ALL_KINDS },
	{ MODE_PROT16, 3, 3, ALL_KINDS },
	{ MODE_PROT32, 0, 0, ALL_KINDS & ~KIND(CASE_FULL_ECX) },
	{ MODE_PROT32, 3, 3, ALL_KINDS & ~KIND(CASE_FULL_ECX) },
};

static const struct mode_group iret_groups[] = {
	{ MODE_V86, 3, 3, ALL_KINDS },
	{ MODE_PROT16, 1, 2, ALL_KINDS },
	{ MODE_PROT32, 1, 2, ALL_KINDS & ~KIND(CASE_FULL_ECX) },
};

/* CPLs x CR4.PCE 0/1 x cases, group by group as in the tables above. */
#define DIRECT_CASES (2 * 3 + 2 * 4 + 2 * 4 + 2 * 3 + 2 * 3)
#define IRET_CASES (2 * 4 + 2 * 2 * 4 + 2 * 2 * 3)

/* Encodings that are invalid on some PMU or other (as in priv.c). */
static const uint32_t probe_ecx[] = {
	0x00010000, 0x80000000, 0xC0000000, 0xFFFFFFFF, 0x20000000,
	0x4000FFFF, 0x0000FFFF, 0x7FFFFFFF, 0x00000010, 0x40000020,
};

#define PROBES (sizeof(probe_ecx) / sizeof(probe_ecx[0]))

struct legacy_test {
	struct exec_state state;
	enum legacy_case kind;
};

static unsigned kinds_in(unsigned kinds)
{
	unsigned n = 0;

	for (unsigned k = 0; k < CASE_KINDS; k++)
		n += (kinds & KIND(k)) != 0;
	return n;
}

static unsigned group_cases(const struct mode_group *g)
{
	return (g->cpl_last - g->cpl_first + 1) * 2 * kinds_in(g->kinds);
}

static enum legacy_case nth_kind(unsigned kinds, unsigned n)
{
	for (unsigned k = 0; k < CASE_KINDS; k++)
		if ((kinds & KIND(k)) && n-- == 0)
			return (enum legacy_case)k;
	return CASE_VALID;
}

static struct legacy_test decode_index(const struct mode_group *g,
				       unsigned i)
{
	while (i >= group_cases(g)) {
		i -= group_cases(g);
		g++;
	}
	unsigned per_context = kinds_in(g->kinds);
	unsigned context = i / per_context;

	return (struct legacy_test){
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
	struct legacy_test p = decode_index(groups, i);
	const struct exec_state *s = &p.state;

	strbuf_printf(&t->id, "priv.%s.", cpu_mode_name(s->mode));
	if (s->mode == MODE_PROT16 || s->mode == MODE_PROT32)
		strbuf_printf(&t->id, "cpl%u.", s->cpl);
	strbuf_printf(&t->id, "pce%u.%s", s->pce ? 1 : 0, case_names[p.kind]);

	if (s->mode == MODE_REAL)
		strbuf_puts(&t->statements, "PRIV-4");
	else if (s->mode == MODE_V86)
		strbuf_puts(&t->statements, "PRIV-3 PRIV-1");
	else
		strbuf_puts(&t->statements, "PRIV-1");
	if (s->mode != MODE_V86 && (s->cpl == 1 || s->cpl == 2))
		strbuf_puts(&t->statements, " PRIV-2");
	if (p.kind == CASE_ANY_ECX)
		strbuf_puts(&t->statements, " PRIV-5");
	if (restricted(s))
		strbuf_puts(&t->statements, " PRIV-6");
	if (p.kind == CASE_FULL_ECX ||
	    (p.kind == CASE_VALID && s->mode != MODE_PROT32 && !restricted(s)))
		strbuf_puts(&t->statements, " MODE-2");

	switch (p.kind) {
	case CASE_VALID:
		strbuf_puts(&t->description, "RDPMC of a counter the model says exists");
		break;
	case CASE_INVALID:
		strbuf_puts(&t->description, "RDPMC of an encoding the model says does not exist");
		break;
	case CASE_ANY_ECX:
		strbuf_puts(&t->description, "RDPMC with valid, invalid, fast-flag and all-ones ECX");
		break;
	case CASE_FULL_ECX:
		strbuf_puts(&t->description, "RDPMC with ECX[31:16] set: the full ECX selects");
		break;
	default:
		break;
	}
}

static enum verdict model_verdict(enum cpu_mode mode, uint32_t ecx)
{
	const struct exec_state cpl0 = { mode, mode == MODE_V86 ? 3 : 0, true };
	struct rdpmc_expect e;

	model_rdpmc(check_pmu(), &cpl0, ecx, &e, 0);
	return e.verdict;
}

/* The first ECX the model says `wanted` for in this mode where RDPMC is
 * permitted (CPL 0, or CR4.PCE = 1 in virtual-8086 mode); with high, only
 * values with ECX[31:16] set. */
static bool find_ecx(enum cpu_mode mode, enum verdict wanted, bool high,
		     uint32_t *ecx)
{
	for (uint32_t index = 0; index < 32; index++) {
		const uint32_t kinds[] = { index, 0x40000000 | index };

		for (unsigned k = high ? 1 : 0; k < 2; k++)
			if (model_verdict(mode, kinds[k]) == wanted) {
				*ecx = kinds[k];
				return true;
			}
	}
	for (unsigned k = 0; k < PROBES; k++)
		if ((!high || probe_ecx[k] > 0xFFFF) &&
		    model_verdict(mode, probe_ecx[k]) == wanted) {
			*ecx = probe_ecx[k];
			return true;
		}
	return false;
}

static struct rdpmc_case make_case(const struct exec_state *s, uint32_t ecx)
{
	return (struct rdpmc_case){ *s, ecx, SENTINEL_RAX & 0xFFFFFFFF,
				    SENTINEL_RDX & 0xFFFFFFFF };
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

/* MODE-2: a read of 4000_00xxH that fills only AX/DX, or selects by CX,
 * shows as a different counter, a #GP, or sentinel bits above the width. */
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

static void run(const struct mode_group *groups, unsigned i)
{
	struct legacy_test p = decode_index(groups, i);
	const struct exec_state *s = &p.state;
	struct strbuf why;
	char why_text[120];
	uint32_t ecx = 0;

	strbuf_init(&why, why_text, sizeof(why_text));
	if (!exec_available(s, &why)) {
		test_skip("%s", why_text);
		return;
	}
	switch (p.kind) {
	case CASE_VALID:
		if (!find_ecx(s->mode, VERDICT_READ, false, &ecx)) {
			test_note("the model knows no counter that must read here; ECX 0 checks what it says");
			ecx = 0;
		}
		break;
	case CASE_INVALID:
		if (!find_ecx(s->mode, VERDICT_GP, false, &ecx)) {
			test_note("the model knows no encoding that must #GP here; ECX 0xFFFFFFFF checks what it says");
			ecx = 0xFFFFFFFF;
		}
		break;
	case CASE_ANY_ECX:
		run_any_ecx(s);
		return;
	case CASE_FULL_ECX:
		ecx = full_ecx(s->mode);
		break;
	default:
		break;
	}
	struct rdpmc_case c = make_case(s, ecx);

	check_rdpmc(&c);
}

static void describe_direct(unsigned i, struct test_text *t)
{
	describe(direct_groups, i, t);
}

static void run_direct(unsigned i)
{
	run(direct_groups, i);
}

static void describe_iret(unsigned i, struct test_text *t)
{
	describe(iret_groups, i, t);
}

static void run_iret(unsigned i)
{
	run(iret_groups, i);
}

static const struct suite priv_legacy = {
	0, DIRECT_CASES, describe_direct, run_direct,
};
REGISTER_SUITE(priv_legacy);

static const struct suite priv_legacy_iret = {
	0, IRET_CASES, describe_iret, run_iret,
};
REGISTER_SUITE(priv_legacy_iret);
