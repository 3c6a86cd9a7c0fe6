/*
 * Bringing up the APs (arch/smp.h): the CPUs of the firmware tables
 * started by INIT-SIPI-SIPI (SDM Vol. 3A, 9.4.4.1): INIT to all, then the
 * start-up IPIs one AP at a time through the real-mode trampoline
 * (arch/ap_trampoline.asm) on a free page below A0000H, CPU 0 waiting for
 * each; the local APIC mode chosen before (11.12.5); and the "# cpus:"
 * header lines that say what came up. Once up, an AP is arch/cpus.c's.
 */
#include "smp.h"

#include "alarm.h"
#include "apic.h"
#include "clock.h"
#include "cpu.h"
#include "cpu_slots.h"
#include "cpu_stacks.h"
#include "cpus.h"
#include "firmware_cpus.h"
#include "guard.h"
#include "hooks.h"
#include "vectors.h"

#define PAGE			4096u
#define LOW_PAGES_END		0xA0000u	/* conventional memory: SIPI vectors 01H-9FH */
#define STARTUP_DELAY_US	200	/* and 200 us after each SIPI */
#define AP_READY_TIMEOUT_MS	2000	/* from the second SIPI to ready */

/* arch/ap_trampoline.asm: ap_trampoline_params. */
struct ap_params {
	uint64_t cr3, stack, entry, cpu;
};

extern const char ap_trampoline[], ap_trampoline_end[];
extern char ap_trampoline_params[];
extern const char ap_stacks[], ap_stacks_end[];

/* What the header says. */
static struct {
	struct firmware_cpus tables;
	bool tables_found;
	char tables_why[200];	/* no tables, or refused: why */
	bool refused;
	char apic_mode[160];	/* how the mode came to differ from the firmware's or apic=, if so */
	char not_more[200];	/* why no AP (more) started, if so */
	unsigned not_answering;
	uint64_t page;		/* the trampoline's */
	uint64_t startup_us;
	char clock[80];
	char alarm[120];	/* how CPU 0 waits: halted, by what; or why it spins */
} said;

/* The highest free page below A0000H in the loader's RAM, clear of the
 * kernel image and of the RAM the kernel writes (the legacy trampoline),
 * or 0. */
static uint64_t trampoline_page(const struct boot_info *boot,
				const struct boot_memory *memory)
{
	uint64_t best = 0;

	for (unsigned r = 0; r < boot->low_ram_count; r++) {
		uint64_t start = (boot->low_ram[r].start + PAGE - 1) & ~(uint64_t)(PAGE - 1);
		uint64_t end = boot->low_ram[r].end < LOW_PAGES_END
			       ? boot->low_ram[r].end : LOW_PAGES_END;

		if (start < PAGE)	/* page 0: the real-mode IVT and BDA */
			start = PAGE;
		for (uint64_t p = (end & ~(uint64_t)(PAGE - 1)); p >= start + PAGE && p > best; p -= PAGE) {
			uint64_t page = p - PAGE;
			bool clear = true;

			for (unsigned i = 0; i < memory->scratch_count; i++)
				clear &= page >= memory->scratch[i].end ||
					 page + PAGE <= memory->scratch[i].start;
			for (unsigned i = 0; i < memory->image_count; i++)
				clear &= page >= memory->image[i].end ||
					 page + PAGE <= memory->image[i].start;
			if (clear) {
				if (page > best)
					best = page;
				break;
			}
		}
	}
	return best;
}

static void say_not_more(const char *why)
{
	struct strbuf text;

	strbuf_init(&text, said.not_more, sizeof(said.not_more));
	strbuf_puts(&text, why);
}

/* The two start-up IPIs to the CPU of APIC ID id, which had its INIT,
 * as CPU slot: true once it is ready; otherwise INIT again, so that a
 * late start cannot use the trampoline another CPU is given next. */
static bool start_one(unsigned slot, uint32_t id)
{
	volatile struct ap_params *params = (volatile struct ap_params *)
		(uintptr_t)(said.page + (uint64_t)(ap_trampoline_params - ap_trampoline));
	uint64_t cr3;
	enum cpu_state state;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	cpu_slot_assign(slot, id);
	params->cr3 = cr3;
	params->stack = cpu_stack_top(slot, STACK_KERNEL);
	params->entry = (uint64_t)(uintptr_t)ap_main;
	params->cpu = slot;
	for (int sipi = 0; sipi < 2; sipi++) {
		apic_send_startup(id, (uint8_t)(said.page / PAGE));
		alarm_sleep_us_since(rdtsc(), STARTUP_DELAY_US);
	}
	state = cpu_wait_while(slot, CPU_STARTING, AP_READY_TIMEOUT_MS);
	if (state == CPU_READY)
		return true;
	apic_send_init(id);
	return false;
}

/* Where the CPU of APIC ID id, in slot, that did not come up is
 * described. */
static void say_not_answering(uint32_t id, unsigned slot)
{
	enum cpu_state state = cpu_state_now(slot);
	const struct cpu_fault *fault = cpu_fault(slot);
	char text[200];
	struct strbuf why;

	said.not_answering++;
	if (said.not_more[0])
		return;		/* the first says why */
	strbuf_init(&why, text, sizeof(text));
	if (state == CPU_FAILED)
		strbuf_printf(&why, "APIC ID 0x%x started but could not run: %s",
			      id, cpu_failure(slot));
	else if (state == CPU_FAULTED)
		strbuf_printf(&why, "APIC ID 0x%x took %s (vector %llu) at RIP 0x%llx while starting",
			      id, vector_name((unsigned)fault->vector),
			      (unsigned long long)fault->vector,
			      (unsigned long long)fault->rip);
	else
		strbuf_printf(&why, "APIC ID 0x%x was not ready %d ms after INIT-SIPI-SIPI",
			      id, AP_READY_TIMEOUT_MS);
	say_not_more(text);
}

/*
 * The local APIC's mode, chosen on CPU 0 before any AP starts (each takes
 * CPU 0's, apic_init_ap()) and before any test writes the LVT: x2APIC
 * where an AP's APIC ID does not fit xAPIC's 8 bits (FFH being xAPIC's
 * broadcast), else the mode apic= asks for, else the firmware's. From
 * xAPIC to x2APIC is one write of IA32_APIC_BASE.EXTD with the LVT, SVR
 * and TPR kept (SDM Vol. 3A, 11.12.5); back from x2APIC goes through the
 * disabled state, which resets the local APIC, and pmctest does not take
 * it. Where the run differs from what was asked, or the firmware left,
 * said.apic_mode says why; false where the APs need x2APIC and CPU 0
 * cannot enter it (said.not_more says why).
 */
static bool choose_apic_mode(enum platform_apic_mode asked)
{
	const struct firmware_cpus *t = &said.tables;
	char text[100];
	struct strbuf why, note;
	uint32_t wide = 0;

	strbuf_init(&why, text, sizeof(text));
	strbuf_init(&note, said.apic_mode, sizeof(said.apic_mode));
	for (unsigned i = 1; said.tables_found && i < t->count && !wide; i++)
		if (t->apic_id[i] > 0xFE)
			wide = t->apic_id[i];
	if (wide && !apic_x2apic()) {
		if (!apic_enter_x2apic(&why)) {
			strbuf_init(&note, said.not_more, sizeof(said.not_more));
			strbuf_printf(&note, "APIC ID 0x%x needs x2APIC mode, which CPU 0 cannot enter: %s",
				      wide, text);
			return false;
		}
		strbuf_printf(&note, "x2APIC mode entered: APIC ID 0x%x does not fit xAPIC's 8 bits%s",
			      wide, asked == APIC_MODE_XAPIC ? " (apic=xapic not followed)" : "");
	} else if (wide && asked == APIC_MODE_XAPIC) {
		strbuf_printf(&note, "apic=xapic not followed: APIC ID 0x%x does not fit xAPIC's 8 bits",
			      wide);
	} else if (asked == APIC_MODE_X2APIC && !apic_x2apic()) {
		if (apic_enter_x2apic(&why))
			strbuf_puts(&note, "x2APIC mode entered by apic=x2apic");
		else
			strbuf_printf(&note, "apic=x2apic not followed, xAPIC kept: %s", text);
	} else if (asked == APIC_MODE_XAPIC && apic_x2apic()) {
		strbuf_puts(&note, "apic=xapic not followed: the firmware left x2APIC mode on, and leaving it resets the local APIC");
	}
	return true;
}

/* CPU 0's alarm, and what the header says of it. */
static void say_alarm(void)
{
	char text[100];
	struct strbuf how, why;

	strbuf_init(&how, said.alarm, sizeof(said.alarm));
	strbuf_init(&why, text, sizeof(text));
	if (alarm_init(&how, &why))
		return;
	strbuf_init(&how, said.alarm, sizeof(said.alarm));
	strbuf_printf(&how, "CPU 0 spins in its waits: %s", text);
}

static void start_aps(const struct boot_info *boot,
		      const struct boot_memory *memory)
{
	const struct firmware_cpus *t = &said.tables;
	char how_text[80], text[160];
	struct strbuf how, why;
	uint64_t begin, last_init;

	strbuf_init(&why, text, sizeof(text));
	if (!boot->has_memory_map) {
		say_not_more("the loader gave no memory map: no page below 1 MiB is known to be free for the AP start-up code");
		return;
	}
	said.page = trampoline_page(boot, memory);
	if (!said.page) {
		say_not_more("no free 4 KiB page of RAM below A0000H in the memory map for the AP start-up code");
		return;
	}
	if ((uint64_t)(ap_stacks_end - ap_stacks) < (uint64_t)(CPUS_MAX - 1) *
	    (cpu_stack_guard(2, STACK_KERNEL) - cpu_stack_guard(1, STACK_KERNEL))) {
		say_not_more("arch/stacks.asm reserves less for the AP stacks than arch/cpu_stacks.c lays out");
		return;
	}
	/* INIT to every AP, then one 10 ms wait for all (the SDM's sequence
	 * broadcasts it), in which the clock is measured (2 ms of the PIT),
	 * CPU 0's alarm checked and the start-up code laid out, and CPU 0
	 * halts for the rest where the alarm serves (arch/alarm.h); each AP
	 * then waits for its start-up IPI. */
	begin = rdtsc();
	for (unsigned i = 1; i < t->count; i++)
		apic_send_init(t->apic_id[i]);
	last_init = rdtsc();
	strbuf_init(&how, how_text, sizeof(how_text));
	if (!clock_calibrate(&how, &why)) {
		say_not_more(text);
		return;
	}
	strbuf_init(&how, said.clock, sizeof(said.clock));
	strbuf_puts(&how, how_text);
	say_alarm();
	cpus_record_bsp_registers();
	guard_pages_init_cpus(t->count);
	for (size_t i = 0; i < (size_t)(ap_trampoline_end - ap_trampoline); i++)
		((volatile char *)(uintptr_t)said.page)[i] = ap_trampoline[i];
	alarm_sleep_us_since(last_init, INIT_DELAY_US);
	for (unsigned i = 1; i < t->count; i++) {
		if (start_one(platform_cpu_count(), t->apic_id[i]))
			cpus_add_ready();
		else
			say_not_answering(t->apic_id[i], platform_cpu_count());
	}
	said.startup_us = (rdtsc() - begin) * 1000 / clock_tsc_per_ms();
}

bool smp_start(const struct boot_info *boot, const struct boot_memory *memory,
	       enum platform_apic_mode apic_mode, struct strbuf *why)
{
	char text[8];
	struct strbuf reason, none;
	enum firmware_cpus_result r;
	uint32_t bsp_apic_id;

	strbuf_init(&none, text, sizeof(text));
	strbuf_init(&reason, said.tables_why, sizeof(said.tables_why));
	if (!apic_available(&none)) {
		strbuf_puts(&reason, "no usable local APIC to start other CPUs with");
		return true;
	}
	bsp_apic_id = apic_id();
	cpu_slot_assign(0, bsp_apic_id);
	if (boot->rsdp && !firmware_rsdp_check(memory, boot->rsdp, boot->rsdp_field, why))
		return false;
	r = firmware_cpus_find(memory, boot->rsdp, bsp_apic_id, &said.tables,
			       &reason);
	said.tables_found = r == FIRMWARE_CPUS_FOUND;
	said.refused = r == FIRMWARE_CPUS_REFUSED;
	if (choose_apic_mode(apic_mode) && said.tables_found &&
	    said.tables.count > 1)
		start_aps(boot, memory);
	return true;
}

const char *smp_tables_refused(void)
{
	return said.refused ? said.tables_why : 0;
}

const char *smp_tables_missing(void)
{
	return !said.refused && !said.tables_found ? said.tables_why : 0;
}

#define TOPOLOGY_LEAF		0x0Bu	/* extended topology enumeration */
#define TOPOLOGY_LEVELS_MAX	8

/* The logical processors CPUID.0BH gives CPU 0's package: EBX[15:0] of
 * its last level (ECX[15:8] not 0); 0 where the leaf is absent. The SDM
 * (Vol. 2A, CPUID, leaf 0BH) calls it the hardware's design figure, not
 * an enumeration of the CPUs the platform enabled: a hint beside the
 * tables, never a verdict. */
static unsigned package_logical_processors(void)
{
	unsigned count = 0;

	if (cpuid(0, 0).eax < TOPOLOGY_LEAF)
		return 0;
	for (uint32_t level = 0; level < TOPOLOGY_LEVELS_MAX; level++) {
		struct cpuid_regs r = cpuid(TOPOLOGY_LEAF, level);

		if (((r.ecx >> 8) & 0xFF) == 0)
			break;
		count = r.ebx & 0xFFFF;
	}
	return count;
}

void smp_print_header(void)
{
	unsigned package;

	const struct firmware_cpus *t = &said.tables;

	if (!said.tables_found) {
		arch_hooks->print("# cpus: 1 started; %s: %s\n",
				  said.refused ? "the firmware tables are refused"
					       : "no CPU list",
				  said.tables_why);
		if (said.apic_mode[0])
			arch_hooks->print("# cpus: %s\n", said.apic_mode);
		return;
	}
	arch_hooks->print("# cpus: %u listed (%s), %u started, %s",
			  t->listed, t->source, platform_cpu_count(),
			  apic_x2apic() ? "x2APIC" : "xAPIC");
	if (t->listed > t->count)
		arch_hooks->print(", %u ignored beyond CPUS_MAX %d",
				  t->listed - t->count, CPUS_MAX);
	if (said.not_answering)
		arch_hooks->print(", %u did not start", said.not_answering);
	arch_hooks->print("\n");
	if (said.apic_mode[0])
		arch_hooks->print("# cpus: %s\n", said.apic_mode);
	if (said.clock[0])
		arch_hooks->print("# cpus: AP start-up %llu us, trampoline at 0x%llx, %s, %s\n",
				  (unsigned long long)said.startup_us,
				  (unsigned long long)said.page, said.clock,
				  said.alarm);
	if (said.not_more[0])
		arch_hooks->print("# cpus: %s\n", said.not_more);
	/* Firmware that lists fewer CPUs than the package has leaves some
	 * unchecked: SeaBIOS's MP table names one logical processor per
	 * package (docs/findings.md). */
	package = package_logical_processors();
	if (package > t->listed)
		arch_hooks->print("# cpus: CPUID.0BH gives CPU 0's package %u logical processors, the tables list %u: the others are not checked\n",
				  package, t->listed);
}
