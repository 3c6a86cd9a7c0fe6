/*
 * priv.<mode>.cpl<N>.pce<0|1>.<case>: the #GP(0) rule of RDPMC (PRIV-1,
 * PRIV-2, PRIV-5, PRIV-6) and the 64-bit register forms (MODE-1), in 64-bit
 * and compatibility mode at every CPL with CR4.PCE clear and set.
 *
 * The ECX values are chosen by asking the model, not by knowing the CPU:
 * "valid" is the first ECX the model says reads at CPL 0, "invalid" the
 * first it says #GP(0) there.
 */
#include "harness.h"
#include "rdpmc_check.h"

enum priv_case {
	CASE_VALID,	/* a counter that exists */
	CASE_INVALID,	/* an encoding that does not */
	CASE_ANY_ECX,	/* PRIV-5: a restricted RDPMC faults whatever ECX is */
	CASE_RCX_HIGH,	/* MODE-1: RCX[63:32] ignored (64-bit mode only) */
};

static const char *const case_names[] = {
	[CASE_VALID] = "valid",
	[CASE_INVALID] = "invalid",
	[CASE_ANY_ECX] = "anyecx",
	[CASE_RCX_HIGH] = "rcxhigh",
};

#define LONG_CASES	4	/* valid, invalid, anyecx, rcxhigh */
#define COMPAT_CASES	3	/* no RCX outside 64-bit mode */
#define CONTEXTS	8	/* CPL 0-3 x CR4.PCE 0/1 */

/* Encodings that are invalid on some PMU or other: unsupported type, the
 * fast flag, AMD's ECX[31:30], every bit set, metrics, high indices. */
static const uint32_t probe_ecx[] = {
	0x00010000, 0x80000000, 0xC0000000, 0xFFFFFFFF, 0x20000000,
	0x4000FFFF, 0x0000FFFF, 0x7FFFFFFF, 0x00000010, 0x40000020,
};

struct priv_test {
	struct exec_state state;
	enum priv_case kind;
};

static struct priv_test decode_index(unsigned i)
{
	enum cpu_mode mode = MODE_LONG;
	unsigned per_context = LONG_CASES;

	if (i >= CONTEXTS * LONG_CASES) {
		i -= CONTEXTS * LONG_CASES;
		mode = MODE_COMPAT;
		per_context = COMPAT_CASES;
	}
	unsigned context = i / per_context;

	return (struct priv_test){
		.state = { mode, context / 2, context % 2 == 1 },
		.kind = (enum priv_case)(i % per_context),
	};
}

static bool restricted(const struct exec_state *s)
{
	return s->cpl != 0 && !s->pce;	/* PRIV-1 in protected/long mode */
}

static void describe(unsigned i, struct test_text *t)
{
	struct priv_test p = decode_index(i);
	const struct exec_state *s = &p.state;

	strbuf_printf(&t->id, "priv.%s.cpl%u.pce%u.%s",
		      cpu_mode_name(s->mode), s->cpl, s->pce ? 1 : 0,
		      case_names[p.kind]);
	strbuf_puts(&t->statements, p.kind == CASE_RCX_HIGH ? "MODE-1" : "PRIV-1");
	if (s->cpl == 1 || s->cpl == 2)
		strbuf_puts(&t->statements, " PRIV-2");
	if (p.kind == CASE_ANY_ECX)
		strbuf_puts(&t->statements, " PRIV-5");
	if (restricted(s))
		strbuf_puts(&t->statements, " PRIV-6");
	else if (s->mode == MODE_LONG && p.kind != CASE_RCX_HIGH)
		strbuf_puts(&t->statements, " MODE-1");

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
	case CASE_RCX_HIGH:
		strbuf_puts(&t->description, "RDPMC with RCX[63:32] set reads as with ECX alone");
		break;
	}
}

/* The first ECX that the model says `wanted` for at CPL 0 in this mode. */
static bool find_ecx(enum cpu_mode mode, enum verdict wanted, uint32_t *ecx)
{
	const struct exec_state cpl0 = { mode, 0, false };
	struct rdpmc_expect e;

	for (uint32_t index = 0; index < 32; index++) {
		const uint32_t kinds[] = { index, 0x40000000 | index };

		for (unsigned k = 0; k < 2; k++) {
			model_rdpmc(check_pmu(), &cpl0, kinds[k], &e, 0);
			if (e.verdict == wanted) {
				*ecx = kinds[k];
				return true;
			}
		}
	}
	for (unsigned k = 0; k < sizeof(probe_ecx) / sizeof(probe_ecx[0]); k++) {
		model_rdpmc(check_pmu(), &cpl0, probe_ecx[k], &e, 0);
		if (e.verdict == wanted) {
			*ecx = probe_ecx[k];
			return true;
		}
	}
	return false;
}

static struct rdpmc_case make_case(const struct exec_state *s, uint64_t rcx)
{
	return (struct rdpmc_case){ *s, rcx, SENTINEL_RAX, SENTINEL_RDX };
}

static void run_any_ecx(const struct exec_state *s)
{
	struct sweep sw = { 0 };
	uint32_t valid;

	if (find_ecx(s->mode, VERDICT_READ, &valid)) {
		struct rdpmc_case c = make_case(s, valid);

		sweep_case(&sw, &c);
	}
	for (unsigned k = 0; k < sizeof(probe_ecx) / sizeof(probe_ecx[0]); k++) {
		struct rdpmc_case c = make_case(s, probe_ecx[k]);

		sweep_case(&sw, &c);
	}
	sweep_finish(&sw, "ECX values");
}

static void run(unsigned i)
{
	struct priv_test p = decode_index(i);
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
		if (!find_ecx(s->mode, VERDICT_READ, &ecx)) {
			test_note("the model knows no counter that must read here; ECX 0 checks what it says");
			ecx = 0;
		}
		break;
	case CASE_INVALID:
		if (!find_ecx(s->mode, VERDICT_GP, &ecx)) {
			test_note("the model knows no encoding that must #GP here; ECX 0xFFFFFFFF checks what it says");
			ecx = 0xFFFFFFFF;
		}
		break;
	case CASE_ANY_ECX:
		run_any_ecx(s);
		return;
	case CASE_RCX_HIGH:	/* the valid counter, RCX[63:32] set */
		if (!find_ecx(s->mode, VERDICT_READ, &ecx))
			ecx = 0;
		break;
	}
	struct rdpmc_case c = make_case(s, p.kind == CASE_RCX_HIGH
						   ? 0xFFFFFFFF00000000ull | ecx
						   : ecx);

	check_rdpmc(&c);
}

static const struct suite priv = {
	0, CONTEXTS * (LONG_CASES + COMPAT_CASES), describe, run,
};
REGISTER_SUITE(priv);
