/* The deviation table: see deviation.h. */
#include "deviation.h"

#include <string.h>

#include "sim_cpu.h"

static const struct deviation_info table[DEV_COUNT] = {
	[DEV_NONE] = { "none", "", "the faithful simulator" },
	[DEV_CPL3_ONLY] = { "cpl3-only", "PRIV-2",
		"only CPL 3 is restricted: CPL 1 and 2 read with CR4.PCE = 0" },
	[DEV_PCE_IGNORED] = { "pce-ignored", "PRIV-1",
		"CR4.PCE is ignored: every CPL above 0 gets #GP(0)" },
	[DEV_GP_ERROR_CODE] = { "gp-error-code", "PRIV-1",
		"the #GP of RDPMC carries error code 1 instead of 0" },
	[DEV_UD_INSTEAD_OF_READ] = { "ud-instead-of-read", "PRIV-1",
		"the emulator lacks RDPMC: a permitted RDPMC raises #UD" },
	[DEV_FAST_FLAG_ACCEPTED] = { "fast-flag-accepted", "ARCH-6",
		"ECX[31] is dropped on an architectural PMU instead of #GP(0)" },
	[DEV_TYPE_IGNORED] = { "type-ignored", "ARCH-1 ARCH-5",
		"ECX[31:16] is not checked: an undefined type reads a GP counter" },
	[DEV_INDEX_OFF_BY_ONE] = { "index-off-by-one", "ARCH-2 ARCH-3",
		"index x is valid up to and including the enumerated count" },
	[DEV_BITMAP_IGNORED] = { "bitmap-ignored", "ARCH-2 ARCH-3",
		"CPUID.0AH:ECX and CPUID.23H bitmaps ignored: only counts decide" },
	[DEV_V1_FIXED_ACCEPTED] = { "v1-fixed-accepted", "ARCH-3",
		"version 1 takes CPUID.0AH:EDX[4:0] as the fixed count" },
	[DEV_NO_HIGH_CLEAR] = { "no-high-clear", "MODE-1",
		"a 64-bit read keeps RAX[63:32] and RDX[63:32]" },
	[DEV_RCX_HIGH_USED] = { "rcx-high-used", "MODE-1",
		"64-bit mode decodes all of RCX: RCX[63:32] set is #GP(0)" },
	[DEV_WIDTH_UNMASKED] = { "width-unmasked", "ARCH-7 NARCH-3 AMD-3",
		"RDPMC returns the stored count without masking it to the width" },
	[DEV_EDX_NOT_ZEROED_FAST] = { "edx-not-zeroed-fast", "NARCH-2",
		"a fast read returns PMC[39:32] in EDX instead of 0" },
	[DEV_METRICS_NOT_CLEARED] = { "metrics-not-cleared", "MET-1",
		"RDPMC of PERF_METRICS with METRICS_CLEAR_EN = 1 does not clear" },
	[DEV_METRICS_ALWAYS_CLEARED] = { "metrics-always-cleared", "MET-2",
		"RDPMC of PERF_METRICS clears even with METRICS_CLEAR_EN = 0" },
	[DEV_AMD_BITS_31_30_IGNORED] = { "amd-bits-31-30-ignored", "AMD-2",
		"AMD ECX[31:30] dropped: ECX 8000_0000H reads PerfCtr0" },
	[DEV_REGS_CLOBBERED_ON_FAULT] = { "regs-clobbered-on-fault", "PRIV-6",
		"a faulting RDPMC zeroes RAX and RDX" },
	[DEV_RIP_ADVANCED_ON_FAULT] = { "rip-advanced-on-fault", "PRIV-6",
		"the #GP is reported after the RDPMC: saved RIP + 2" },
};

const struct deviation_info *deviation_info(enum deviation d)
{
	return &table[d];
}

enum deviation deviation_by_name(const char *name)
{
	for (unsigned d = 0; d < DEV_COUNT; d++)
		if (strcmp(table[d].name, name) == 0)
			return (enum deviation)d;
	return DEV_COUNT;
}

static uint32_t below(unsigned n)
{
	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

bool deviation_applies(enum deviation d, const struct sim_cpu *cpu)
{
	enum vendor vendor = cpu->enumeration.vendor;
	bool intel = vendor == VENDOR_INTEL;
	bool arch = intel && cpu->version > 0;

	switch (d) {
	case DEV_NONE:
		return true;
	case DEV_FAST_FLAG_ACCEPTED:
	case DEV_TYPE_IGNORED:
	case DEV_INDEX_OFF_BY_ONE:
		return arch;
	case DEV_BITMAP_IGNORED:	/* a bitmap adds a counter */
		return arch && ((cpu->gp_bitmap & ~below(cpu->gp_count)) ||
				(cpu->fixed_bitmap & ~below(cpu->fixed_count)));
	case DEV_V1_FIXED_ACCEPTED:
		return arch && cpu->version == 1 && cpu->edx_fixed_count > 0;
	case DEV_EDX_NOT_ZEROED_FAST:
		return intel && cpu->version == 0;
	case DEV_METRICS_NOT_CLEARED:
		return cpu->perf_metrics && cpu->metrics_clear;
	case DEV_METRICS_ALWAYS_CLEARED:
		return cpu->perf_metrics;
	case DEV_AMD_BITS_31_30_IGNORED:
		return vendor == VENDOR_AMD;
	default:
		return vendor != VENDOR_OTHER;
	}
}
