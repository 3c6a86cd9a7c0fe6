#include "boot_msrs.h"

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

static struct boot_msrs at_boot;
static struct boot_msrs at_init[CPUS_MAX];
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

void boot_msrs_read(struct boot_msrs *into)
{
	struct exec_outcome o;

	for (unsigned r = 0; r < RANGES; r++) {
		for (unsigned k = 0; k < ranges[r].count; k++) {
			unsigned i = slot(ranges[r].first + k);

			exec_rdmsr(ranges[r].first + k, &o);
			into->found[i].read = !o.faulted;
			into->found[i].value = edx_eax(&o);
		}
	}
}

bool boot_msrs_value(const struct boot_msrs *from, uint32_t msr,
		     uint64_t *value)
{
	unsigned i = slot(msr);

	if (i == BOOT_MSRS || !from->found[i].read)
		return false;
	*value = from->found[i].value;
	return true;
}

void boot_msrs_record(void)
{
	boot_msrs_read(&at_boot);
}

bool boot_msr(uint32_t msr, uint64_t *value)
{
	return boot_msrs_value(&at_boot, msr, value);
}

void boot_msrs_record_cpu(unsigned cpu)
{
	if (cpu == 0 || cpu >= CPUS_MAX)
		return;
	boot_msrs_read(&at_init[cpu]);
	recorded[cpu] = true;
}

const struct boot_msrs *boot_msrs_at_init(unsigned cpu)
{
	return cpu > 0 && cpu < CPUS_MAX && recorded[cpu] ? &at_init[cpu] : 0;
}
