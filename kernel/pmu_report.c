#include "pmu_report.h"

#include "console.h"

static const char *vendor_name(enum vendor v)
{
	return v == VENDOR_INTEL ? "Intel" : v == VENDOR_AMD ? "AMD" : "other";
}

void pmu_report(const struct pmu_cpuid *raw)
{
	struct pmu_info p;

	pmu_decode(raw, &p);
	console_printf("# cpu: %s family 0x%x model 0x%x stepping %u\n",
		       vendor_name(p.vendor), p.family, p.model, p.stepping);
	console_printf("# cpuid: 01.eax=0x%08x 01.ecx=0x%08x 0a.eax=0x%08x 0a.ebx=0x%08x 0a.ecx=0x%08x 0a.edx=0x%08x\n",
		       raw->leaf01_eax, raw->leaf01_ecx, raw->leaf0a_eax,
		       raw->leaf0a_ebx, raw->leaf0a_ecx, raw->leaf0a_edx);
	console_printf("# cpuid: 07.ebx=0x%08x 07.edx=0x%08x 23.0.ebx=0x%08x\n",
		       raw->leaf07_ebx, raw->leaf07_edx, raw->leaf23_0_ebx);
	if (raw->has_leaf23)
		console_printf("# cpuid: 23.1.eax=0x%08x 23.1.ebx=0x%08x\n",
			       raw->leaf23_1_eax, raw->leaf23_1_ebx);
	if (raw->has_arch_capabilities)
		console_printf("# arch_capabilities: 0x%llx\n",
			       (unsigned long long)raw->arch_capabilities);
	console_printf("# cpuid: 80000001.ecx=0x%08x 80000022.eax=0x%08x 80000022.ebx=0x%08x\n",
		       raw->ext01_ecx, raw->ext22_eax, raw->ext22_ebx);
	if (p.has_perf_capabilities)
		console_printf("# perf_capabilities: 0x%llx (full-width writes %s, perf metrics %s, rdpmc metrics clear %s)\n",
			       (unsigned long long)raw->perf_capabilities,
			       p.fw_write ? "yes" : "no",
			       p.perf_metrics ? "yes" : "no",
			       p.rdpmc_metrics_clear ? "yes" : "no");
	if (p.vendor == VENDOR_AMD) {
		console_printf("# pmu: AMD, %u core counters%s%s%s\n",
			       p.amd_core_count,
			       p.amd_ext_nb ? ", northbridge counters" : "",
			       p.amd_ext_llc ? ", L2/L3 counters" : "",
			       p.amd_perfmon_v2 ? ", PerfMonV2" : "");
	} else if (p.version == 0) {
		console_printf("# pmu: no architectural PMU (CPUID.0AH:EAX[7:0] = 0)\n");
	} else {
		console_printf("# pmu: architectural version %u, %u gp counters x %u bits, %u fixed x %u bits, fixed bitmap 0x%x, events unavailable 0x%x of %u\n",
			       p.version, p.gp_count, p.gp_width, p.fixed_count,
			       p.fixed_width, p.fixed_bitmap,
			       p.events_unavailable, p.events_length);
	}
}
