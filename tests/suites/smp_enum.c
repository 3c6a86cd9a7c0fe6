/*
 * smp.enum: the PMU's enumeration, CPUID leaves 0AH, 23H, 8000_0001H and
 * 8000_0022H, reads on this CPU as CPU 0 gave it at boot (SMP-1). Every
 * CPU's tests are judged by the model of CPU 0's enumeration, so an AP
 * that enumerates another PMU is named here, leaf, register and values.
 * On CPU 0 the read is repeated: the enumeration holds for the whole run.
 * Where both CPUs set the Hybrid flag (CPUID.07H:EDX[15]) a difference is
 * a hybrid topology, whose core types the SDM lets enumerate their own
 * PMUs: the test SKIPs saying so, as pmctest models one PMU. Otherwise
 * the topology is inconsistent, and the test fails.
 */
#include <stddef.h>

#include "cpus.h"
#include "harness.h"
#include "platform.h"

#define HYBRID (1u << 15)	/* CPUID.07H:EDX */

static const struct {
	const char *name;
	size_t offset;		/* of a uint32_t in struct pmu_cpuid */
} registers[] = {
	{ "CPUID.0AH:EAX", offsetof(struct pmu_cpuid, leaf0a_eax) },
	{ "CPUID.0AH:EBX", offsetof(struct pmu_cpuid, leaf0a_ebx) },
	{ "CPUID.0AH:ECX", offsetof(struct pmu_cpuid, leaf0a_ecx) },
	{ "CPUID.0AH:EDX", offsetof(struct pmu_cpuid, leaf0a_edx) },
	{ "CPUID.(EAX=23H,ECX=1):EAX", offsetof(struct pmu_cpuid, leaf23_1_eax) },
	{ "CPUID.(EAX=23H,ECX=1):EBX", offsetof(struct pmu_cpuid, leaf23_1_ebx) },
	{ "CPUID.8000_0001H:ECX", offsetof(struct pmu_cpuid, ext01_ecx) },
	{ "CPUID.8000_0022H:EAX", offsetof(struct pmu_cpuid, ext22_eax) },
	{ "CPUID.8000_0022H:EBX", offsetof(struct pmu_cpuid, ext22_ebx) },
};

#define REGISTERS (sizeof(registers) / sizeof(registers[0]))

static uint32_t value_of(const struct pmu_cpuid *e, unsigned r)
{
	return *(const uint32_t *)((const char *)e + registers[r].offset);
}

static void run(unsigned i)
{
	const struct pmu_cpuid *boot = platform_enumeration();
	unsigned cpu = platform_this_cpu(), differ = 0;
	struct pmu_cpuid here;
	char text[200];
	struct strbuf first;
	bool hybrid;

	(void)i;
	platform_read_enumeration(&here);
	hybrid = (here.leaf07_edx & HYBRID) && (boot->leaf07_edx & HYBRID);
	strbuf_init(&first, text, sizeof(text));
	if (here.has_leaf23 != boot->has_leaf23) {
		differ++;
		strbuf_printf(&first, "CPUID.23H.01H is %s here, %s on CPU 0 at boot",
			      here.has_leaf23 ? "enumerated" : "absent",
			      boot->has_leaf23 ? "enumerated" : "absent");
	}
	for (unsigned r = 0; r < REGISTERS; r++) {
		if (value_of(&here, r) == value_of(boot, r))
			continue;
		if (differ++ == 0)
			strbuf_printf(&first, "%s = 0x%08x here, 0x%08x on CPU 0 at boot",
				      registers[r].name, value_of(&here, r),
				      value_of(boot, r));
		else
			test_note("%s = 0x%08x here, 0x%08x on CPU 0 at boot",
				  registers[r].name, value_of(&here, r),
				  value_of(boot, r));
	}
	if (differ == 0) {
		test_note("CPU %u enumerates the PMU as CPU 0 did at boot", cpu);
		return;
	}
	if (hybrid) {
		test_skip("hybrid topology (CPUID.07H:EDX[15] set): CPU %u's %s; pmctest models one PMU",
			  cpu, text);
		return;
	}
	test_brief("%s differs", text);
	test_fail("deviation: SMP-1: the topology is inconsistent: CPU %u's enumeration differs from CPU 0's in %u register(s): %s",
		  cpu, differ, text);
}

SINGLE_TEST(smp_enum, SUITE_PER_CPU, "smp.enum", "SMP-1",
	    "CPUID 0AH, 23H, 8000_0001H and 8000_0022H read here as on CPU 0")
{
	run(i);
}
