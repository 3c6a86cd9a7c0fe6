/*
 * model_test: model_rdpmc() against the spec, one row per case. A row is a
 * query (query.h syntax: enumeration, state, ECX), the answer expect_format()
 * must give, and the statement IDs `statements` must name ("!ID": must not).
 * Every row also checks that the reasoning names each ID in `statements`.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "model_cpus.h"
#include "query.h"
#include "strbuf.h"
#include "suites.h"
#include "tap.h"

#define GP "#GP(0)"

struct model_case {
	const char *name;
	const char *query;
	const char *answer;
	const char *ids;
};

static const struct model_case cases[] = {
	/* Privilege: PRIV-1..5, AMD-1. */
	{ "PRIV-1 CPL 0 reads", ICL "cpl=0 ecx=0",
	  "read gp 0 width=48", "PRIV-1 ARCH-2" },
	{ "PRIV-1 CPL 3, PCE 0 faults", ICL "cpl=3 ecx=0",
	  GP, "PRIV-1 PRIV-5 !PRIV-2 !ARCH-2" },
	{ "PRIV-1 CPL 3, PCE 1 reads", ICL "cpl=3 pce=1 ecx=0",
	  "read gp 0 width=48", "PRIV-1" },
	{ "PRIV-2 CPL 1, PCE 0 faults like CPL 3", ICL "cpl=1 ecx=0",
	  GP, "PRIV-1 PRIV-2 PRIV-5" },
	{ "PRIV-2 CPL 2, PCE 0 faults like CPL 3", ICL "cpl=2 ecx=0",
	  GP, "PRIV-1 PRIV-2 PRIV-5" },
	{ "PRIV-2 CPL 1, PCE 1 reads", ICL "cpl=1 pce=1 ecx=0",
	  "read gp 0 width=48", "PRIV-1 !PRIV-2" },
	{ "PRIV-2 CPL 2, PCE 1 reads", ICL "cpl=2 pce=1 ecx=0x40000001",
	  "read fixed 1 width=48", "PRIV-1 ARCH-3" },
	{ "PRIV-3 v86, PCE 0 faults", ICL "mode=v86 ecx=0",
	  GP, "PRIV-1 PRIV-3 PRIV-5" },
	{ "PRIV-3 v86, PCE 1 reads", ICL "mode=v86 pce=1 ecx=0",
	  "read gp 0 width=48", "PRIV-1 PRIV-3" },
	{ "PRIV-4 real mode, PCE 0 reads", ICL "mode=real ecx=0",
	  "read gp 0 width=48", "PRIV-4 !PRIV-1" },
	{ "PRIV-4 real mode, PCE 1 reads", ICL "mode=real pce=1 ecx=7",
	  "read gp 7 width=48", "PRIV-4" },
	{ "PRIV-4 real mode still checks ECX", ICL "mode=real ecx=0x10000",
	  GP, "PRIV-4 ARCH-5" },
	{ "PRIV-5 restricted: undefined type, #GP by privilege",
	  ICL "cpl=3 ecx=0xffffffff", GP, "PRIV-5 !ARCH-5 !ARCH-6" },
	{ "PRIV-5 restricted: valid fixed counter still faults",
	  ICL "cpl=3 ecx=0x40000000", GP, "PRIV-5 !ARCH-3" },
	{ "PRIV-5 restricted: version 0 PMC index", V0 "cpl=3 ecx=5",
	  GP, "PRIV-5 !NARCH-1" },
	{ "PRIV-5 restricted: AMD counter beyond 15", ZEN3 "cpl=3 ecx=99",
	  GP, "PRIV-5 AMD-1 !AMD-2" },
	{ "AMD-1 CPL 3, PCE 0 faults", ZEN3 "cpl=3 ecx=0",
	  GP, "PRIV-1 PRIV-5 AMD-1" },
	{ "AMD-1 CPL 2, PCE 0 faults", ZEN3 "cpl=2 ecx=0",
	  GP, "PRIV-2 AMD-1" },
	{ "AMD-1 CPL 3, PCE 1 reads", ZEN3 "cpl=3 pce=1 ecx=0",
	  "read core 0 width=48", "PRIV-1 AMD-1 AMD-2" },
	{ "AMD-1 v86, PCE 0 faults", ZEN3 "mode=v86 ecx=0",
	  GP, "PRIV-3 AMD-1" },
	{ "AMD-1 real mode reads", ZEN3 "mode=real ecx=1",
	  "read core 1 width=48", "PRIV-4 AMD-2" },

	/* ARCH-1 and ARCH-6: every defined type and its neighbours. */
	{ "ARCH-1 type 0000H: general-purpose", ICL "ecx=0x00000001",
	  "read gp 1 width=48", "ARCH-1 ARCH-2 ARCH-7" },
	{ "ARCH-1 type 0001H: undefined", ICL "ecx=0x00010000",
	  GP, "ARCH-1 ARCH-5 !ARCH-6" },
	{ "ARCH-1 type 1FFFH: undefined", ICL "ecx=0x1fff0000",
	  GP, "ARCH-1 ARCH-5" },
	{ "ARCH-1 type 2001H: undefined", METRICS "ecx=0x20010000",
	  GP, "ARCH-1 ARCH-5 !ARCH-4" },
	{ "ARCH-1 type 3FFFH: undefined", ICL "ecx=0x3fff0000",
	  GP, "ARCH-1 ARCH-5" },
	{ "ARCH-1 type 4000H: fixed-function", ICL "ecx=0x40000000",
	  "read fixed 0 width=48", "ARCH-1 ARCH-3 ARCH-7" },
	{ "ARCH-1 type 4001H: undefined", ICL "ecx=0x40010000",
	  GP, "ARCH-1 ARCH-5" },
	{ "ARCH-1 type 6000H: undefined", METRICS "ecx=0x60000000",
	  GP, "ARCH-1 ARCH-5" },
	{ "ARCH-1 type 7FFFH: undefined", ICL "ecx=0x7fff0000",
	  GP, "ARCH-1 ARCH-5 !ARCH-6" },
	{ "ARCH-6 type 8000H: the fast flag alone", ICL "ecx=0x80000000",
	  GP, "ARCH-1 ARCH-5 ARCH-6" },
	{ "ARCH-6 fast flag on GP 1", ICL "ecx=0x80000001",
	  GP, "ARCH-6" },
	{ "ARCH-6 fast flag on fixed 0 (C000H)", ICL "ecx=0xc0000000",
	  GP, "ARCH-6" },
	{ "ARCH-6 fast flag on PERF_METRICS (A000H)", METRICS "ecx=0xa0000000",
	  GP, "ARCH-6" },
	{ "ARCH-6 type FFFFH", ICL "ecx=0xffff0000", GP, "ARCH-6" },

	/* ARCH-2: general-purpose indices. */
	{ "ARCH-2 GP index count-1", ICL "ecx=7",
	  "read gp 7 width=48", "ARCH-2" },
	{ "ARCH-2 GP index count", ICL "ecx=8", GP, "ARCH-2 ARCH-5" },
	{ "ARCH-2 GP index 31", ICL "ecx=31", GP, "ARCH-2 ARCH-5" },
	{ "ARCH-2 GP index 32", ICL "ecx=32", GP, "ARCH-2 ARCH-5" },
	{ "ARCH-2 GP index FFFFH", ICL "ecx=0xffff", GP, "ARCH-5" },
	{ "ARCH-2 GP count 0", "cpuid.0a.eax=0x07300002 ecx=0",
	  GP, "ARCH-2" },
	{ "ARCH-2 GP count 40: index 32", "cpuid.0a.eax=0x07302802 ecx=32",
	  "read gp 32 width=48", "ARCH-2" },
	{ "ARCH-2 GP count 40: index 39", "cpuid.0a.eax=0x07302802 ecx=39",
	  "read gp 39 width=48", "ARCH-2" },
	{ "ARCH-2 GP count 40: index 40", "cpuid.0a.eax=0x07302802 ecx=40",
	  GP, "ARCH-2 ARCH-5" },
	{ "ARCH-2 sparse 23H: index 3 by count", SPARSE "ecx=3",
	  "read gp 3 width=48", "ARCH-2" },
	{ "ARCH-2 sparse 23H: index 4 by bitmap", SPARSE "ecx=4",
	  "read gp 4 width=48", "ARCH-2" },
	{ "ARCH-2 sparse 23H: index 6 in the hole", SPARSE "ecx=6",
	  GP, "ARCH-2 ARCH-5" },
	{ "ARCH-2 sparse 23H: index 11", SPARSE "ecx=11",
	  "read gp 11 width=48", "ARCH-2" },
	{ "ARCH-2 sparse 23H: index 12", SPARSE "ecx=12", GP, "ARCH-5" },
	{ "ARCH-2 sparse 23H: index 30", SPARSE "ecx=30", GP, "ARCH-5" },
	{ "ARCH-2 sparse 23H: index 31", SPARSE "ecx=31",
	  "read gp 31 width=48", "ARCH-2" },
	{ "ARCH-2 sparse 23H: index 32 has no bit", SPARSE "ecx=32",
	  GP, "ARCH-5" },
	{ "ARCH-2 Arrow Lake: GP 8 only in 23H", ARL "ecx=8",
	  "read gp 8 width=48", "ARCH-2" },
	{ "ARCH-2 Arrow Lake: GP 9", ARL "ecx=9", "read gp 9 width=48",
	  "ARCH-2" },
	{ "ARCH-2 Arrow Lake: GP 10", ARL "ecx=10", GP, "ARCH-5" },
	{ "ARCH-2 23H present but empty: count decides",
	  ICL "cpuid.23.1.eax=0 ecx=8", GP, "ARCH-2" },

	/* ARCH-3: fixed-function indices. */
	{ "ARCH-3 fixed index count-1", ICL "ecx=0x40000003",
	  "read fixed 3 width=48", "ARCH-3" },
	{ "ARCH-3 fixed index count", ICL "ecx=0x40000004",
	  GP, "ARCH-3 ARCH-5" },
	{ "ARCH-3 fixed index 31", ICL "ecx=0x4000001f", GP, "ARCH-5" },
	{ "ARCH-3 fixed index 32", ICL "ecx=0x40000020", GP, "ARCH-5" },
	{ "ARCH-3 fixed index FFFFH", ICL "ecx=0x4000ffff", GP, "ARCH-5" },
	{ "ARCH-3 0AH:ECX bitmask: fixed 0", HOLEY "ecx=0x40000000",
	  "read fixed 0 width=48", "ARCH-3" },
	{ "ARCH-3 0AH:ECX bitmask: fixed 1 clear", HOLEY "ecx=0x40000001",
	  GP, "ARCH-3 ARCH-5" },
	{ "ARCH-3 0AH:ECX bitmask: fixed 2", HOLEY "ecx=0x40000002",
	  "read fixed 2 width=48", "ARCH-3" },
	{ "ARCH-3 0AH:ECX bitmask: fixed 31", HOLEY "ecx=0x4000001f",
	  "read fixed 31 width=48", "ARCH-3" },
	{ "ARCH-3 0AH:ECX bitmask: fixed 32", HOLEY "ecx=0x40000020",
	  GP, "ARCH-5" },
	{ "ARCH-3 count or bitmask: either suffices",
	  "cpuid.0a.eax=0x07300405 cpuid.0a.ecx=0x4 cpuid.0a.edx=0x8601 "
	  "ecx=0x40000002", "read fixed 2 width=48", "ARCH-3" },
	{ "ARCH-3 sparse 23H: fixed 2 by count", SPARSE "ecx=0x40000002",
	  "read fixed 2 width=48", "ARCH-3" },
	{ "ARCH-3 sparse 23H: fixed 3", SPARSE "ecx=0x40000003",
	  GP, "ARCH-3 ARCH-5" },
	{ "ARCH-3 sparse 23H: fixed 9 by bitmap", SPARSE "ecx=0x40000009",
	  "read fixed 9 width=48", "ARCH-3" },
	{ "ARCH-3 sparse 23H: fixed 31", SPARSE "ecx=0x4000001f",
	  "read fixed 31 width=48", "ARCH-3" },
	{ "ARCH-3 sparse 23H: fixed 32", SPARSE "ecx=0x40000020",
	  GP, "ARCH-5" },
	{ "ARCH-3 Arrow Lake: fixed 3 only in 23H", ARL "ecx=0x40000003",
	  "read fixed 3 width=48", "ARCH-3" },
	{ "ARCH-3 Arrow Lake: fixed 4", ARL "ecx=0x40000004", GP, "ARCH-5" },
	{ "ARCH-3 version 1: EDX garbage counts no fixed counter",
	  V1 "ecx=0x40000000", GP, "ARCH-3 ARCH-5" },
	{ "ARCH-3 version 1: a 0AH:ECX fixed counter has no known width",
	  V1 "cpuid.0a.ecx=1 ecx=0x40000000", "read fixed 0", "ARCH-3" },
	{ "ARCH-3 version 2 counts EDX[4:0]",
	  "cpuid.0a.eax=0x07280202 cpuid.0a.edx=0x503 ecx=0x40000002",
	  "read fixed 2 width=40", "ARCH-3 ARCH-7" },

	/* ARCH-7: widths. */
	{ "ARCH-7 GP width EAX[23:16] = 40", V1 "ecx=3",
	  "read gp 3 width=40", "ARCH-7" },
	{ "ARCH-7 GP width EAX[23:16] = 32", "cpuid.0a.eax=0x07200402 ecx=0",
	  "read gp 0 width=32", "ARCH-7" },
	{ "ARCH-7 fixed width EDX[12:5] = 40",
	  "cpuid.0a.eax=0x07280202 cpuid.0a.edx=0x503 ecx=0x40000000",
	  "read fixed 0 width=40", "ARCH-7" },

	/* ARCH-4: PERF_METRICS. */
	{ "ARCH-4 PERF_METRICS reads", METRICS "ecx=0x20000000",
	  "read metrics 0", "ARCH-1 ARCH-4 !ARCH-5" },
	{ "ARCH-4 PERF_METRICS at CPL 3 with PCE", METRICS
	  "cpl=3 pce=1 ecx=0x20000000", "read metrics 0", "PRIV-1 ARCH-4" },
	{ "ARCH-4 metrics index 1 is implementation-specific",
	  METRICS "ecx=0x20000001",
	  "unknown implementation-specific metrics index", "ARCH-4" },
	{ "ARCH-4 metrics index FFFFH is implementation-specific",
	  METRICS "ecx=0x2000ffff",
	  "unknown implementation-specific metrics index", "ARCH-4" },
	{ "ARCH-4 without PERF_METRICS_AVAILABLE",
	  ICL "cpuid.01.ecx=0x8000 perf_capabilities=0x33c5 ecx=0x20000000",
	  GP, "ARCH-4 ARCH-5" },
	{ "ARCH-4 without PERF_METRICS_AVAILABLE, index 1",
	  ICL "cpuid.01.ecx=0x8000 perf_capabilities=0 ecx=0x20000001",
	  GP, "ARCH-4 ARCH-5" },
	{ "ARCH-4 PERF_CAPABILITIES without PDCM is not trusted",
	  ICL "perf_capabilities=0x8000 ecx=0x20000000", GP, "ARCH-4" },
	{ "ARCH-4 PDCM but PERF_CAPABILITIES not read",
	  ICL "cpuid.01.ecx=0x8000 ecx=0x20000000", GP, "ARCH-4" },

	/* NARCH-1..3: version 0. */
	{ "NARCH-3 PMC0 is 40 bits", V0 "ecx=0",
	  "read pmc 0 width=40", "NARCH-1 NARCH-3" },
	{ "NARCH-3 PMC1 is 40 bits", V0 "ecx=1",
	  "read pmc 1 width=40", "NARCH-1 NARCH-3" },
	{ "NARCH-1 PMC2 is model-specific", V0 "ecx=2",
	  "unknown model-specific PMC index", "NARCH-1 !NARCH-3" },
	{ "NARCH-1 index 7FFFFFFFH is model-specific", V0 "ecx=0x7fffffff",
	  "unknown model-specific PMC index", "NARCH-1" },
	{ "NARCH-1 no type field: 40000000H is an index",
	  V0 "ecx=0x40000000", "unknown model-specific PMC index",
	  "NARCH-1 !ARCH-1" },
	{ "NARCH-1 version 0 ignores the rest of CPUID.0AH",
	  "cpuid.0a.eax=0x07300400 cpuid.0a.edx=0x603 ecx=0x40000000",
	  "unknown model-specific PMC index", "NARCH-1" },
	{ "NARCH-2 fast read of PMC0", V0 "ecx=0x80000000",
	  "read pmc 0 width=32 fast", "NARCH-1 NARCH-2" },
	{ "NARCH-2 fast read of PMC1", V0 "ecx=0x80000001",
	  "read pmc 1 width=32 fast", "NARCH-2" },
	{ "NARCH-2 fast read of PMC2 is model-specific", V0 "ecx=0x80000002",
	  "unknown model-specific PMC index", "NARCH-1" },
	{ "NARCH-1 PMC0 of a CPU the SDM does not name is model-specific",
	  V0_HIDDEN "ecx=0", "unknown model-specific PMC index", "NARCH-1 !NARCH-3" },
	{ "NARCH-1 fast PMC1 of a CPU the SDM does not name is model-specific",
	  V0_HIDDEN "ecx=0x80000001", "unknown model-specific PMC index", "NARCH-1 !NARCH-2" },
	{ "NARCH-1 Pentium 4 (family 0FH) has PMC0", "cpuid.01.eax=0x00000f29 cpuid.0a.eax=0 ecx=0",
	  "read pmc 0 width=40", "NARCH-1 NARCH-3" },
	{ "NARCH-1 P6 (family 6 model 08H) has PMC1", "cpuid.01.eax=0x00000683 cpuid.0a.eax=0 ecx=1",
	  "read pmc 1 width=40", "NARCH-1" },

	/* MODE-1, and the other modes' ECX. */
	{ "MODE-1 RCX[63:32] ignored: fixed 1", ICL "rcx=0x140000001",
	  "read fixed 1 width=48", "MODE-1 ARCH-3" },
	{ "MODE-1 RCX[63:32] all ones: GP 0", ICL "rcx=0xffffffff00000000",
	  "read gp 0 width=48", "MODE-1 ARCH-2" },
	{ "MODE-1 high bits do not repair a bad ECX",
	  ICL "rcx=0x100010000", GP, "MODE-1 ARCH-5" },
	{ "MODE-1 high bits look like no fast flag", V0 "rcx=0x8000000000000001",
	  "read pmc 1 width=40", "MODE-1 NARCH-3" },
	{ "MODE-1 on AMD", ZEN3 "rcx=0x8000000000000005",
	  "read core 5 width=48", "MODE-1 AMD-2" },
	{ "MODE-1 not named without high bits", ICL "rcx=0x40000001",
	  "read fixed 1 width=48", "!MODE-1" },
	{ "MODE-1 restricted: high bits change nothing",
	  ICL "cpl=3 rcx=0x100000000", GP, "PRIV-5 !MODE-1" },
	{ "prot16: the full ECX selects", ICL "mode=prot16 ecx=0x40000001",
	  "read fixed 1 width=48", "ARCH-3" },
	{ "compat: like protected mode", ICL "mode=compat ecx=0x40000002",
	  "read fixed 2 width=48", "ARCH-3" },

	/* AMD-2, AMD-3. */
	{ "AMD-2 legacy core 0", AMD_K8 "ecx=0",
	  "read core 0 width=48", "AMD-2 AMD-3" },
	{ "AMD-2 legacy core 3", AMD_K8 "ecx=3",
	  "read core 3 width=48", "AMD-2 AMD-3" },
	{ "AMD-2 ECX 4 needs PerfCtrExtCore", AMD_K8 "ecx=4",
	  GP, "AMD-2 !AMD-3" },
	{ "AMD-2 ECX 6 needs PerfCtrExtNB", AMD_K8 "ecx=6", GP, "AMD-2" },
	{ "AMD-2 ECX 10 needs PerfCtrExtLLC", AMD_K8 "ecx=10", GP, "AMD-2" },
	{ "AMD-2 PerfCtrExtCore: ECX 4", AMD_CORE "ecx=4",
	  "read core 4 width=48", "AMD-2" },
	{ "AMD-2 PerfCtrExtCore: ECX 5", AMD_CORE "ecx=5",
	  "read core 5 width=48", "AMD-2" },
	{ "AMD-2 PerfCtrExtCore: ECX 6", AMD_CORE "ecx=6", GP, "AMD-2" },
	{ "AMD-2 PerfCtrExtNB: ECX 6 is nb 0", AMD_NB "ecx=6",
	  "read nb 0", "AMD-2 AMD-3" },
	{ "AMD-2 PerfCtrExtNB: ECX 9 is nb 3", AMD_NB "ecx=9",
	  "read nb 3", "AMD-2" },
	{ "AMD-2 PerfCtrExtNB: ECX 10", AMD_NB "ecx=10", GP, "AMD-2" },
	{ "AMD-2 PerfCtrExtNB alone: ECX 4", AMD_NB "ecx=4", GP, "AMD-2" },
	{ "AMD-2 PerfCtrExtLLC: ECX 10 is l2 0", AMD_LLC "ecx=10",
	  "read l2 0", "AMD-2 AMD-3" },
	{ "AMD-2 PerfCtrExtLLC: ECX 15 is l2 5", AMD_LLC "ecx=15",
	  "read l2 5", "AMD-2" },
	{ "AMD-2 PerfCtrExtLLC: ECX 16", AMD_LLC "ecx=16", GP, "AMD-2" },
	{ "AMD-2 PerfCtrExtLLC alone: ECX 9", AMD_LLC "ecx=9", GP, "AMD-2" },
	{ "AMD-2 Zen 3: ECX 5", ZEN3 "ecx=5", "read core 5 width=48",
	  "AMD-2" },
	{ "AMD-2 Zen 3: ECX 9", ZEN3 "ecx=9", "read nb 3", "AMD-2" },
	{ "AMD-2 Zen 3: ECX 15", ZEN3 "ecx=15", "read l2 5", "AMD-2" },
	{ "AMD-2 Zen 3: ECX 16", ZEN3 "ecx=16", GP, "AMD-2" },
	{ "AMD-2 no type field: 40000000H", ZEN3 "ecx=0x40000000",
	  GP, "AMD-2 !ARCH-1" },
	{ "AMD-2 no fast flag: 80000000H", ZEN3 "ecx=0x80000000",
	  GP, "AMD-2 !NARCH-2" },
	{ "AMD-2 ECX[31:30] set: C0000000H", ZEN3 "ecx=0xc0000000",
	  GP, "AMD-2" },
	{ "AMD-2 ECX FFFFFFFFH", ZEN3 "ecx=0xffffffff", GP, "AMD-2" },
	{ "AMD-2 CPUID.0AH means nothing on AMD",
	  "vendor=amd cpuid.0a.eax=0x08300805 ecx=0x40000000", GP, "AMD-2" },
};

/* Is `id` one of the space-separated words of `list`? */
static bool names(const char *list, const char *id, size_t len)
{
	while (*list) {
		size_t n = strcspn(list, " ");

		if (n == len && strncmp(list, id, len) == 0)
			return true;
		list += n + (list[n] == ' ');
	}
	return false;
}

/* The first word of `ids` (wanted / "!"unwanted) that `statements` gets
 * wrong, or NULL. */
static const char *wrong_id(const char *ids, const char *statements,
			    size_t *len)
{
	while (*ids) {
		bool unwanted = *ids == '!';
		const char *id = ids + unwanted;
		size_t n = strcspn(id, " ");

		if (names(statements, id, n) == unwanted) {
			*len = n + unwanted;
			return ids;
		}
		ids = id + n + (id[n] == ' ');
	}
	return NULL;
}

/* The first ID of `statements` that the reasoning never mentions, or NULL. */
static const char *unexplained_id(const char *statements, const char *why,
				  size_t *len)
{
	char id[16];

	while (*statements) {
		size_t n = strcspn(statements, " ");

		snprintf(id, sizeof(id), "%.*s:", (int)n, statements);
		if (!strstr(why, id)) {
			*len = n;
			return statements;
		}
		statements += n + (statements[n] == ' ');
	}
	return NULL;
}

static void check_case(const struct model_case *c)
{
	char answer[128], reasoning[4096], wanted[256], seen[4096];
	struct strbuf out, why;
	struct rdpmc_expect e;
	struct pmu_info pmu;
	struct query q;
	const char *id;
	size_t len;

	strbuf_init(&out, answer, sizeof(answer));
	if (!query_parse(c->query, true, &q, &out)) {
		tap_result(false, c->name, c->answer, answer);
		return;
	}
	pmu_decode(&q.cpuid, &pmu);
	strbuf_init(&why, reasoning, sizeof(reasoning));
	model_rdpmc(&pmu, &q.state, q.rcx, &e, &why);
	expect_format(&e, &out);
	if (strcmp(answer, c->answer) != 0) {
		tap_result(false, c->name, c->answer, answer);
	} else if ((id = wrong_id(c->ids, e.statements, &len))) {
		snprintf(wanted, sizeof(wanted), "statements with %.*s",
			 (int)len, id);
		snprintf(seen, sizeof(seen), "statements %s", e.statements);
		tap_result(false, c->name, wanted, seen);
	} else if ((id = unexplained_id(e.statements, reasoning, &len))) {
		snprintf(wanted, sizeof(wanted), "a reasoning step of %.*s",
			 (int)len, id);
		tap_result(false, c->name, wanted, reasoning);
	} else {
		tap_result(true, c->name, "", "");
	}
}

/* PRIV-1..4 over every mode, CPL and CR4.PCE, against the rule as stated. */
static void check_privilege_matrix(void)
{
	static const enum cpu_mode modes[] = { MODE_REAL, MODE_V86,
		MODE_PROT16, MODE_PROT32, MODE_COMPAT, MODE_LONG };

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (unsigned cpl = 0; cpl < 4; cpl++) {
			for (unsigned pce = 0; pce < 2; pce++) {
				enum cpu_mode mode = modes[m];
				bool permitted = mode == MODE_REAL ||
					(mode != MODE_V86 && cpl == 0) || pce;
				char name[96], query[160];
				struct model_case c = {
					name, query,
					permitted ? "read fixed 1 width=48"
						  : GP,
					permitted ? "" : "PRIV-1 PRIV-5"
				};

				if ((mode == MODE_REAL && cpl != 0) ||
				    (mode == MODE_V86 && cpl != 3))
					continue;
				snprintf(name, sizeof(name),
					 "PRIV-1 matrix: mode %s, CPL %u, "
					 "PCE %u", cpu_mode_name(mode), cpl,
					 pce);
				snprintf(query, sizeof(query), ICL "mode=%s "
					 "cpl=%u pce=%u ecx=0x40000001",
					 cpu_mode_name(mode), cpl, pce);
				check_case(&c);
			}
		}
	}
}

static void answer_of(const struct pmu_cpuid *raw,
		      const struct exec_state *state, uint64_t rcx,
		      struct rdpmc_expect *e, char *text, size_t size)
{
	struct pmu_info pmu;
	struct strbuf sb;

	pmu_decode(raw, &pmu);
	model_rdpmc(&pmu, state, rcx, e, NULL);
	strbuf_init(&sb, text, size);
	expect_format(e, &sb);
}

/* What the query syntax cannot say, or what only the struct shows. */
static void check_direct(void)
{
	const struct pmu_cpuid other = { .vendor = VENDOR_OTHER,
					 .leaf0a_eax = 0x08300805 };
	const struct pmu_cpuid v0 = { .vendor = VENDOR_INTEL,
				      .leaf01_eax = 0x000006d8 };	/* Pentium M */
	const struct pmu_cpuid icl = { .vendor = VENDOR_INTEL,
				       .leaf0a_eax = 0x08300805,
				       .leaf0a_edx = 0x8604 };
	const struct exec_state ring0 = { MODE_LONG, 0, false };
	const struct exec_state ring3 = { MODE_LONG, 3, false };
	const struct exec_state v86_says_cpl0 = { MODE_V86, 0, false };
	const struct exec_state real_says_cpl3 = { MODE_REAL, 3, false };
	/* A pmu_info not from pmu_decode(): fixed_count set at version 1. */
	const struct pmu_info v1 = { .vendor = VENDOR_INTEL, .version = 1,
				     .fixed_count = 3, .fixed_width = 48 };
	struct rdpmc_expect e;
	struct strbuf sb;
	char text[128];

	answer_of(&other, &ring0, 0, &e, text, sizeof(text));
	tap_check_str("other vendor: unknown", "unknown vendor not covered "
		      "by the spec", text);
	answer_of(&other, &ring3, 0, &e, text, sizeof(text));
	tap_check_str("other vendor: privilege still applies", GP, text);
	answer_of(&icl, &v86_says_cpl0, 0, &e, text, sizeof(text));
	tap_check_str("PRIV-3 v86 is CPL 3 whatever cpl says", GP, text);
	answer_of(&icl, &real_says_cpl3, 0, &e, text, sizeof(text));
	tap_check_str("PRIV-4 real mode is permitted whatever cpl says",
		      "read gp 0 width=48", text);

	answer_of(&v0, &ring0, 0x80000001u, &e, text, sizeof(text));
	tap_result(e.fast && e.gp_also_conforms && e.width == 32,
		   "NARCH-2 fast read: fast, width 32, #GP(0) also conforms",
		   "fast=1 gp_also_conforms=1 width=32", text);
	answer_of(&v0, &ring0, 1, &e, text, sizeof(text));
	tap_result(!e.fast && !e.gp_also_conforms && e.width == 40,
		   "NARCH-3 full read: only the read conforms",
		   "fast=0 gp_also_conforms=0 width=40", text);
	answer_of(&icl, &ring0, 0x40000000u, &e, text, sizeof(text));
	tap_result(!e.gp_also_conforms && e.kind == COUNTER_FIXED &&
		   e.index == 0 && e.width == 48,
		   "ARCH-3 read: kind fixed, index 0, width 48, only a read",
		   "read fixed 0 width=48", text);
	answer_of(&icl, &ring3, 0, &e, text, sizeof(text));
	tap_check_str("#GP statements", "PRIV-1 PRIV-5", e.statements);

	model_rdpmc(&v1, &ring0, 0x40000000u, &e, NULL);
	strbuf_init(&sb, text, sizeof(text));
	expect_format(&e, &sb);
	tap_check_str("ARCH-3 version 1: fixed_count is not trusted", GP,
		      text);
}

static void check_names(void)
{
	static const char *const modes[] = { "real", "v86", "prot16",
		"prot32", "compat", "long" };
	static const char *const kinds[] = { "gp", "fixed", "metrics", "pmc",
		"core", "nb", "l2" };
	char name[64];

	for (unsigned i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "cpu_mode_name(%u)", i);
		tap_check_str(name, modes[i], cpu_mode_name((enum cpu_mode)i));
	}
	for (unsigned i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "counter_kind_name(%u)", i);
		tap_check_str(name, kinds[i],
			      counter_kind_name((enum counter_kind)i));
	}
	tap_check_str("cpu_mode_name out of range", "?",
		      cpu_mode_name((enum cpu_mode)6));
	tap_check_str("counter_kind_name out of range", "?",
		      counter_kind_name((enum counter_kind)7));
}

void test_model(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
	check_privilege_matrix();
	check_direct();
	check_names();
}
