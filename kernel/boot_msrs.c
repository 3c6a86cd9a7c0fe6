#include "boot_msrs.h"

#include "cpus.h"
#include "exec.h"

static const struct {
	uint32_t first;
	unsigned count;
} ranges[] = {
	{ 0x0C1, 32 },		/* IA32_PMCx */
	{ 0x186, 32 },		/* IA32_PERFEVTSELx */
	{ 0x309, 16 },		/* IA32_FIXED_CTRx */
	{ 0x38D, 3 },		/* IA32_FIXED_CTR_CTRL, _PERF_GLOBAL_STATUS, _CTRL */
	{ 0xC0010000, 8 },	/* PerfEvtSel0-3, PerfCtr0-3 */
	{ 0xC0010200, 12 },	/* PERF_CTL0-5 / PERF_CTR0-5 (PerfCtrExtCore) */
	{ 0xC0000300, 2 },	/* PerfCntrGlobalStatus, PerfCntrGlobalCtl */
};

#define RANGES		(sizeof(ranges) / sizeof(ranges[0]))
#define BOOT_MSRS	(32 + 32 + 16 + 3 + 8 + 12 + 2)

static struct {
	bool read;		/* RDMSR completed */
	uint64_t value;
} found[CPUS_MAX][BOOT_MSRS];
static bool recorded[CPUS_MAX];

/* The index of msr in found[], or BOOT_MSRS. */
static unsigned slot(uint32_t msr)
{
	unsigned i = 0;

	for (unsigned r = 0; r < RANGES; r++) {
		if (msr >= ranges[r].first && msr - ranges[r].first < ranges[r].count)
			return i + (msr - ranges[r].first);
		i += ranges[r].count;
	}
	return BOOT_MSRS;
}

void boot_msrs_record(void)
{
	unsigned cpu = platform_this_cpu();
	struct exec_outcome o;

	if (cpu >= CPUS_MAX)
		return;
	for (unsigned r = 0; r < RANGES; r++) {
		for (unsigned k = 0; k < ranges[r].count; k++) {
			unsigned i = slot(ranges[r].first + k);

			exec_rdmsr(ranges[r].first + k, &o);
			found[cpu][i].read = !o.faulted;
			found[cpu][i].value = edx_eax(&o);
		}
	}
	recorded[cpu] = true;
}

bool boot_msrs_recorded(void)
{
	unsigned cpu = platform_this_cpu();

	return cpu < CPUS_MAX && recorded[cpu];
}

bool boot_msr(uint32_t msr, uint64_t *value)
{
	unsigned i = slot(msr), cpu = platform_this_cpu();

	if (i == BOOT_MSRS || cpu >= CPUS_MAX || !found[cpu][i].read)
		return false;
	*value = found[cpu][i].value;
	return true;
}
