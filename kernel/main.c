/* kmain: from the boot entry to the verdict. */
#include <stdint.h>

#include "boot_info.h"
#include "boot_msrs.h"
#include "cmdline.h"
#include "console.h"
#include "consoles.h"
#include "exit_status.h"
#include "fbcon.h"
#include "apic.h"
#include "gdt.h"
#include "guard.h"
#include "harness.h"
#include "hooks.h"
#include "interrupt_log.h"
#include "kernel_boot.h"
#include "platform.h"
#include "tap_writer.h"
#include "trap.h"

void kmain(uint32_t protocol, uint32_t info) __attribute__((noreturn));

/* The arch layer reports through these (arch/hooks.h). */
static const struct arch_hooks hooks = {
	.fail = test_fail,
	.abort_test = harness_abort_test,
	.bail_out = harness_bail_out,
	.interrupt = interrupt_log_record,
	.print = console_printf,
};

/* Before the harness has started its TAP: version line, why, Bail out!. */
static void refuse(const char *what, const char *why)
{
	tap_version();
	console_printf("# pmctest: %s: %s\n", what, why);
	tap_bail_out(what);
	platform_exit(EXIT_HARNESS_ERROR);
}

void kmain(uint32_t protocol, uint32_t info)
{
	static char line[1024];
	static char copy[sizeof(line)];
	char error_text[200];
	struct strbuf error;
	struct harness_options options;
	const char *problem = "";
	struct boot_framebuffer framebuffer;
	const char *given;
	size_t n = 0;

	consoles_init();
	arch_install_hooks(&hooks);
	gdt_init();
	idt_init();
	guard_pages_init();
	interrupts_init();

	if (boot_framebuffer(protocol, info, &framebuffer))
		fbcon_init(&framebuffer);
	given = boot_command_line(protocol, info, &problem);
	if (!given)
		refuse("bad boot information", problem);
	for (; given[n]; n++) {
		if (n + 1 == sizeof(line))
			refuse("bad command line", "longer than 1023 characters");
		line[n] = copy[n] = given[n];
	}
	kernel_boot_record(boot_protocol_name(protocol), copy);
	boot_msrs_record();	/* RESET-1..4: before any test writes one */

	strbuf_init(&error, error_text, sizeof(error_text));
	if (!cmdline_parse(line, &options, &error))
		refuse("bad command line", error_text);
	if (options.consoles)
		consoles_select(options.consoles);
	platform_exit(harness_run(&options));
}
