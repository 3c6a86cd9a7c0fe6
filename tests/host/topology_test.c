/*
 * topology_test: topology_decode() (SMP-8) against the levels of real and
 * emulated processors, then against each rule a hostile enumeration can
 * break. One row per enumeration: whether the topology is known, its SMT
 * shift, and what the diagnostic says; then which x2APIC IDs share a core.
 */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "tap.h"
#include "topology.h"

/* A level: EAX (shift), EBX (count), and ECX from its type and sub-leaf. */
#define LEVEL(shift, count, type, n) { (shift), (count), (type) << 8 | (n) }
#define SMT 1
#define CORE 2
#define DIE 5

struct topology_case {
	const char *name;
	struct pmu_cpuid raw;
	bool known;
	unsigned leaf, smt_shift;
	const char *says;	/* in the diagnostic: the finding or the rule */
};

static const struct topology_case cases[] = {
	{ "0BH, 2 threads a core, 8 in the package (Skylake client, HT on)",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(1, 2, SMT, 0), LEVEL(4, 8, CORE, 1),
			LEVEL(0, 0, 0, 2), LEVEL(0, 0, 0, 3) } },
	  true, 0x0b, 1,
	  "CPUID.0BH: SMT level shift 1, EBX[15:0] = 2" },
	{ "0BH, 1 thread a core (QEMU -smp 4: threads=1)",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(0, 1, SMT, 0), LEVEL(2, 4, CORE, 1),
			LEVEL(0, 0, 0, 2), LEVEL(0, 0, 0, 3) } },
	  true, 0x0b, 0,
	  "CPUID.0BH: SMT level shift 0, EBX[15:0] = 1" },
	{ "0BH, HT off: the shift kept, the count 1",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(1, 1, SMT, 0), LEVEL(4, 4, CORE, 1),
			LEVEL(0, 0, 0, 2), LEVEL(0, 0, 0, 3) } },
	  true, 0x0b, 1,
	  "shift 1, EBX[15:0] = 1" },
	{ "1FH preferred to 0BH, with a die level",
	  { .has_leaf0b = true, .has_leaf1f = true,
	    .leaf0b = { LEVEL(1, 2, SMT, 0), LEVEL(5, 16, CORE, 1) },
	    .leaf1f = { LEVEL(0, 1, SMT, 0), LEVEL(4, 8, CORE, 1),
			LEVEL(5, 16, DIE, 2), LEVEL(0, 0, 0, 3) } },
	  true, 0x1f, 0,
	  "CPUID.1FH: SMT level shift 0" },
	{ "1FH that counts nothing: 0BH read",
	  { .has_leaf0b = true, .has_leaf1f = true,
	    .leaf0b = { LEVEL(1, 2, SMT, 0), LEVEL(4, 8, CORE, 1) } },
	  true, 0x0b, 1,
	  "CPUID.0BH: SMT level shift 1" },
	{ "no leaf: CPUID.00H:EAX below 0BH", { .has_leaf0b = false }, false, 0, 0,
	  "below 0BH" },
	{ "0BH that counts nothing",
	  { .has_leaf0b = true, .leaf0b = { LEVEL(1, 0, SMT, 0) } },
	  false, 0, 0,
	  "EBX[15:0] = 0" },
	{ "Bochs count=2: sub-leaf 0 of type 0 counting 2",
	  { .has_leaf0b = true, .leaf0b = { LEVEL(1, 2, 0, 0) } },
	  false, 0x0b, 0,
	  "(0BH,0) breaks SMP-8, sub-leaf 0 not the SMT level: EAX=0x1 EBX=0x2 ECX=0x0" },
	{ "sub-leaf 0 the core level",
	  { .has_leaf0b = true, .leaf0b = { LEVEL(1, 2, CORE, 0) } },
	  false, 0x0b, 0,
	  "sub-leaf 0 not the SMT level" },
	{ "levels out of order: a die below the core",
	  { .has_leaf1f = true,
	    .leaf1f = { LEVEL(0, 1, SMT, 0), LEVEL(4, 8, DIE, 1),
			LEVEL(5, 16, CORE, 2) } },
	  false, 0x1f, 0,
	  "(1FH,1) breaks SMP-8, sub-leaf 1 not the Core level" },
	{ "a level type repeated",
	  { .has_leaf1f = true,
	    .leaf1f = { LEVEL(0, 1, SMT, 0), LEVEL(4, 8, CORE, 1),
			LEVEL(5, 16, DIE, 2), LEVEL(6, 32, DIE, 3) } },
	  false, 0x1f, 0,
	  "(1FH,3) breaks SMP-8, level type repeated" },
	{ "a type 0BH reserves",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(0, 1, SMT, 0), LEVEL(4, 8, CORE, 1),
			LEVEL(5, 16, DIE, 2) } },
	  false, 0x0b, 0,
	  "(0BH,2) breaks SMP-8, level type reserved" },
	{ "ECX[7:0] not the sub-leaf",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(0, 1, SMT, 0), LEVEL(4, 8, CORE, 0) } },
	  false, 0x0b, 0,
	  "ECX[7:0] not the sub-leaf" },
	{ "a count the shift cannot number",
	  { .has_leaf0b = true, .leaf0b = { LEVEL(0, 2, SMT, 0) } },
	  false, 0x0b, 0,
	  "above 2^EAX[4:0]" },
	{ "a valid level counting nothing",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(0, 1, SMT, 0), LEVEL(4, 0, CORE, 1) } },
	  false, 0x0b, 0,
	  "EBX[15:0] = 0" },
	{ "a level counting fewer than the one below",
	  { .has_leaf0b = true,
	    .leaf0b = { LEVEL(1, 2, SMT, 0), LEVEL(4, 1, CORE, 1) } },
	  false, 0x0b, 0,
	  "fewer processors or shift bits" },
	{ "a valid level after the invalid one",
	  { .has_leaf1f = true,
	    .leaf1f = { LEVEL(0, 1, SMT, 0), LEVEL(0, 0, 0, 1),
			LEVEL(5, 16, DIE, 2) } },
	  false, 0x1f, 0,
	  "(1FH,2) breaks SMP-8, valid level after" },
};

/* SMP-8: x2APIC IDs that agree above the SMT shift share a core. */
static void check_share_core(void)
{
	struct topology ht = { .known = true, .smt_shift = 1 };
	struct topology one = { .known = true, .smt_shift = 0 };

	tap_result(topology_share_core(&ht, 0, 1), "SMP-8 shift 1: IDs 0 and 1 share a core",
		   "shared", "not shared");
	tap_result(!topology_share_core(&ht, 0, 2), "SMP-8 shift 1: IDs 0 and 2 do not",
		   "not shared", "shared");
	tap_result(!topology_share_core(&one, 4, 5), "SMP-8 shift 0: IDs 4 and 5 do not",
		   "not shared", "shared");
}

void test_topology(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct topology_case *c = &cases[i];
		struct topology t;
		char text[256], want[64], got[64], name[128];
		struct strbuf why;

		strbuf_init(&why, text, sizeof(text));
		topology_decode(&c->raw, &t, &why);
		snprintf(want, sizeof(want), "known=%d leaf=%02X shift=%u",
			 c->known, c->leaf, c->smt_shift);
		snprintf(got, sizeof(got), "known=%d leaf=%02X shift=%u",
			 t.known, t.leaf, t.smt_shift);
		snprintf(name, sizeof(name), "SMP-8 %s", c->name);
		if (tap_check_str(name, want, got))
			tap_result(strstr(text, c->says) != NULL, name, c->says, text);
	}
	check_share_core();
}
