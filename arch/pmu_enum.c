#include "pmu_enum.h"

#include "cpu.h"
#include "exec.h"
#include "msr.h"

#define CPUID_01_ECX_PDCM		(1u << 15)
#define CPUID_07_EDX_ARCH_CAPABILITIES	(1u << 29)

static bool same_vendor(const char *a, const char *b)
{
	for (int i = 0; i < 12; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

void cpu_vendor_string(char out[13])
{
	struct cpuid_regs r = cpuid(0, 0);
	uint32_t words[3] = { r.ebx, r.edx, r.ecx };

	for (int i = 0; i < 12; i++)
		out[i] = (char)(words[i / 4] >> (8 * (i % 4)));
	out[12] = '\0';
}

static void read_level(uint32_t leaf, uint32_t n, struct cpuid_topology_level *out)
{
	struct cpuid_regs r = cpuid(leaf, n);

	*out = (struct cpuid_topology_level){ r.eax, r.ebx, r.ecx };
}

void pmu_enumerate(struct pmu_cpuid *raw)
{
	char vendor[13];
	uint32_t max_leaf = cpuid(0, 0).eax;
	uint32_t max_ext = cpuid(0x80000000, 0).eax;

	*raw = (struct pmu_cpuid){ 0 };
	cpu_vendor_string(vendor);
	raw->vendor = same_vendor(vendor, "GenuineIntel") ? VENDOR_INTEL
		      : same_vendor(vendor, "AuthenticAMD") ? VENDOR_AMD
		      : VENDOR_OTHER;

	struct cpuid_regs leaf1 = cpuid(1, 0);

	raw->leaf01_eax = leaf1.eax;
	raw->leaf01_ecx = leaf1.ecx;
	if (max_leaf >= 0x07) {
		struct cpuid_regs r = cpuid(0x07, 0);

		raw->leaf07_ebx = r.ebx;
		raw->leaf07_edx = r.edx;
	}
	if (max_leaf >= 0x0A) {
		struct cpuid_regs r = cpuid(0x0A, 0);

		raw->leaf0a_eax = r.eax;
		raw->leaf0a_ebx = r.ebx;
		raw->leaf0a_ecx = r.ecx;
		raw->leaf0a_edx = r.edx;
	}
	/* CPUID.23H.00H: EBX the event-select extensions (PROG-13); EAX
	 * bit 1: sub-leaf 1 (counter bitmaps) is valid. */
	if (max_leaf >= 0x23)
		raw->leaf23_0_ebx = cpuid(0x23, 0).ebx;
	if (max_leaf >= 0x23 && (cpuid(0x23, 0).eax & 2)) {
		struct cpuid_regs r = cpuid(0x23, 1);

		raw->has_leaf23 = true;
		raw->leaf23_1_eax = r.eax;
		raw->leaf23_1_ebx = r.ebx;
	}
	/* SMP-8: the topology levels, read where the leaf exists. */
	raw->has_leaf0b = max_leaf >= 0x0B;
	raw->has_leaf1f = max_leaf >= 0x1F;
	for (uint32_t n = 0; n < TOPOLOGY_SUBLEAVES; n++) {
		if (raw->has_leaf0b)
			read_level(0x0B, n, &raw->leaf0b[n]);
		if (raw->has_leaf1f)
			read_level(0x1F, n, &raw->leaf1f[n]);
	}
	if (max_ext >= 0x80000001)
		raw->ext01_ecx = cpuid(0x80000001, 0).ecx;
	if (max_ext >= 0x80000022) {
		struct cpuid_regs r = cpuid(0x80000022, 0);

		raw->ext22_eax = r.eax;
		raw->ext22_ebx = r.ebx;
	}
	/* MET-3: PERF_CAPABILITIES exists only where CPUID.01H:ECX.PDCM = 1. */
	if (raw->leaf01_ecx & CPUID_01_ECX_PDCM) {
		struct exec_outcome o;

		exec_rdmsr(MSR_IA32_PERF_CAPABILITIES, &o);
		raw->has_perf_capabilities = !o.faulted;
		raw->perf_capabilities = o.faulted ? 0 : o.rdx << 32 | (uint32_t)o.rax;
	}
	/* PROG-12: its TSX_CTRL bit says whether TSX may be hidden. */
	if (raw->leaf07_edx & CPUID_07_EDX_ARCH_CAPABILITIES) {
		struct exec_outcome o;

		exec_rdmsr(MSR_IA32_ARCH_CAPABILITIES, &o);
		raw->has_arch_capabilities = !o.faulted;
		raw->arch_capabilities = o.faulted ? 0 : o.rdx << 32 | (uint32_t)o.rax;
	}
}
