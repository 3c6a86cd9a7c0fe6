#include "apic.h"

#include "cpu.h"
#include "msr.h"

#define APIC_BASE_ENABLE	(1ull << 11)
#define APIC_BASE_X2APIC	(1ull << 10)
#define APIC_BASE_ADDRESS	0xFFFFFF000ull	/* bits 35:12 */
#define CPUID_01_EDX_APIC	(1u << 9)

/* Register offsets of the xAPIC page; the x2APIC MSR is 800H + offset/16. */
#define APIC_ID			0x020u	/* xAPIC: bits 31:24 */
#define APIC_TPR		0x080u
#define APIC_EOI		0x0B0u
#define APIC_SVR		0x0F0u
#define APIC_ICR_LOW		0x300u
#define APIC_ICR_HIGH		0x310u	/* xAPIC: the destination in bits 31:24 */
#define X2APIC_ICR		0x830u	/* the destination in bits 63:32 */
#define ICR_PENDING		(1u << 12)	/* xAPIC delivery status */
#define ICR_LEVEL_ASSERT	(1u << 14)
#define ICR_DELIVERY_INIT	(5u << 8)
#define ICR_DELIVERY_STARTUP	(6u << 8)
#define CPUID_01_ECX_X2APIC	(1u << 21)
#define APIC_LVT_PC		0x340u
#define APIC_LVT_TIMER		0x320u
#define APIC_TIMER_INITIAL	0x380u
#define APIC_TIMER_CURRENT	0x390u
#define APIC_TIMER_DIVIDE	0x3E0u
#define TIMER_DIVIDE_16		0x3u	/* SDM Vol. 3A, Figure 11-10 */
#define X2APIC_SELF_IPI		0x83Fu

#define SVR_SOFTWARE_ENABLE	(1u << 8)
#define ICR_SHORTHAND_SELF	(1u << 18)
#define ICR_DELIVERY_NMI	(4u << 8)

#define PIC1_DATA		0x21
#define PIC2_DATA		0xA1

static struct {
	bool present;
	bool x2apic;
	volatile uint32_t *mmio;	/* xAPIC: below 4 GiB, identity-mapped */
	const char *why_not;
	uint64_t bsp_base;		/* IA32_APIC_BASE on CPU 0 at boot */
} apic;

static uint32_t reg_read(uint32_t offset)
{
	if (apic.x2apic)
		return (uint32_t)rdmsr(0x800u + offset / 16);
	return apic.mmio[offset / 4];
}

static void reg_write(uint32_t offset, uint32_t value)
{
	if (apic.x2apic)
		wrmsr(0x800u + offset / 16, value);
	else
		apic.mmio[offset / 4] = value;
}

void interrupts_init(void)
{
	uint64_t base;

	outb(PIC1_DATA, 0xFF);	/* every IRQ of both 8259s masked */
	outb(PIC2_DATA, 0xFF);
	if (!(cpuid(1, 0).edx & CPUID_01_EDX_APIC)) {
		apic.why_not = "no local APIC: CPUID.01H:EDX.APIC (bit 9) = 0";
		return;
	}
	base = rdmsr(MSR_IA32_APIC_BASE);
	apic.bsp_base = base;
	if (!(base & APIC_BASE_ENABLE)) {
		apic.why_not = "the local APIC is disabled: IA32_APIC_BASE.EN (bit 11) = 0";
		return;
	}
	if ((base & APIC_BASE_ADDRESS) >= 0x100000000ull) {
		apic.why_not = "the xAPIC page is above 4 GiB, outside pmctest's map";
		return;
	}
	apic.x2apic = (base & APIC_BASE_X2APIC) != 0;
	apic.mmio = (volatile uint32_t *)(uintptr_t)(base & APIC_BASE_ADDRESS);
	apic.present = true;
	reg_write(APIC_TPR, 0);
	reg_write(APIC_SVR, SVR_SOFTWARE_ENABLE | APIC_SPURIOUS_VECTOR);
}

bool apic_available(struct strbuf *why_not)
{
	if (!apic.present)
		strbuf_puts(why_not, apic.why_not);
	return apic.present;
}

uint32_t apic_lvt_pc_read(void)
{
	return reg_read(APIC_LVT_PC);
}

void apic_lvt_pc_write(uint32_t value)
{
	reg_write(APIC_LVT_PC, value);
}

/* x2APIC has no self shorthand for an NMI in SELF_IPI: the ICR with it. */
void apic_self_nmi(void)
{
	if (apic.x2apic)
		wrmsr(X2APIC_ICR, ICR_SHORTHAND_SELF | ICR_DELIVERY_NMI);
	else
		reg_write(APIC_ICR_LOW, ICR_SHORTHAND_SELF | ICR_DELIVERY_NMI);
}

void apic_self_ipi(uint8_t vector)
{
	if (apic.x2apic)
		wrmsr(X2APIC_SELF_IPI, vector);
	else
		reg_write(APIC_ICR_LOW, ICR_SHORTHAND_SELF | vector);
}

uint8_t apic_tpr(void)
{
	return (uint8_t)reg_read(APIC_TPR);
}

void apic_tpr_write(uint8_t tpr)
{
	reg_write(APIC_TPR, tpr);
}

/* The LVT entry first (one-shot: mode bits 18:17 = 00), then the divide,
 * then the initial count, whose write starts the count (SDM Vol. 3A,
 * 11.5.4). */
void apic_timer_start(uint32_t count, uint8_t vector, bool masked)
{
	reg_write(APIC_LVT_TIMER, vector | (masked ? APIC_LVT_MASKED : 0));
	reg_write(APIC_TIMER_DIVIDE, TIMER_DIVIDE_16);
	reg_write(APIC_TIMER_INITIAL, count);
}

uint32_t apic_timer_count(void)
{
	return reg_read(APIC_TIMER_CURRENT);
}

/* Not for the spurious vector, which takes no EOI (SDM Vol. 3A, "Spurious
 * Interrupt"). */
void apic_eoi(void)
{
	if (apic.present)
		reg_write(APIC_EOI, 0);
}

void interrupt_window(void)
{
	__asm__ volatile("sti; nop; cli" : : : "memory");
}

/* The arch's own bookkeeping (an AP checks it answered as the APIC ID
 * the tables gave), not counted in the exit tally (arch/hooks.h) as a
 * test's RDMSR is. */
uint32_t apic_id(void)
{
	uint32_t lo, hi;

	if (!apic.x2apic)
		return apic.mmio[APIC_ID / 4] >> 24;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(0x802u));
	return lo;
}

bool apic_x2apic(void)
{
	return apic.x2apic;
}

/* SDM Vol. 3A, 11.12.5.1: from xAPIC mode, EXTD is set with EN still set. */
bool apic_enter_x2apic(struct strbuf *why_not)
{
	if (!apic.present) {
		strbuf_puts(why_not, apic.why_not);
		return false;
	}
	if (apic.x2apic)
		return true;
	if (!(cpuid(1, 0).ecx & CPUID_01_ECX_X2APIC)) {
		strbuf_puts(why_not, "no x2APIC mode: CPUID.01H:ECX.x2APIC (bit 21) = 0");
		return false;
	}
	wrmsr(MSR_IA32_APIC_BASE, rdmsr(MSR_IA32_APIC_BASE) | APIC_BASE_X2APIC);
	apic.x2apic = true;
	return true;
}

/* ICR write: x2APIC one 64-bit WRMSR; xAPIC the destination first, the
 * low word sends, and the delivery status clears once it is accepted
 * (bounded: a lost IPI shows as a CPU that does not answer). */
static void send_ipi(uint32_t destination, uint32_t low)
{
	if (apic.x2apic) {
		wrmsr(X2APIC_ICR, (uint64_t)destination << 32 | low);
		return;
	}
	reg_write(APIC_ICR_HIGH, destination << 24);
	reg_write(APIC_ICR_LOW, low);
	for (unsigned i = 0; i < 100000 && (reg_read(APIC_ICR_LOW) & ICR_PENDING); i++)
		__asm__ volatile("pause");
}

void apic_send_init(uint32_t destination)
{
	send_ipi(destination, ICR_DELIVERY_INIT | ICR_LEVEL_ASSERT);
}

void apic_send_startup(uint32_t destination, uint8_t page)
{
	send_ipi(destination, ICR_DELIVERY_STARTUP | ICR_LEVEL_ASSERT | page);
}

void apic_send_fixed(uint32_t destination, uint8_t vector)
{
	send_ipi(destination, ICR_LEVEL_ASSERT | vector);
}

bool apic_init_ap(struct strbuf *why_not)
{
	uint64_t base = rdmsr(MSR_IA32_APIC_BASE);

	if ((base & APIC_BASE_ADDRESS) != (apic.bsp_base & APIC_BASE_ADDRESS) ||
	    !(base & APIC_BASE_ENABLE)) {
		strbuf_printf(why_not, "IA32_APIC_BASE 0x%llx, CPU 0's 0x%llx: not the same enabled local APIC page",
			      (unsigned long long)base,
			      (unsigned long long)apic.bsp_base);
		return false;
	}
	if (apic.x2apic && !(base & APIC_BASE_X2APIC))
		wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_X2APIC);
	reg_write(APIC_TPR, 0);
	reg_write(APIC_SVR, SVR_SOFTWARE_ENABLE | APIC_SPURIOUS_VECTOR);
	return true;
}
