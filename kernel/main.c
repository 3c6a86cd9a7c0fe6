/* kmain: from the boot entry to the verdict. */
#include <stdint.h>

#include "boot_info.h"
#include "boot_msrs.h"
#include "cmdline.h"
#include "console.h"
#include "consoles.h"
#include "exit_status.h"
#include "exit_tally.h"
#include "fbcon.h"
#include "apic.h"
#include "gdt.h"
#include "guard.h"
#include "harness.h"
#include "hooks.h"
#include "interrupt_log.h"
#include "kernel_boot.h"
#include "kernel_memory.h"
#include "platform.h"
#include "smp.h"
#include "tap_writer.h"
#include "trap.h"

void kmain(uint32_t protocol, uint64_t info) __attribute__((noreturn));

/* The arch layer reports through these (arch/hooks.h). */
static const struct arch_hooks hooks = {
	.fail = test_fail,
	.abort_test = harness_abort_test,
	.bail_out = harness_bail_out,
	.interrupt = interrupt_log_record,
	.print = console_printf,
	.exits = exit_tally_count,
	.cpu_started = boot_msrs_record_cpu,
};

/* Before the harness has started its TAP: version line, why, and a Bail
 * out! that names the field and its value too (what a runner quotes). */
static void refuse(const char *what, const char *why)
{
	char text[256];
	struct strbuf line;

	strbuf_init(&line, text, sizeof(text));
	strbuf_printf(&line, "%s: %s", what, why);
	tap_version();
	console_printf("# pmctest: %s\n", text);
	tap_bail_out(text);
	platform_exit(EXIT_HARNESS_ERROR);
}

void kmain(uint32_t protocol, uint64_t info)
{
	static char line[CMDLINE_MAX + 1];
	static char copy[sizeof(line)];
	char error_text[200];
	struct strbuf error;
	struct harness_options options;
	struct boot_memory memory;
	struct boot_info boot;

	arch_install_hooks(&hooks);	/* first: the consoles' setup is counted */
	consoles_init();
	gdt_init();
	idt_init();
	guard_pages_init();
	interrupts_init();

	/* Everything the loader handed over is checked before it is used; a
	 * refusal goes to COM1 alone, the screen not being set up yet. */
	strbuf_init(&error, error_text, sizeof(error_text));
	kernel_memory(&memory);
	if (!boot_info_read(protocol, info, &memory, &boot, &error))
		refuse("bad boot information", error_text);
	if (boot.has_framebuffer && !fbcon_init(&boot.framebuffer, &error))
		refuse("bad boot information", error_text);
	for (size_t n = 0; n <= boot.command_line_length; n++)
		line[n] = copy[n] = boot.command_line[n];
	kernel_boot_record(boot_protocol_name(protocol), copy);
	boot_msrs_record();	/* RESET-1..4: before any test writes one */
	if (!cmdline_parse(line, &options, &error))
		refuse("bad command line", error_text);
	kernel_exit_by(options.exit_by);
	if (options.consoles)
		consoles_select(options.consoles);
	/* The APs, once the boot information is checked and copied (the
	 * AP start-up code may go where the loader left it), in the APIC
	 * mode apic= asks for. */
	if (!smp_start(&boot, &memory, options.apic, &error))
		refuse("bad boot information", error_text);

	platform_exit(harness_run(&options));
}
