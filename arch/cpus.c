/*
 * kernel/cpus.h on the machine, once arch/smp.c has started the APs: the
 * table of CPUs, each AP's first C and its loop, and CPU 0's hand-over of
 * work and wait. An AP loads its own GDT and TSS (arch/gdt.c, its own
 * stacks with guard pages), the shared IDT, CPU 0's CR0, CR4 and APIC
 * mode, lets the cpu_started hook read its PMU MSRs before anything writes
 * one (arch/hooks.h, SMP-5), and halts until platform_start_on_cpu() wakes
 * it with an IPI. CPU 0 waits for it copying its log lines
 * (arch/ap_console.h), and stops one that does not return with INIT: lost
 * (SMP-6). The table itself is arch/cpu_table.h.
 */
#include "cpus.h"

#include "alarm.h"
#include "ap_console.h"
#include "apic.h"
#include "clock.h"
#include "cpu.h"
#include "cpu_slots.h"
#include "cpu_stacks.h"
#include "cpu_table.h"
#include "gdt.h"
#include "guard.h"
#include "hooks.h"
#include "msr.h"
#include "smp.h"
#include "vectors.h"


static unsigned ready = 1;	/* platform_cpu_count() */
static uint64_t bsp_cr0, bsp_cr4, bsp_efer;

unsigned platform_cpu_count(void)
{
	return ready;
}

uint32_t platform_cpu_apic_id(unsigned cpu)
{
	return cpu < ready ? cpu_table[cpu].apic_id : 0;
}

void cpu_slot_assign(unsigned cpu, uint32_t apic_id)
{
	struct cpu *c = &cpu_table[cpu];

	c->apic_id = apic_id;
	c->waiter = 0;		/* CPU 0 starts it */
	c->state = CPU_STARTING;
	c->failure[0] = '\0';
}

void cpus_record_bsp_registers(void)
{
	bsp_cr0 = read_cr0();
	bsp_cr4 = read_cr4();
	bsp_efer = rdmsr(MSR_EFER);
}

void cpus_add_ready(void)
{
	ready++;
}

enum cpu_state cpu_state_now(unsigned cpu)
{
	return cpu_table[cpu].state;
}

const char *cpu_failure(unsigned cpu)
{
	return cpu_table[cpu].failure;
}

const struct cpu_fault *cpu_fault(unsigned cpu)
{
	return &cpu_table[cpu].fault;
}

static void fail_start(struct cpu *c, const char *why)
{
	struct strbuf text;

	strbuf_init(&text, c->failure, sizeof(c->failure));
	strbuf_puts(&text, why);
	__atomic_store_n(&c->state, CPU_FAILED, __ATOMIC_SEQ_CST);
	cpu_wake_waiter((unsigned)(c - cpu_table));
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The AP's first C, on its own kernel stack: nothing written before its
 * PMU MSRs are read but its own control registers, descriptor tables and
 * local APIC mode, which hold no PMU state. */
void ap_main(unsigned cpu)
{
	struct cpu *c = &cpu_table[cpu];
	char text[120];
	struct strbuf why;

	gdt_load(cpu);
	idt_load();
	write_cr0(bsp_cr0);
	write_cr4(bsp_cr4);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | (bsp_efer & (EFER_SCE | EFER_NXE)));
	strbuf_init(&why, text, sizeof(text));
	if (!apic_init_ap(&why))
		fail_start(c, text);
	if (platform_this_cpu() != cpu) {
		strbuf_printf(&why, "CPU %u runs on a stack of CPU %u's block",
			      cpu, platform_this_cpu());
		fail_start(c, text);
	}
	if (apic_id() != c->apic_id) {
		strbuf_printf(&why, "the CPU that answered has APIC ID 0x%x, not 0x%x",
			      apic_id(), c->apic_id);
		fail_start(c, text);
	}
	if (arch_hooks->cpu_started)
		arch_hooks->cpu_started(cpu);
	__atomic_store_n(&c->state, CPU_READY, __ATOMIC_SEQ_CST);
	cpu_wake_waiter(cpu);
	for (;;) {
		/* STI's shadow covers HLT: a wake-up IPI that arrives after
		 * the check ends the HLT rather than being taken before it. */
		while (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != CPU_RUNNING)
			__asm__ volatile("sti; hlt; cli" : : : "memory");
		c->fn(c->arg);
		reset_rflags();
		__atomic_store_n(&c->state, CPU_FINISHED, __ATOMIC_SEQ_CST);
		cpu_wake_waiter(cpu);
	}
}

/*
 * CPU 0 halts while CPU cpu stays in `state` with nothing in the ring,
 * until the AP's wake-up IPI (cpu_wake_waiter()) or its alarm, at most
 * until the deadline; false where it cannot halt (another CPU waits,
 * interrupts are enabled, or no usable alarm: arch/alarm.h), and the
 * caller spins. An IPI the AP
 * sent as the halt ended is taken here, not in the test that follows.
 */
static bool halt_while(const struct cpu *c, enum cpu_state state,
		       uint64_t deadline)
{
	struct cpu *me = &cpu_table[0];

	if (!alarm_can_halt())
		return false;
	__atomic_store_n(&me->halted, true, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->state, __ATOMIC_SEQ_CST) == state &&
	    !ap_console_pending())
		alarm_halt(deadline);
	__atomic_store_n(&me->halted, false, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&me->waking, __ATOMIC_SEQ_CST))
		__asm__ volatile("pause");
	alarm_absorb();
	return true;
}

enum cpu_state cpu_wait_while(unsigned cpu, enum cpu_state state,
			      unsigned timeout_ms)
{
	const struct cpu *c = &cpu_table[cpu];
	uint64_t start = rdtsc(), ticks = clock_tsc_per_ms() * timeout_ms;
	enum cpu_state now;

	while ((now = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE)) == state &&
	       rdtsc() - start < ticks) {
		ap_console_drain();
		if (!halt_while(c, state, start + ticks))
			__asm__ volatile("pause");
	}
	return now;
}

static void describe_fault(const struct cpu *c, unsigned cpu,
			   struct strbuf *why)
{
	const char *stack;

	strbuf_printf(why, "CPU %u (APIC ID 0x%x): unexpected %s (vector %llu)",
		      cpu, c->apic_id, vector_name((unsigned)c->fault.vector),
		      (unsigned long long)c->fault.vector);
	if ((uint32_t)c->fault.error_code != 0xFFFFFFFFu)
		strbuf_printf(why, " error code 0x%llx",
			      (unsigned long long)c->fault.error_code);
	strbuf_printf(why, " at RIP 0x%llx outside a contained run",
		      (unsigned long long)c->fault.rip);
	/* A #PF on a guard page, or the #DF of one its CPL 0 stack could not
	 * take (delivered on the AP's own IST1 stack). */
	stack = guard_page_owner(c->fault.cr2);
	if (stack && (c->fault.vector == VECTOR_PF || c->fault.vector == VECTOR_DF))
		strbuf_printf(why, " (stack overflow: its %s stack ran into its guard page, CR2 0x%llx)",
			      stack, (unsigned long long)c->fault.cr2);
}

static void lose(struct cpu *c, struct strbuf *why)
{
	struct strbuf text;

	strbuf_init(&text, c->failure, sizeof(c->failure));
	strbuf_puts(&text, why->buf);
	c->state = CPU_LOST;
}

bool platform_start_on_cpu(unsigned cpu, void (*fn)(void *), void *arg,
			   struct strbuf *why)
{
	struct cpu *c = &cpu_table[cpu];

	if (cpu == 0 || cpu >= ready || cpu == platform_this_cpu()) {
		strbuf_printf(why, "CPU %u: not an AP started (%u CPUs) other than the caller",
			      cpu, ready);
		return false;
	}
	if (c->state == CPU_LOST) {
		strbuf_printf(why, "CPU %u is lost: %s", cpu, c->failure);
		return false;
	}
	if (c->state != CPU_READY) {
		strbuf_printf(why, "CPU %u is still busy with its previous work", cpu);
		return false;
	}
	c->fn = fn;
	c->arg = arg;
	c->waiter = platform_this_cpu();
	__atomic_store_n(&c->state, CPU_RUNNING, __ATOMIC_RELEASE);
	apic_send_fixed(c->apic_id, APIC_WAKE_VECTOR);
	return true;
}

bool platform_wait_cpu(unsigned cpu, unsigned timeout_ms, struct strbuf *why)
{
	struct cpu *c = &cpu_table[cpu];
	enum cpu_state state;
	bool stopped = false;
	char text[256];
	struct strbuf reason;

	if (cpu == 0 || cpu >= ready) {
		strbuf_printf(why, "CPU %u: not an AP started (%u CPUs)", cpu,
			      ready);
		return false;
	}
	state = cpu_wait_while(cpu, CPU_RUNNING, timeout_ms);
	if (state == CPU_RUNNING) {
		/* INIT stops it (a hung AP would take the host's time); the
		 * wait lets INIT take effect (x2APIC has no delivery status). */
		apic_send_init(c->apic_id);
		alarm_sleep_us_since(rdtsc(), INIT_DELAY_US);
		state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
		stopped = true;
	}
	ap_console_drain();	/* the whole lines it put before it stopped */
	strbuf_init(&reason, text, sizeof(text));
	if (state == CPU_FINISHED && !stopped) {
		c->state = CPU_READY;
		return true;
	}
	if (state == CPU_FINISHED) {
		/* It returned as the INIT came: its work is done, the CPU is
		 * not. */
		strbuf_printf(&reason, "CPU %u returned as its %u ms ran out, and INIT had stopped it",
			      cpu, timeout_ms);
		lose(c, &reason);
		return true;
	}
	if (state == CPU_FAULTED) {
		describe_fault(c, cpu, &reason);
		lose(c, &reason);
	} else if (state == CPU_RUNNING) {
		strbuf_printf(&reason, "CPU %u (APIC ID 0x%x) did not return within %u ms; stopped by INIT",
			      cpu, c->apic_id, timeout_ms);
		lose(c, &reason);
	} else if (state == CPU_READY) {
		strbuf_printf(why, "CPU %u was given no work to wait for", cpu);
		return false;
	}
	strbuf_printf(why, "%s; the CPU is lost", c->failure);
	return false;
}
