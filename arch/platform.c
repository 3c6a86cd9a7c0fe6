/* kernel/platform.h on the machine itself. */
#include "platform.h"

#include "ap_console.h"
#include "apic.h"
#include "consoles.h"
#include "contained.h"
#include "context.h"
#include "cpu.h"
#include "cpu_table.h"
#include "cpus.h"
#include "debug_exit.h"
#include "exec.h"
#include "fbcon.h"
#include "hooks.h"
#include "kernel_boot.h"
#include "pmu_enum.h"
#include "smp.h"

static struct {
	const char *protocol;
	const char *command_line;
	struct pmu_cpuid enumeration;
	uint64_t cr0, cr4;	/* as the harness left them, restored after tests */
	/* Each CPU's contained run: where an abandoned test returns to. */
	struct context contained[CPUS_MAX];
	enum platform_exit_method exit_by;
} machine;

void kernel_exit_by(enum platform_exit_method by)
{
	machine.exit_by = by;
}

void kernel_boot_record(const char *protocol, const char *command_line)
{
	machine.protocol = protocol;
	machine.command_line = command_line;
	machine.cr0 = read_cr0();
	machine.cr4 = read_cr4();
	pmu_enumerate(&machine.enumeration);
}

static uint64_t written_by_cpu0;

/* Only CPU 0 touches the ports; an AP's lines go through the ring CPU 0
 * empties (arch/ap_console.h), all of a line or none. kernel/console.c
 * writes a line at a time. */
void platform_console_write(const char *s, size_t n)
{
	if (platform_this_cpu() != 0) {
		ap_console_put(s, n < PLATFORM_CONSOLE_LINE_MAX
				  ? n : PLATFORM_CONSOLE_LINE_MAX);
		return;
	}
	ap_console_drain();	/* an AP's lines, if any, came first */
	consoles_write(s, n);
	fbcon_write(s, n);
	written_by_cpu0 += n;
}

uint64_t platform_console_bytes(void)
{
	return written_by_cpu0 + ap_console_bytes();
}

/* The i8042's command 0FEH pulses the CPU's reset line (its output port
 * bit 0); Firecracker and crosvm end the VM on it, QEMU with -no-reboot
 * exits. The command is taken once the input buffer (status bit 1) is
 * empty; the wait is bounded, a machine without an i8042 reads FFH. */
#define I8042_STATUS		0x64
#define I8042_COMMAND		0x64
#define I8042_INPUT_FULL	0x02
#define I8042_PULSE_RESET	0xFE

static void reset_by_i8042(void)
{
	for (unsigned i = 0; i < 100000 && (inb(I8042_STATUS) & I8042_INPUT_FULL); i++)
		;
	outb(I8042_COMMAND, I8042_PULSE_RESET);
	for (unsigned i = 0; i < 1000000; i++)	/* the reset takes effect */
		__asm__ volatile("pause");
}

/* An IDT of limit 0: the breakpoint's #GP finds no descriptor either,
 * nor the #DF after it, and the CPU shuts down (SDM Vol. 3A, 6.15,
 * interrupt 8): the VMM ends the VM, QEMU with -no-reboot exits. */
static void triple_fault(void)
{
	static const struct __attribute__((packed)) {
		uint16_t limit;
		uint64_t base;
	} no_idt = { 0, 0 };

	__asm__ volatile("cli; lidt %0; int3" : : "m"(no_idt));
}

/* The summary is out before this: whichever way the run ends, the verdict
 * is on COM1 first. */
void platform_exit(int status)
{
	ap_console_drain();
	consoles_flush();
	switch (machine.exit_by) {
	case EXIT_BY_DEBUG_PORT:
		outb(DEBUG_EXIT_PORT, (uint8_t)status);
		debug_exit_settle();
		arch_hooks->print("# pmctest: exit status %d; no isa-debug-exit device, halting\n",
				  status);
		break;
	case EXIT_BY_RESET:
		reset_by_i8042();
		arch_hooks->print("# pmctest: exit status %d; exit=reset: the i8042 did not reset the machine, halting\n",
				  status);
		break;
	case EXIT_BY_TRIPLE_FAULT:
		triple_fault();
		arch_hooks->print("# pmctest: exit status %d; exit=triple: the machine survived a triple fault, halting\n",
				  status);
		break;
	}
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
	smp_print_header();
}

const struct pmu_cpuid *platform_enumeration(void)
{
	return &machine.enumeration;
}

void platform_read_enumeration(struct pmu_cpuid *out)
{
	pmu_enumerate(out);
}

uint64_t platform_timestamp(void)
{
	return rdtsc();
}

struct context *contained_begin(void)
{
	unsigned cpu = platform_this_cpu();

	cpu_table[cpu].in_contained_run = true;
	return &machine.contained[cpu];
}

/* What a test may change, a test that was abandoned too: CR0 (TS, AM),
 * CR4 (PCE, OSFXSR), RFLAGS (AC) and the LVT performance-counter entry. */
void contained_end(void)
{
	char text[8];
	struct strbuf none;

	cpu_table[platform_this_cpu()].in_contained_run = false;
	reset_rflags();
	write_cr0(machine.cr0);
	write_cr4(machine.cr4);
	strbuf_init(&none, text, sizeof(text));
	if (apic_available(&none))
		apic_lvt_pc_write(APIC_LVT_MASKED);
}

void platform_abandon_contained(void)
{
	context_resume(&machine.contained[platform_this_cpu()]);
}
