/* topology: see topology.h. The rules are SMP-8's (docs/spec.md), read
 * from SDM Vol. 2A, CPUID leaves 0BH and 1FH, and Vol. 3A, "Hierarchical
 * Mapping of CPUID Extended Topology Leaf" and "Hierarchical Mapping of
 * Shared Resources". */
#include "topology.h"

#define LEVEL_INVALID	0	/* ECX[15:8]: ends the levels */
#define LEVEL_SMT	1	/* sub-leaf 0: the logical processors of a core */
#define LEVEL_CORE	2	/* sub-leaf 1 */
#define LEVEL_TOP_0B	2	/* Core: the last type 0BH defines */
#define LEVEL_TOP_1F	6	/* DieGrp: the last type 1FH defines */

static unsigned count_of(const struct cpuid_topology_level *l)
{
	return l->ebx & 0xffff;		/* EBX[15:0] */
}

static unsigned shift_of(const struct cpuid_topology_level *l)
{
	return l->eax & 0x1f;		/* EAX[4:0] */
}

static unsigned type_of(const struct cpuid_topology_level *l)
{
	return (l->ecx >> 8) & 0xff;	/* ECX[15:8] */
}

/* SMP-8: leaf 1FH where it exists and sub-leaf 0 counts, else 0BH so. */
static const struct cpuid_topology_level *
choose_leaf(const struct pmu_cpuid *raw, unsigned *leaf, struct strbuf *why)
{
	*leaf = 0;
	if (raw->has_leaf1f && count_of(&raw->leaf1f[0]) != 0) {
		*leaf = 0x1f;
		return raw->leaf1f;
	}
	if (raw->has_leaf0b && count_of(&raw->leaf0b[0]) != 0) {
		*leaf = 0x0b;
		return raw->leaf0b;
	}
	strbuf_puts(why, raw->has_leaf0b
		    ? "no topology: CPUID.(0BH,0):EBX[15:0] = 0, no 1FH counting"
		    : "no topology: CPUID.00H:EAX below 0BH");
	return NULL;
}

/* The rule of SMP-8 that level n (valid, or n = 0) breaks; NULL if none. */
static const char *level_broken(const struct cpuid_topology_level *levels,
				unsigned n, unsigned top_type)
{
	const struct cpuid_topology_level *l = &levels[n];
	const struct cpuid_topology_level *below = n ? &levels[n - 1] : 0;

	if ((l->ecx & 0xff) != n)
		return "ECX[7:0] not the sub-leaf";
	if (n == 0 && type_of(l) != LEVEL_SMT)
		return "sub-leaf 0 not the SMT level";
	if (n == 1 && type_of(l) != LEVEL_CORE)
		return "sub-leaf 1 not the Core level";
	/* The SDM: a higher type is not a higher level; each is one level. */
	for (unsigned k = 0; k < n; k++)
		if (type_of(&levels[k]) == type_of(l))
			return "level type repeated";
	if (type_of(l) > top_type)
		return "level type reserved";
	if (count_of(l) == 0)
		return "EBX[15:0] = 0";
	if (count_of(l) > (1ull << shift_of(l)))
		return "EBX[15:0] above 2^EAX[4:0]";
	if (below && (count_of(l) < count_of(below) ||
		      shift_of(l) < shift_of(below)))
		return "fewer processors or shift bits than below";
	return 0;
}

/* SMP-8: the levels up to the invalid one keep the rules, none follows
 * it. Returns how many are valid, 0 where a rule is broken. */
static unsigned valid_levels(const struct cpuid_topology_level *levels,
			     unsigned leaf, struct strbuf *why)
{
	unsigned top = leaf == 0x1f ? LEVEL_TOP_1F : LEVEL_TOP_0B, n = 0;
	const char *broken = 0;

	for (; n < TOPOLOGY_SUBLEAVES && !broken; n++) {
		if (n > 0 && type_of(&levels[n]) == LEVEL_INVALID)
			break;
		broken = level_broken(levels, n, top);
	}
	for (unsigned k = n + 1; !broken && k < TOPOLOGY_SUBLEAVES; k++)
		if (type_of(&levels[k]) != LEVEL_INVALID) {
			n = k + 1;
			broken = "valid level after the invalid one";
		}
	if (!broken)
		return n;
	strbuf_printf(why, "CPUID.(%02XH,%u) breaks SMP-8, %s: EAX=0x%x EBX=0x%x ECX=0x%x",
		      leaf, n - 1, broken, levels[n - 1].eax, levels[n - 1].ebx,
		      levels[n - 1].ecx);
	return 0;
}

void topology_decode(const struct pmu_cpuid *raw, struct topology *out,
		     struct strbuf *why)
{
	unsigned leaf;
	const struct cpuid_topology_level *levels = choose_leaf(raw, &leaf, why);

	*out = (struct topology){ .leaf = leaf };
	if (!levels)
		return;
	out->levels = valid_levels(levels, leaf, why);
	if (out->levels == 0)
		return;
	out->known = true;
	out->smt_count = count_of(&levels[0]);
	out->smt_shift = shift_of(&levels[0]);
	strbuf_printf(why, "CPUID.%02XH: SMT level shift %u, EBX[15:0] = %u",
		      leaf, out->smt_shift, out->smt_count);
}

bool topology_share_core(const struct topology *t, uint32_t apic_a,
			 uint32_t apic_b)
{
	return apic_a >> t->smt_shift == apic_b >> t->smt_shift;
}
