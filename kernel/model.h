/*
 * The model: what the spec (docs/spec.md) requires RDPMC to do for a
 * given enumeration and execution state. Pure and freestanding: no globals,
 * no I/O, no kernel headers. The kernel and the host tools (pmctest-model,
 * the unit tests, pmctest-sim) compile this same source.
 */
#ifndef PMCTEST_MODEL_H
#define PMCTEST_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

enum vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

/* The sub-leaves of CPUID.0BH and 1FH read (SMP-8): 0BH defines two
 * levels and the invalid one that ends them; 1FH's first two levels and
 * the one above them decide every rule SMP-8 states. */
#define TOPOLOGY_SUBLEAVES 4

/* One sub-leaf of CPUID.0BH or 1FH. EDX, the x2APIC ID, is left out: it
 * differs from CPU to CPU, the levels do not. */
struct cpuid_topology_level {
	uint32_t eax;			/* [4:0]: the x2APIC ID shift */
	uint32_t ebx;			/* [15:0]: logical processors at this level */
	uint32_t ecx;			/* [7:0]: the sub-leaf, [15:8]: the level type */
};

/* The raw enumeration, exactly as CPUID and RDMSR returned it. */
struct pmu_cpuid {
	enum vendor vendor;
	uint32_t leaf01_eax;		/* family / model / stepping (MET-3) */
	uint32_t leaf01_ecx;		/* bit 15: PDCM */
	uint32_t leaf07_ebx;		/* CPUID.(07H,0):EBX: HLE [4], RTM [11] */
	uint32_t leaf07_edx;		/* TSX_FORCE_ABORT [13], Hybrid [15] (SMP-1), ARCH_CAPABILITIES [29] */
	uint32_t leaf0a_eax, leaf0a_ebx, leaf0a_ecx, leaf0a_edx;
	bool has_leaf23;		/* CPUID.23H.01H is enumerated */
	uint32_t leaf23_1_eax, leaf23_1_ebx;
	uint32_t leaf23_0_ebx;		/* UMASK2 [0], EQ [1]; 0 below leaf 23H */
	bool has_leaf0b, has_leaf1f;	/* CPUID.00H:EAX >= 0BH, >= 1FH */
	struct cpuid_topology_level leaf0b[TOPOLOGY_SUBLEAVES];
	struct cpuid_topology_level leaf1f[TOPOLOGY_SUBLEAVES];
	uint32_t ext01_ecx;		/* CPUID 8000_0001H:ECX */
	uint32_t ext22_eax, ext22_ebx;	/* CPUID 8000_0022H */
	bool has_perf_capabilities;	/* IA32_PERF_CAPABILITIES was read */
	uint64_t perf_capabilities;
	bool has_arch_capabilities;	/* IA32_ARCH_CAPABILITIES was read */
	uint64_t arch_capabilities;	/* bit 7: IA32_TSX_CTRL exists */
};

/* The enumeration decoded into the fields the spec talks about. */
struct pmu_info {
	enum vendor vendor;
	unsigned family, model, stepping;	/* display family / model */
	/* Intel architectural PMU, CPUID.0AH */
	unsigned version;		/* EAX[7:0] */
	unsigned gp_count;		/* EAX[15:8] */
	unsigned gp_width;		/* EAX[23:16] */
	unsigned events_length;		/* EAX[31:24] */
	uint32_t events_unavailable;	/* EBX, bits below events_length */
	unsigned fixed_count;		/* EDX[4:0], 0 unless version > 1 */
	unsigned fixed_width;		/* EDX[12:5], 0 unless version > 1 */
	uint32_t fixed_bitmap;		/* ECX: fixed counter i supported */
	bool has_leaf23;
	uint32_t gp_bitmap23;		/* CPUID.23H.01H:EAX */
	uint32_t fixed_bitmap23;	/* CPUID.23H.01H:EBX */
	uint32_t gp_valid;		/* ARCH-2: valid GP indices 0..31 */
	uint32_t fixed_valid;		/* ARCH-3: valid fixed indices 0..31 */
	/* IA32_PERFEVTSELx extensions (PROG-12, PROG-13) */
	bool tsx;			/* CPUID.07H:EBX HLE or RTM: IN_TX, IN_TXCP */
	bool tsx_may_be_hidden;		/* no HLE, RTM, but an MSR that clears them */
	bool evtsel_umask2;		/* CPUID.23H.00H:EBX[0]: bits 47:40 */
	bool evtsel_eq;			/* CPUID.23H.00H:EBX[1]: bit 36 */
	/* IA32_PERF_CAPABILITIES (only where PDCM says it exists, MET-3) */
	bool pdcm;
	bool has_perf_capabilities;
	bool fw_write;			/* bit 13 */
	bool perf_metrics;		/* bit 15: PERF_METRICS_AVAILABLE */
	bool rdpmc_metrics_clear;	/* bit 19 */
	/* AMD, CPUID 8000_0001H:ECX and 8000_0022H */
	bool amd_ext_core;		/* bit 23: PerfCtrExtCore */
	bool amd_ext_nb;		/* bit 24: PerfCtrExtNB */
	bool amd_ext_llc;		/* bit 28: PerfCtrExtLLC */
	unsigned amd_core_count;	/* 4, or 6 with PerfCtrExtCore */
	bool amd_perfmon_v2;		/* 8000_0022H:EAX[0] */
	unsigned amd_v2_core_count;	/* 8000_0022H:EBX[3:0] */
};

void pmu_decode(const struct pmu_cpuid *raw, struct pmu_info *out);

/* Where RDPMC executes. */
enum cpu_mode {
	MODE_REAL,	/* real-address mode, CR0.PE = 0 */
	MODE_V86,	/* virtual-8086 mode, always CPL 3 */
	MODE_PROT16,	/* protected mode, 16-bit code segment */
	MODE_PROT32,	/* protected mode, 32-bit code segment */
	MODE_COMPAT,	/* IA-32e compatibility mode */
	MODE_LONG,	/* 64-bit mode */
};

struct exec_state {
	enum cpu_mode mode;
	unsigned cpl;		/* 0..3; 0 in real mode, 3 in v86 */
	bool pce;		/* CR4.PCE */
};

enum verdict {
	VERDICT_GP,		/* #GP(0) */
	VERDICT_READ,		/* a read of the counter below */
	VERDICT_UNKNOWN,	/* model-specific: a read or #GP(0), nothing else */
};

enum counter_kind {
	COUNTER_GP,		/* Intel general-purpose, type 0000H */
	COUNTER_FIXED,		/* Intel fixed-function, type 4000H */
	COUNTER_METRICS,	/* Intel PERF_METRICS, type 2000H */
	COUNTER_PMC,		/* Intel non-architectural PMC */
	COUNTER_AMD_CORE,	/* AMD PerfCtr0-5 */
	COUNTER_AMD_NB,		/* AMD northbridge / data fabric, ECX 6-9 */
	COUNTER_AMD_L2,		/* AMD L2 / L3, ECX 10-15 */
};

struct rdpmc_expect {
	enum verdict verdict;
	/* VERDICT_READ only: */
	enum counter_kind kind;
	unsigned index;		/* index within its kind */
	unsigned width;		/* bits that may be nonzero; 0: not fixed */
	bool fast;		/* NARCH-2 fast read: EDX reads 0 */
	bool gp_also_conforms;	/* "where supported": #GP(0) conforms too */
	/* always: */
	const char *statements;	/* the spec IDs that decided, "PRIV-1 ARCH-3" */
	const char *reason;	/* VERDICT_UNKNOWN: why the spec leaves it open */
};

/*
 * What RDPMC must do for this enumeration and state with this RCX (in modes
 * other than 64-bit only ECX exists; pass it zero-extended). When `why` is
 * not NULL the reasoning is appended to it, one line per step, naming the
 * statement and the bits of the leaf that decided it.
 */
void model_rdpmc(const struct pmu_info *pmu, const struct exec_state *state,
		 uint64_t rcx, struct rdpmc_expect *out, struct strbuf *why);

/*
 * Sweeps ask the model once per span of ECX values that get the same
 * answer. model_rdpmc_span_end() is the last ECX at or after (uint32_t)rcx
 * for which model_rdpmc() gives the answer it gives for rcx (verdict,
 * counter, width, flags, statements and reason), RCX[63:32] kept: a read
 * is a span of one, a fault or an open answer usually covers the rest of
 * its type field or more. Never past FFFF_FFFFH.
 */
uint32_t model_rdpmc_span_end(const struct pmu_info *pmu,
			      const struct exec_state *state, uint64_t rcx);

/* The last answer and its span, for model_rdpmc_cached(); zero it first. */
struct model_cache {
	struct exec_state state;
	uint64_t first, last;	/* the RCX values the answer holds for */
	struct rdpmc_expect answer;
	unsigned asked;		/* how many times the model was asked; 0: empty */
};

/* model_rdpmc(pmu, state, rcx, ..., NULL), asked only when rcx leaves the
 * cached span (pmu must stay the same between calls). */
const struct rdpmc_expect *model_rdpmc_cached(struct model_cache *cache,
					      const struct pmu_info *pmu,
					      const struct exec_state *state,
					      uint64_t rcx);

/* The answer in the tool's grammar: "#GP(0)", "read fixed 1 width=48", ... */
void expect_format(const struct rdpmc_expect *e, struct strbuf *sb);

const char *cpu_mode_name(enum cpu_mode mode);	/* "long", "compat", ... */
const char *counter_kind_name(enum counter_kind kind);	/* "gp", "fixed", ... */

#endif
