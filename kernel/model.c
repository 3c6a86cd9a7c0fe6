/*
 * model_rdpmc: what the spec (docs/spec.md) requires RDPMC to do, decided
 * the way the hardware decides it: privilege first (PRIV-5), then the ECX
 * encoding of the vendor's PMU. Pure: see model.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

/* How the privilege check let RDPMC through; the first IDs of `statements`. */
enum grant {
	GRANT_PRIV1,		/* CPL 0, or CR4.PCE = 1 */
	GRANT_PRIV1_MODE1,	/* the same, 64-bit mode, RCX[63:32] != 0 */
	GRANT_V86,		/* virtual-8086 mode (CPL 3) with CR4.PCE = 1 */
	GRANT_REAL,		/* real-address mode */
	GRANT_COUNT
};

/* What the ECX encoding then decided; the rest of `statements`. */
enum decision {
	GP_READ,
	GP_BAD_INDEX,
	FIXED_READ,
	FIXED_BAD_INDEX,
	METRICS_READ,
	METRICS_OPEN,
	METRICS_ABSENT,
	BAD_TYPE,
	FAST_FLAG,
	PMC_READ,
	PMC_FAST,
	PMC_OPEN,
	AMD_READ,
	AMD_BAD,
	OTHER_VENDOR,
	DECISION_COUNT
};

#define DECIDED_BY(grant) {						\
	[GP_READ]	  = grant " ARCH-1 ARCH-2 ARCH-7",		\
	[GP_BAD_INDEX]	  = grant " ARCH-1 ARCH-2 ARCH-5",		\
	[FIXED_READ]	  = grant " ARCH-1 ARCH-3 ARCH-7",		\
	[FIXED_BAD_INDEX] = grant " ARCH-1 ARCH-3 ARCH-5",		\
	[METRICS_READ]	  = grant " ARCH-1 ARCH-4",			\
	[METRICS_OPEN]	  = grant " ARCH-1 ARCH-4",			\
	[METRICS_ABSENT]  = grant " ARCH-1 ARCH-4 ARCH-5",		\
	[BAD_TYPE]	  = grant " ARCH-1 ARCH-5",			\
	[FAST_FLAG]	  = grant " ARCH-1 ARCH-5 ARCH-6",		\
	[PMC_READ]	  = grant " NARCH-1 NARCH-3",			\
	[PMC_FAST]	  = grant " NARCH-1 NARCH-2",			\
	[PMC_OPEN]	  = grant " NARCH-1",				\
	[AMD_READ]	  = grant " AMD-1 AMD-2 AMD-3",			\
	[AMD_BAD]	  = grant " AMD-1 AMD-2",			\
	[OTHER_VENDOR]	  = grant,					\
}

static const char *const decided_by[GRANT_COUNT][DECISION_COUNT] = {
	[GRANT_PRIV1]		= DECIDED_BY("PRIV-1"),
	[GRANT_PRIV1_MODE1]	= DECIDED_BY("PRIV-1 MODE-1"),
	[GRANT_V86]		= DECIDED_BY("PRIV-1 PRIV-3"),
	[GRANT_REAL]		= DECIDED_BY("PRIV-4"),
};

/* Why the privilege check faulted, without and with AMD-1. */
enum restriction {
	RESTRICT_CPL3,
	RESTRICT_CPL12,	/* PRIV-2 */
	RESTRICT_V86,	/* PRIV-3 */
	RESTRICT_COUNT
};

static const char *const restricted_by[RESTRICT_COUNT][2] = {
	[RESTRICT_CPL3]	 = { "PRIV-1 PRIV-5", "PRIV-1 PRIV-5 AMD-1" },
	[RESTRICT_CPL12] = { "PRIV-1 PRIV-2 PRIV-5",
			     "PRIV-1 PRIV-2 PRIV-5 AMD-1" },
	[RESTRICT_V86]	 = { "PRIV-1 PRIV-3 PRIV-5",
			     "PRIV-1 PRIV-3 PRIV-5 AMD-1" },
};

#define TYPE_GP		0x0000u
#define TYPE_METRICS	0x2000u
#define TYPE_FIXED	0x4000u
#define NARCH_FAST	0x80000000u	/* ECX[31], NARCH-2 / ARCH-6 */

/* One reasoning step: one line appended to `why`, which may be NULL. */
static void step(struct strbuf *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void step(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return;
	va_start(ap, fmt);
	strbuf_vprintf(why, fmt, ap);
	va_end(ap);
	strbuf_putc(why, '\n');
}

static bool bit(uint32_t bits, unsigned index)
{
	return index <= 31 && ((bits >> index) & 1);
}

static enum decision read_counter(struct rdpmc_expect *out, enum decision d,
				  enum counter_kind kind, unsigned index,
				  unsigned width)
{
	out->verdict = VERDICT_READ;
	out->kind = kind;
	out->index = index;
	out->width = width;
	return d;
}

static enum decision fault(struct rdpmc_expect *out, enum decision d)
{
	out->verdict = VERDICT_GP;
	return d;
}

static enum decision leave_open(struct rdpmc_expect *out, enum decision d,
				const char *reason)
{
	out->verdict = VERDICT_UNKNOWN;
	out->reason = reason;
	return d;
}

/*
 * PRIV-1..5: permitted with CR0.PE = 0, CPL 0 or CR4.PCE = 1. Returns false
 * after filling in the #GP(0); the ECX value is only mentioned (PRIV-5).
 */
static bool permitted(enum vendor vendor, const struct exec_state *state,
		      uint32_t ecx, struct rdpmc_expect *out,
		      struct strbuf *why, enum grant *grant)
{
	enum restriction restriction;
	unsigned cpl = state->cpl;

	if (state->mode == MODE_REAL) {
		step(why, "PRIV-4: real-address mode (CR0.PE = 0) always "
		     "permits RDPMC, whatever CR4.PCE (= %u)", state->pce);
		*grant = GRANT_REAL;
		return true;
	}
	if (state->mode == MODE_V86) {
		step(why, "PRIV-3: virtual-8086 mode runs at CPL 3");
		cpl = 3;
		restriction = RESTRICT_V86;
	} else if (cpl == 0) {
		step(why, "PRIV-1: CPL 0: permitted (CR4.PCE = %u)",
		     state->pce);
		*grant = GRANT_PRIV1;
		return true;
	} else if (cpl == 3) {
		restriction = RESTRICT_CPL3;
	} else {
		restriction = RESTRICT_CPL12;
	}
	if (state->pce) {
		step(why, "PRIV-1: CPL %u with CR4.PCE = 1: permitted", cpl);
		*grant = restriction == RESTRICT_V86 ? GRANT_V86 : GRANT_PRIV1;
		return true;
	}
	if (restriction == RESTRICT_CPL12)
		step(why, "PRIV-2: CPL %u is restricted exactly like CPL 3",
		     cpl);
	step(why, "PRIV-1: CPL %u with CR4.PCE = 0 and CR0.PE = 1: #GP(0)",
	     cpl);
	step(why, "PRIV-5: the privilege check comes first: ECX = %08XH is "
	     "not looked at", ecx);
	if (vendor == VENDOR_AMD)
		step(why, "AMD-1: the privilege rule holds on AMD as on Intel");
	out->verdict = VERDICT_GP;
	out->statements = restricted_by[restriction][vendor == VENDOR_AMD];
	return false;
}

/* ARCH-3 / ARCH-2: why CPUID.23H.01H:<reg>[index] did not make it valid. */
static void explain_leaf23(const struct pmu_info *pmu, const char *id,
			   const char *reg, unsigned index, struct strbuf *why)
{
	if (!pmu->has_leaf23)
		step(why, "%s: CPUID leaf 23H is not enumerated", id);
	else if (index > 31)
		step(why, "%s: index %u > 31 has no CPUID.23H.01H:%s bit", id,
		     index, reg);
	else
		step(why, "%s: CPUID.23H.01H:%s[%u] = 0", id, reg, index);
}

static enum decision gp_counter(const struct pmu_info *pmu, unsigned index,
				struct rdpmc_expect *out, struct strbuf *why)
{
	if (index < pmu->gp_count) {
		step(why, "ARCH-2: general-purpose index %u < "
		     "CPUID.0AH:EAX[15:8] = %u", index, pmu->gp_count);
	} else if (bit(pmu->gp_bitmap23, index)) {
		step(why, "ARCH-2: general-purpose index %u >= "
		     "CPUID.0AH:EAX[15:8] = %u, but CPUID.23H.01H:EAX[%u] = 1",
		     index, pmu->gp_count, index);
	} else {
		step(why, "ARCH-2: general-purpose index %u >= "
		     "CPUID.0AH:EAX[15:8] = %u", index, pmu->gp_count);
		explain_leaf23(pmu, "ARCH-2", "EAX", index, why);
		step(why, "ARCH-5: unsupported index: #GP(0)");
		return fault(out, GP_BAD_INDEX);
	}
	step(why, "ARCH-7: general-purpose width CPUID.0AH:EAX[23:16] = %u",
	     pmu->gp_width);
	return read_counter(out, GP_READ, COUNTER_GP, index, pmu->gp_width);
}

static enum decision fixed_counter(const struct pmu_info *pmu, unsigned index,
				   struct rdpmc_expect *out, struct strbuf *why)
{
	/* ARCH-3: EDX[4:0] counts fixed counters only for version > 1. */
	bool counted = pmu->version > 1;

	if (counted && index < pmu->fixed_count) {
		step(why, "ARCH-3: fixed index %u < CPUID.0AH:EDX[4:0] = %u "
		     "(version %u > 1)", index, pmu->fixed_count,
		     pmu->version);
	} else if (bit(pmu->fixed_bitmap, index)) {
		step(why, "ARCH-3: fixed index %u: CPUID.0AH:ECX[%u] = 1",
		     index, index);
	} else if (bit(pmu->fixed_bitmap23, index)) {
		step(why, "ARCH-3: fixed index %u: CPUID.23H.01H:EBX[%u] = 1",
		     index, index);
	} else {
		if (counted)
			step(why, "ARCH-3: fixed index %u >= "
			     "CPUID.0AH:EDX[4:0] = %u", index,
			     pmu->fixed_count);
		else
			step(why, "ARCH-3: version %u <= 1: CPUID.0AH:EDX "
			     "enumerates no fixed counters", pmu->version);
		if (index > 31)
			step(why, "ARCH-3: index %u > 31 has no CPUID.0AH:ECX "
			     "bit", index);
		else
			step(why, "ARCH-3: CPUID.0AH:ECX[%u] = 0", index);
		explain_leaf23(pmu, "ARCH-3", "EBX", index, why);
		step(why, "ARCH-5: unsupported index: #GP(0)");
		return fault(out, FIXED_BAD_INDEX);
	}
	if (counted)
		step(why, "ARCH-7: fixed-function width CPUID.0AH:EDX[12:5] = "
		     "%u", pmu->fixed_width);
	else
		step(why, "ARCH-7: version %u <= 1: the fixed-function width "
		     "is not enumerated", pmu->version);
	return read_counter(out, FIXED_READ, COUNTER_FIXED, index,
			    counted ? pmu->fixed_width : 0);
}

static enum decision metrics(const struct pmu_info *pmu, unsigned index,
			     struct rdpmc_expect *out, struct strbuf *why)
{
	if (!pmu->perf_metrics) {
		if (!pmu->pdcm)
			step(why, "ARCH-4: CPUID.01H:ECX.PDCM = 0: there is no "
			     "IA32_PERF_CAPABILITIES (MET-3), so no metrics");
		else if (!pmu->has_perf_capabilities)
			step(why, "ARCH-4: IA32_PERF_CAPABILITIES was not "
			     "read: PERF_METRICS_AVAILABLE taken as 0");
		else
			step(why, "ARCH-4: IA32_PERF_CAPABILITIES[15] "
			     "(PERF_METRICS_AVAILABLE) = 0");
		step(why, "ARCH-5: type 2000H is unsupported: #GP(0)");
		return fault(out, METRICS_ABSENT);
	}
	step(why, "ARCH-4: IA32_PERF_CAPABILITIES[15] "
	     "(PERF_METRICS_AVAILABLE) = 1");
	if (index == 0) {
		step(why, "ARCH-4: ECX = 2000_0000H reads PERF_METRICS");
		return read_counter(out, METRICS_READ, COUNTER_METRICS, 0, 0);
	}
	step(why, "ARCH-4: index %u under type 2000H is "
	     "implementation-specific: a read or #GP(0)", index);
	return leave_open(out, METRICS_OPEN,
			  "implementation-specific metrics index");
}

/* ARCH-1..7: CPUID.0AH:EAX[7:0] > 0. */
static enum decision intel_arch(const struct pmu_info *pmu, uint32_t ecx,
				struct rdpmc_expect *out, struct strbuf *why)
{
	unsigned type = ecx >> 16, index = ecx & 0xffff;

	step(why, "ARCH-1: architectural PMU version %u (CPUID.0AH:EAX[7:0]):"
	     " type ECX[31:16] = %04XH, index ECX[15:0] = %u", pmu->version,
	     type, index);
	switch (type) {
	case TYPE_GP:
		return gp_counter(pmu, index, out, why);
	case TYPE_FIXED:
		return fixed_counter(pmu, index, out, why);
	case TYPE_METRICS:
		return metrics(pmu, index, out, why);
	}
	if (ecx & NARCH_FAST) {
		step(why, "ARCH-6: ECX[31] (the non-architectural fast flag) "
		     "makes type %04XH, which is undefined", type);
		step(why, "ARCH-5: unsupported type: #GP(0)");
		return fault(out, FAST_FLAG);
	}
	step(why, "ARCH-1: type %04XH is none of 0000H, 2000H, 4000H", type);
	step(why, "ARCH-5: unsupported type: #GP(0)");
	return fault(out, BAD_TYPE);
}

/*
 * NARCH-1: the processors the SDM's RDPMC text names with PMC0 and PMC1:
 * the Pentium with MMX (family 5), the P6 family and Pentium M (family 6
 * up to model 0DH) and the Pentium 4 (family 0FH). Any later Intel CPU has
 * an architectural PMU, so one that reports none is a hypervisor hiding
 * it, and the SDM requires no PMC there.
 */
static bool names_pmc0_pmc1(const struct pmu_info *pmu)
{
	return pmu->family == 5 || pmu->family == 0x0F ||
	       (pmu->family == 6 && pmu->model <= 0x0D);
}

/* NARCH-1..3: an Intel PMU without CPUID.0AH (version 0). */
static enum decision intel_narch(const struct pmu_info *pmu, uint32_t ecx,
				 struct rdpmc_expect *out, struct strbuf *why)
{
	unsigned index = ecx & ~NARCH_FAST;

	step(why, "NARCH-1: no architectural PMU (CPUID.0AH:EAX[7:0] = 0): "
	     "PMC index ECX[30:0] = %u", index);
	if (!names_pmc0_pmc1(pmu)) {
		step(why, "NARCH-1: family %XH model %02XH is none of the "
		     "processors the SDM names with PMC0 and PMC1 (families 5 "
		     "and 0FH, family 6 to model 0DH): which PMCs exist is "
		     "model-specific, a read or #GP(0)", pmu->family, pmu->model);
		return leave_open(out, PMC_OPEN, "model-specific PMC index");
	}
	if (index > 1) {
		step(why, "NARCH-1: which PMCs beyond PMC0 and PMC1 exist is "
		     "model-specific: a read or #GP(0)");
		return leave_open(out, PMC_OPEN, "model-specific PMC index");
	}
	step(why, "NARCH-1: family %XH model %02XH has PMC0 and PMC1 (the "
	     "SDM's RDPMC: Pentium with MMX, P6, Pentium M, Pentium 4)",
	     pmu->family, pmu->model);
	if (!(ecx & NARCH_FAST)) {
		step(why, "NARCH-3: general-purpose PMCs are 40 bits wide");
		return read_counter(out, PMC_READ, COUNTER_PMC, index, 40);
	}
	step(why, "NARCH-2: ECX[31] = 1 asks for a fast read where supported "
	     "(EAX = PMC[31:0], EDX = 0); where not, #GP(0) conforms too");
	out->fast = true;
	out->gp_also_conforms = true;
	return read_counter(out, PMC_FAST, COUNTER_PMC, index, 32);
}

/* AMD-2, AMD-3: ECX is a plain counter number, 0 to 15 at most. */
static enum decision amd(const struct pmu_info *pmu, uint32_t ecx,
			 struct rdpmc_expect *out, struct strbuf *why)
{
	enum counter_kind kind;
	unsigned index;

	step(why, "AMD-1: the privilege rule holds on AMD as on Intel");
	step(why, "AMD-2: no type field, no fast flag: ECX = %08XH", ecx);
	if (ecx < 4) {
		step(why, "AMD-2: ECX 0-3 select the legacy core counters");
		kind = COUNTER_AMD_CORE;
		index = ecx;
	} else if (ecx < 6 && pmu->amd_ext_core) {
		step(why, "AMD-2: CPUID 8000_0001H:ECX[23] (PerfCtrExtCore) ="
		     " 1: ECX 4-5 select core counters 4-5");
		kind = COUNTER_AMD_CORE;
		index = ecx;
	} else if (ecx >= 6 && ecx < 10 && pmu->amd_ext_nb) {
		step(why, "AMD-2: CPUID 8000_0001H:ECX[24] (PerfCtrExtNB) = 1:"
		     " ECX 6-9 select northbridge counters 0-3");
		kind = COUNTER_AMD_NB;
		index = ecx - 6;
	} else if (ecx >= 10 && ecx < 16 && pmu->amd_ext_llc) {
		step(why, "AMD-2: CPUID 8000_0001H:ECX[28] (PerfCtrExtLLC) ="
		     " 1: ECX 10-15 select L2/L3 counters 0-5");
		kind = COUNTER_AMD_L2;
		index = ecx - 10;
	} else {
		if (ecx < 6)
			step(why, "AMD-2: ECX 4-5 need PerfCtrExtCore, but "
			     "CPUID 8000_0001H:ECX[23] = 0");
		else if (ecx < 10)
			step(why, "AMD-2: ECX 6-9 need PerfCtrExtNB, but "
			     "CPUID 8000_0001H:ECX[24] = 0");
		else if (ecx < 16)
			step(why, "AMD-2: ECX 10-15 need PerfCtrExtLLC, but "
			     "CPUID 8000_0001H:ECX[28] = 0");
		else
			step(why, "AMD-2: ECX above 15 selects no counter");
		step(why, "AMD-2: any other ECX: #GP(0)");
		return fault(out, AMD_BAD);
	}
	step(why, "AMD-3: AMD counters are 48 bits wide (EDX[31:16] = 0)");
	return read_counter(out, AMD_READ, kind, index, 48);
}

static void expect_clear(struct rdpmc_expect *out)
{
	out->verdict = VERDICT_GP;
	out->kind = COUNTER_GP;
	out->index = 0;
	out->width = 0;
	out->fast = false;
	out->gp_also_conforms = false;
	out->statements = "";
	out->reason = NULL;
}

void model_rdpmc(const struct pmu_info *pmu, const struct exec_state *state,
		 uint64_t rcx, struct rdpmc_expect *out, struct strbuf *why)
{
	/* MODE-1: only ECX counts; outside 64-bit mode RCX is ECX. */
	uint32_t ecx = (uint32_t)rcx;
	enum decision decision;
	enum grant grant;

	expect_clear(out);
	if (!permitted(pmu->vendor, state, ecx, out, why, &grant))
		return;
	if (state->mode == MODE_LONG && rcx >> 32) {
		step(why, "MODE-1: 64-bit mode ignores RCX[63:32] = %XH",
		     (unsigned)(rcx >> 32));
		grant = GRANT_PRIV1_MODE1;
	} else if ((state->mode == MODE_REAL || state->mode == MODE_V86 ||
		    state->mode == MODE_PROT16) && ecx > 0xffff) {
		step(why, "MODE-2: in %s mode the full ECX, not CX, selects "
		     "the counter", cpu_mode_name(state->mode));
	}

	if (pmu->vendor == VENDOR_AMD) {
		decision = amd(pmu, ecx, out, why);
	} else if (pmu->vendor != VENDOR_INTEL) {
		step(why, "vendor is neither Intel nor AMD: the spec does not "
		     "say which ECX values select a counter");
		decision = leave_open(out, OTHER_VENDOR, "vendor not covered "
				      "by the spec");
	} else if (pmu->version > 0) {
		decision = intel_arch(pmu, ecx, out, why);
	} else {
		decision = intel_narch(pmu, ecx, out, why);
	}
	out->statements = decided_by[grant][decision];
}

/* ARCH-1..6: within one type field, indices from 32 up (and above every
 * count) fault alike; types other than 0000H, 2000H and 4000H fault alike
 * up to the next of those, or the fast flag (ECX[31]). */
static uint32_t intel_arch_span_end(const struct pmu_info *pmu, uint32_t ecx)
{
	unsigned type = ecx >> 16, index = ecx & 0xffff;
	uint32_t type_last = ecx | 0xffff;

	switch (type) {
	case TYPE_GP:
		return index > 31 && index >= pmu->gp_count ? type_last : ecx;
	case TYPE_FIXED:	/* EDX[4:0] counts at most 31 */
		return index > 31 ? type_last : ecx;
	case TYPE_METRICS:
		return index > 0 ? type_last : ecx;
	}
	if (type < TYPE_METRICS)
		return ((uint32_t)TYPE_METRICS << 16) - 1;
	if (type < TYPE_FIXED)
		return ((uint32_t)TYPE_FIXED << 16) - 1;
	if (!(ecx & NARCH_FAST))
		return NARCH_FAST - 1;
	return 0xffffffffu;
}

uint32_t model_rdpmc_span_end(const struct pmu_info *pmu,
			      const struct exec_state *state, uint64_t rcx)
{
	uint32_t ecx = (uint32_t)rcx;
	struct rdpmc_expect denied;
	enum grant grant;

	/* PRIV-5: a privilege fault is the same for every ECX. */
	if (!permitted(pmu->vendor, state, ecx, &denied, NULL, &grant))
		return 0xffffffffu;
	if (pmu->vendor == VENDOR_AMD)		/* AMD-2: 0-15, then #GP */
		return ecx > 15 ? 0xffffffffu : ecx;
	if (pmu->vendor != VENDOR_INTEL)
		return 0xffffffffu;
	if (pmu->version > 0)
		return intel_arch_span_end(pmu, ecx);
	/* NARCH-1: PMC0 and PMC1 on the named processors, the rest open up
	 * to the fast flag, and from it. */
	if (!names_pmc0_pmc1(pmu))
		return 0xffffffffu;
	if ((ecx & ~NARCH_FAST) <= 1)
		return ecx;
	return ecx & NARCH_FAST ? 0xffffffffu : NARCH_FAST - 1;
}

const struct rdpmc_expect *model_rdpmc_cached(struct model_cache *cache,
					      const struct pmu_info *pmu,
					      const struct exec_state *state,
					      uint64_t rcx)
{
	if (cache->asked && rcx >= cache->first && rcx <= cache->last &&
	    cache->state.mode == state->mode &&
	    cache->state.cpl == state->cpl && cache->state.pce == state->pce)
		return &cache->answer;
	model_rdpmc(pmu, state, rcx, &cache->answer, NULL);
	cache->asked++;
	cache->state = *state;
	cache->first = rcx;
	cache->last = (rcx & ~0xffffffffull) |
		      model_rdpmc_span_end(pmu, state, rcx);
	return &cache->answer;
}

/* The answer grammar of pmctest-model (README, "The model, on the host")
 * gives no width for metrics, nb and l2. */
static bool width_shown(enum counter_kind kind)
{
	return kind == COUNTER_GP || kind == COUNTER_FIXED ||
	       kind == COUNTER_PMC || kind == COUNTER_AMD_CORE;
}

void expect_format(const struct rdpmc_expect *e, struct strbuf *sb)
{
	switch (e->verdict) {
	case VERDICT_GP:
		strbuf_puts(sb, "#GP(0)");
		return;
	case VERDICT_UNKNOWN:
		strbuf_printf(sb, "unknown %s", e->reason);
		return;
	case VERDICT_READ:
		break;
	}
	strbuf_printf(sb, "read %s %u", counter_kind_name(e->kind), e->index);
	if (e->width && width_shown(e->kind))
		strbuf_printf(sb, " width=%u", e->width);
	if (e->fast)
		strbuf_puts(sb, " fast");
}

const char *counter_kind_name(enum counter_kind kind)
{
	static const char *const names[] = {
		[COUNTER_GP]		= "gp",
		[COUNTER_FIXED]		= "fixed",
		[COUNTER_METRICS]	= "metrics",
		[COUNTER_PMC]		= "pmc",
		[COUNTER_AMD_CORE]	= "core",
		[COUNTER_AMD_NB]	= "nb",
		[COUNTER_AMD_L2]	= "l2",
	};

	if ((unsigned)kind >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[kind];
}

const char *cpu_mode_name(enum cpu_mode mode)
{
	static const char *const names[] = {
		[MODE_REAL]	= "real",
		[MODE_V86]	= "v86",
		[MODE_PROT16]	= "prot16",
		[MODE_PROT32]	= "prot32",
		[MODE_COMPAT]	= "compat",
		[MODE_LONG]	= "long",
	};

	if ((unsigned)mode >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[mode];
}
