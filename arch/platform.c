/* kernel/platform.h on the machine itself. */
#include "platform.h"

#include "apic.h"
#include "consoles.h"
#include "context.h"
#include "cpu.h"
#include "debug_exit.h"
#include "exec.h"
#include "fbcon.h"
#include "hooks.h"
#include "kernel_boot.h"
#include "pmu_enum.h"

static struct {
	const char *protocol;
	const char *command_line;
	struct pmu_cpuid enumeration;
	uint64_t cr0, cr4;	/* as the harness left them, restored after tests */
	struct context contained;
} machine;

void kernel_boot_record(const char *protocol, const char *command_line)
{
	machine.protocol = protocol;
	machine.command_line = command_line;
	machine.cr0 = read_cr0();
	machine.cr4 = read_cr4();
	pmu_enumerate(&machine.enumeration);
}

void platform_console_write(const char *s, size_t n)
{
	consoles_write(s, n);
	fbcon_write(s, n);
}

void platform_exit(int status)
{
	consoles_flush();
	outb(DEBUG_EXIT_PORT, (uint8_t)status);
	arch_hooks->print("# pmctest: exit status %d; no isa-debug-exit device, halting\n",
			  status);
	consoles_flush();
	halt_forever();
}

static void print_hypervisor(void)
{
	struct cpuid_regs r;
	char sig[13];
	uint32_t words[3];

	if (!(cpuid(1, 0).ecx & (1u << 31))) {	/* CPUID.01H:ECX.hypervisor */
		arch_hooks->print("# hypervisor: none reported\n");
		return;
	}
	r = cpuid(0x40000000, 0);
	words[0] = r.ebx;
	words[1] = r.ecx;
	words[2] = r.edx;
	for (int i = 0; i < 12; i++) {
		char c = (char)(words[i / 4] >> (8 * (i % 4)));

		sig[i] = c >= 0x20 && c < 0x7F ? c : '.';
	}
	sig[12] = '\0';
	arch_hooks->print("# hypervisor: \"%s\" (CPUID 40000000H, max leaf 0x%x)\n",
			  sig, r.eax);
}

void platform_print_header(void)
{
	char vendor[13], screen_text[120];
	struct strbuf screen;

	cpu_vendor_string(vendor);
	arch_hooks->print("# boot: %s, command line \"%s\"\n", machine.protocol,
			  machine.command_line);
	arch_hooks->print("# vendor: %s\n", vendor);
	strbuf_init(&screen, screen_text, sizeof(screen_text));
	fbcon_describe(&screen);
	arch_hooks->print("# screen: %s\n", screen_text);
	print_hypervisor();
}

const struct pmu_cpuid *platform_enumeration(void)
{
	return &machine.enumeration;
}

/* What a test may change, a test that was abandoned too: CR0 (TS, AM),
 * CR4 (PCE, OSFXSR), RFLAGS (AC) and the LVT performance-counter entry. */
uint64_t platform_timestamp(void)
{
	return rdtsc();
}

bool platform_run_contained(void (*run)(unsigned), unsigned i)
{
	bool abandoned = context_save(&machine.contained) != 0;
	char text[8];
	struct strbuf none;

	if (!abandoned)
		run(i);
	reset_rflags();
	write_cr0(machine.cr0);
	write_cr4(machine.cr4);
	strbuf_init(&none, text, sizeof(text));
	if (apic_available(&none))
		apic_lvt_pc_write(APIC_LVT_MASKED);
	return !abandoned;
}

void platform_abandon_contained(void)
{
	context_resume(&machine.contained);
}
