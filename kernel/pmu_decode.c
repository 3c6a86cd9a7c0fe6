/*
 * pmu_decode: the raw enumeration (struct pmu_cpuid) decoded into the fields
 * the spec talks about (struct pmu_info). Pure: see model.h.
 *
 * Leaves of the other vendor are reserved there, so Intel fields stay zero on
 * AMD and AMD fields stay zero on Intel; a vendor that is neither gets only
 * family / model / stepping.
 */
#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define PDCM			(1u << 15)	/* CPUID.01H:ECX */
#define PERF_CAP_FW_WRITE	(1ull << 13)
#define PERF_CAP_PERF_METRICS	(1ull << 15)
#define PERF_CAP_METRICS_CLEAR	(1ull << 19)
#define AMD_PERF_CTR_EXT_CORE	(1u << 23)	/* CPUID 8000_0001H:ECX */
#define AMD_PERF_CTR_EXT_NB	(1u << 24)
#define AMD_PERF_CTR_EXT_LLC	(1u << 28)
#define AMD_PERFMON_V2		(1u << 0)	/* CPUID 8000_0022H:EAX */
#define CPUID_07_HLE		(1u << 4)	/* CPUID.(07H,0):EBX */
#define CPUID_07_RTM		(1u << 11)
#define CPUID_07_TSX_FORCE_ABORT (1u << 13)	/* CPUID.(07H,0):EDX */
#define ARCH_CAP_TSX_CTRL	(1ull << 7)	/* IA32_ARCH_CAPABILITIES */
#define LEAF23_UMASK2		(1u << 0)	/* CPUID.23H.00H:EBX */
#define LEAF23_EQ		(1u << 1)

static unsigned field(uint32_t reg, unsigned low, unsigned bits)
{
	return (reg >> low) & ((1u << bits) - 1);
}

/* Bits 0 .. n-1 set; every bit for n >= 32. */
static uint32_t low_bits(unsigned n)
{
	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/*
 * SDM Vol. 2A CPUID, "display family / model": the extended family is added
 * only to family 0FH, the extended model is prefixed for families 06H and 0FH.
 */
static void decode_signature(uint32_t eax, struct pmu_info *out)
{
	unsigned family = field(eax, 8, 4), model = field(eax, 4, 4);

	out->stepping = field(eax, 0, 4);
	out->family = family == 0xf ? family + field(eax, 20, 8) : family;
	out->model = family == 0x6 || family == 0xf
		     ? (field(eax, 16, 4) << 4) + model : model;
}

static void clear_intel(struct pmu_info *out)
{
	out->version = 0;
	out->gp_count = 0;
	out->gp_width = 0;
	out->events_length = 0;
	out->events_unavailable = 0;
	out->fixed_count = 0;
	out->fixed_width = 0;
	out->fixed_bitmap = 0;
	out->has_leaf23 = false;
	out->gp_bitmap23 = 0;
	out->fixed_bitmap23 = 0;
	out->gp_valid = 0;
	out->fixed_valid = 0;
	out->tsx = false;
	out->tsx_may_be_hidden = false;
	out->evtsel_umask2 = false;
	out->evtsel_eq = false;
	out->pdcm = false;
	out->has_perf_capabilities = false;
	out->fw_write = false;
	out->perf_metrics = false;
	out->rdpmc_metrics_clear = false;
}

static void clear_amd(struct pmu_info *out)
{
	out->amd_ext_core = false;
	out->amd_ext_nb = false;
	out->amd_ext_llc = false;
	out->amd_core_count = 0;
	out->amd_perfmon_v2 = false;
	out->amd_v2_core_count = 0;
}

static void decode_intel(const struct pmu_cpuid *raw, struct pmu_info *out)
{
	uint32_t eax = raw->leaf0a_eax, edx = raw->leaf0a_edx;

	out->version = field(eax, 0, 8);
	out->gp_count = field(eax, 8, 8);
	out->gp_width = field(eax, 16, 8);
	out->events_length = field(eax, 24, 8);
	/* PROG-4: EBX bits at and above the vector length mean nothing. */
	out->events_unavailable = raw->leaf0a_ebx & low_bits(out->events_length);
	/* ARCH-3, ARCH-7: EDX counts fixed counters only for version > 1. */
	out->fixed_count = out->version > 1 ? field(edx, 0, 5) : 0;
	out->fixed_width = out->version > 1 ? field(edx, 5, 8) : 0;
	out->fixed_bitmap = raw->leaf0a_ecx;
	out->has_leaf23 = raw->has_leaf23;
	out->gp_bitmap23 = raw->has_leaf23 ? raw->leaf23_1_eax : 0;
	out->fixed_bitmap23 = raw->has_leaf23 ? raw->leaf23_1_ebx : 0;
	/* ARCH-2, ARCH-3: the valid indices 0..31 by every criterion. */
	out->gp_valid = low_bits(out->gp_count) | out->gp_bitmap23;
	out->fixed_valid = low_bits(out->fixed_count) | out->fixed_bitmap |
			   out->fixed_bitmap23;

	/* PROG-12: IN_TX and IN_TXCP exist where HLE or RTM is enumerated.
	 * Without them TSX may still be there with its CPUID bits cleared,
	 * by IA32_TSX_CTRL (ARCH_CAPABILITIES[7]) or TSX_FORCE_ABORT. */
	out->tsx = (raw->leaf07_ebx & (CPUID_07_HLE | CPUID_07_RTM)) != 0;
	out->tsx_may_be_hidden = !out->tsx &&
		((raw->leaf07_edx & CPUID_07_TSX_FORCE_ABORT) ||
		 (raw->has_arch_capabilities &&
		  (raw->arch_capabilities & ARCH_CAP_TSX_CTRL)));
	/* PROG-13: CPUID.23H.00H:EBX enumerates UMASK2 and EQ. */
	out->evtsel_umask2 = (raw->leaf23_0_ebx & LEAF23_UMASK2) != 0;
	out->evtsel_eq = (raw->leaf23_0_ebx & LEAF23_EQ) != 0;

	/* MET-3: IA32_PERF_CAPABILITIES exists only where PDCM says so. */
	out->pdcm = (raw->leaf01_ecx & PDCM) != 0;
	out->has_perf_capabilities = out->pdcm && raw->has_perf_capabilities;
	if (out->has_perf_capabilities) {
		uint64_t caps = raw->perf_capabilities;

		out->fw_write = (caps & PERF_CAP_FW_WRITE) != 0;
		out->perf_metrics = (caps & PERF_CAP_PERF_METRICS) != 0;
		out->rdpmc_metrics_clear = (caps & PERF_CAP_METRICS_CLEAR) != 0;
	}
}

static void decode_amd(const struct pmu_cpuid *raw, struct pmu_info *out)
{
	out->amd_ext_core = (raw->ext01_ecx & AMD_PERF_CTR_EXT_CORE) != 0;
	out->amd_ext_nb = (raw->ext01_ecx & AMD_PERF_CTR_EXT_NB) != 0;
	out->amd_ext_llc = (raw->ext01_ecx & AMD_PERF_CTR_EXT_LLC) != 0;
	out->amd_core_count = out->amd_ext_core ? 6 : 4;	/* AMD-2 */
	out->amd_perfmon_v2 = (raw->ext22_eax & AMD_PERFMON_V2) != 0;
	out->amd_v2_core_count = out->amd_perfmon_v2
				 ? field(raw->ext22_ebx, 0, 4) : 0;
}

void pmu_decode(const struct pmu_cpuid *raw, struct pmu_info *out)
{
	out->vendor = raw->vendor;
	decode_signature(raw->leaf01_eax, out);
	clear_intel(out);
	clear_amd(out);
	if (raw->vendor == VENDOR_INTEL)
		decode_intel(raw, out);
	else if (raw->vendor == VENDOR_AMD)
		decode_amd(raw, out);
}
