/*
 * ecx.vmware.*: the three pseudo-PMCs of VMware's backdoor, ECX 1_0000H
 * (host TSC), 1_0001H (real time) and 1_0002H (apparent time), which a
 * hypervisor may let RDPMC read (KVM does with enable_vmware_backdoor, at
 * any CPL and whatever CR4.PCE says). The spec knows no such counters: type
 * 0001H is undefined on an architectural PMU (ARCH-1, ARCH-5), on AMD the
 * ECX is past 15 (AMD-2), so #GP(0); at CPL 3 with CR4.PCE = 0 the
 * privilege check faults first (PRIV-1, PRIV-5).
 */
#include "harness.h"
#include "rdpmc_check.h"

static const struct {
	const char *id;
	struct exec_state state;
} contexts[] = {
	{ "ecx.vmware.cpl0", { MODE_LONG, 0, false } },
	{ "ecx.vmware.cpl3.pce0", { MODE_LONG, 3, false } },
	{ "ecx.vmware.cpl3.pce1", { MODE_LONG, 3, true } },
};

#define CASES (sizeof(contexts) / sizeof(contexts[0]))
#define PSEUDO_PMCS 3
#define VMWARE_PMC0 0x10000u	/* host TSC; +1 real time, +2 apparent time */

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, contexts[i].id);
	strbuf_puts(&t->statements,
		    contexts[i].state.cpl && !contexts[i].state.pce
		    ? "PRIV-1 PRIV-5" : "ARCH-1 ARCH-5 AMD-2");
	strbuf_puts(&t->description,
		    "ECX 1_0000H-1_0002H (VMware's backdoor pseudo-PMCs) are no counters: #GP(0)");
}

static void run(unsigned i)
{
	for (uint32_t k = 0; k < PSEUDO_PMCS; k++) {
		struct rdpmc_case c = { contexts[i].state, VMWARE_PMC0 + k,
					SENTINEL_RAX, SENTINEL_RDX };

		check_rdpmc(&c);
	}
}

static const struct suite ecx_vmware = { 0, CASES, describe, run };
REGISTER_SUITE(ecx_vmware);
