/* The deviation table: see deviation.h. */
#include "deviation.h"

#include <string.h>

#include "cpus.h"
#include "sim_cpu.h"

static const struct deviation_info table[DEV_COUNT] = {
	[DEV_NONE] = { "none", "", "the faithful simulator" },
#define DEVIATION(id, name, statements, text) [DEV_##id] = { name, statements, text },
#include "deviation_list.h"
#undef DEVIATION
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
	/* pmctest programs counters on an architectural Intel PMU or AMD;
	 * global control and status need version 2 or PerfMonV2. */
	bool counting = arch || vendor == VENDOR_AMD;
	bool global = (arch && cpu->version >= 2) || cpu->amd_perfmon_v2;

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
	case DEV_METRICS_NOT_COUNTED:
		return cpu->perf_metrics;
	case DEV_AMD_BITS_31_30_IGNORED:
		return vendor == VENDOR_AMD;
	case DEV_PMC_WRITE_ZERO_EXTENDED:	/* IA32_PMCx is Intel's */
		return arch && cpu->gp_count > 0;
	case DEV_FIXED_WRITE_SIGN_EXTENDED:
	case DEV_FIXED_PMI_IGNORED:
		return arch && cpu->fixed_count > 0;
	case DEV_LVT_NOT_MASKED_ON_PMI:
		return arch;
	case DEV_FIXED_CAPPED_AT_THREE:
		return arch && cpu->edx_fixed_count > 3 && cpu->version > 1;
	case DEV_GLOBAL_CTRL_RESET_ZERO:
		return arch && cpu->version >= 2;
	case DEV_GLOBAL_CTRL_IGNORED:
	case DEV_OVERFLOW_STATUS_LOST:
	case DEV_STATUS_RESET_IGNORED:
	case DEV_RESERVED_BITS_ACCEPTED:
		return global;
	case DEV_STATUS_SET_IGNORED:
		return (arch && cpu->version >= 4) || cpu->amd_perfmon_v2;
	case DEV_CMASK_IGNORED:
	case DEV_INV_IGNORED:
	case DEV_EDGE_IGNORED:
	case DEV_USR_OS_SWAPPED:
	case DEV_EN_IGNORED:
	case DEV_BRANCHES_AS_INSTRUCTIONS:
	case DEV_COUNTER_SATURATES:
	case DEV_PMI_LOST:
	case DEV_PMI_WITHOUT_INT:
	case DEV_PMI_WHILE_MASKED:
	case DEV_ABSENT_MSRS_ACCEPTED:
	case DEV_HOST_COUNTER_SHORTAGE:
	case DEV_RUNNING_WRITE_LOST:
	case DEV_RUNNING_WRITE_KEEPS_PERIOD:
	case DEV_RUNNING_WRITE_ADDS_CONSTANT:
	case DEV_EXITS_NOT_COUNTED:
	case DEV_EXITS_COUNTED_DESPITE_CMASK:
	case DEV_PMI_TWICE:
	case DEV_COUNTER_WRITES_DROPPED:
	case DEV_LVT_SAMPLED_AT_WRMSR:
		return counting;
	case DEV_REF_CYCLES_PER_INSTRUCTION:	/* 3CH/01H, fixed counter 2 */
		return arch;
	case DEV_EXIT_OVERFLOW_EARLY:		/* IA32_PMCx sign extension */
		return arch && cpu->gp_count > 0;
	case DEV_FIXED_CTRL_TRUNCATED:		/* a fixed counter 2 or up */
		return arch && cpu->version >= 2 &&
		       ((cpu->fixed_bitmap & ~3u) || cpu->fixed_count > 2);
	case DEV_AMD_LVT_MASKED_ON_PMI:
	case DEV_PMU_NOT_RESET:
	case DEV_AMD_EVENTSEL_HIGH_DROPPED:
	case DEV_HG_ONLY_IGNORED:
		return vendor == VENDOR_AMD;
	case DEV_AMD_GLOBAL_CTL_RESET_ZERO:
	case DEV_AMD_GLOBAL_CTL_RESERVED_GP:
		return cpu->amd_perfmon_v2;
	case DEV_ANYTHREAD_REFUSED:
		return arch && cpu->version >= 3 && !cpu->anythread_deprecated;
	case DEV_EVTSEL_RESERVED_DROPPED:
		return arch && cpu->gp_count > 0;
	case DEV_PERF_CAPS_WITHOUT_PDCM:
		return intel && !cpu->perf_capabilities;
	case DEV_PERF_CAPS_WRITES_DROPPED:
		return intel && cpu->perf_capabilities;
	case DEV_FREEZE_REFUSED:
	case DEV_FREEZE_IGNORED:
		return arch && cpu->version >= 2 && cpu->perf_capabilities;
	case DEV_BEYOND_WIDTH_TRUNCATED:
		return arch && (cpu->fixed_count > 0 || cpu->fw_write);
	case DEV_IN_TX_REFUSED:
	case DEV_IN_TXCP_ANY_COUNTER:	/* select 0 is not IA32_PERFEVTSEL2 */
		return arch && cpu->gp_count > 0 && cpu->tsx;
	case DEV_TSX_BITS_WITHOUT_TSX:
		return arch && cpu->gp_count > 0 && !cpu->tsx;
	case DEV_EVTSEL_EXT_REFUSED:
		return arch && cpu->gp_count > 0 &&
		       (cpu->evtsel_umask2 || cpu->evtsel_eq);
	case DEV_EVTSEL_EXT_WITHOUT_LEAF23:
		return arch && cpu->gp_count > 0 &&
		       !(cpu->evtsel_umask2 && cpu->evtsel_eq);
	case DEV_INUSE_ABSENT:
	case DEV_INUSE_WRITABLE:
	case DEV_INUSE_FOLLOWS_EN:
		return arch && cpu->version >= 4;
	case DEV_PORT_IO_NOT_COUNTED:
		return counting;
	case DEV_PCE_SHARED:
	case DEV_AP_RDPMC_INTERCEPTED:
	case DEV_RDPMC_STALE_UNTIL_MSR_EXIT:
	case DEV_AP_RDPMC_HOST_COUNTS:
		return sim_cpu_total > 1 && vendor != VENDOR_OTHER;
	case DEV_ENUMERATION_DIFFERS:
		return sim_cpu_total > 1 &&
		       ((arch && cpu->gp_count > 0) || vendor == VENDOR_AMD);
	case DEV_COUNTERS_SHARED:
	case DEV_PMI_WRONG_CPU:
	case DEV_STATE_LOST_ON_SWITCH:
	case DEV_COUNTS_WHILE_DESCHEDULED:
	case DEV_PMI_TO_NEXT_VCPU:
	case DEV_PMI_BROADCAST:
	case DEV_AP_NOT_AS_INIT_LEFT:
	case DEV_AP_HANGS:
		return sim_cpu_total > 1 && counting;
	case DEV_AP_HANGS_WRITING:
		return sim_cpu_total > 1;
	case DEV_PMI_DROPPED_AT_EXIT:
	case DEV_EXIT_OVERFLOW_NO_PMI:
	case DEV_COUNTERS_LOADED_LATE:
		return sim_cpu_total > 1 && counting;
	case DEV_PMI_AGAIN_AT_REENTRY:	/* a saved status to raise it from */
		return sim_cpu_total > 1 && global;
	case DEV_ANYTHREAD_ACROSS_VCPUS:	/* where smp.anythread judges it */
		return sim_cpu_total > 1 && arch && cpu->version >= 3 &&
		       cpu->anythread_deprecated && cpu->fixed[0].present;
	case DEV_ANYTHREAD_ALL_VCPUS:	/* where smp.anythread judges it: CPU 1
					 * outside CPU 0's core (SMP-8) */
		return sim_cpu_total > 1 && arch && cpu->version >= 3 &&
		       !cpu->anythread_deprecated && cpu->fixed[0].present &&
		       platform_cpu_apic_id(0) >> cpu->smt_shift !=
		       platform_cpu_apic_id(1) >> cpu->smt_shift;
	default:
		return vendor != VENDOR_OTHER;
	}
}
