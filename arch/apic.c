#include "apic.h"

#include "cpu.h"

#define MSR_IA32_APIC_BASE	0x1Bu
#define APIC_BASE_ENABLE	(1ull << 11)
#define APIC_BASE_X2APIC	(1ull << 10)
#define APIC_BASE_ADDRESS	0xFFFFFF000ull	/* bits 35:12 */
#define CPUID_01_EDX_APIC	(1u << 9)

/* Register offsets of the xAPIC page; the x2APIC MSR is 800H + offset/16. */
#define APIC_TPR		0x080u
#define APIC_EOI		0x0B0u
#define APIC_SVR		0x0F0u
#define APIC_ICR_LOW		0x300u
#define APIC_LVT_PC		0x340u
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
		wrmsr(0x830u, ICR_SHORTHAND_SELF | ICR_DELIVERY_NMI);
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
