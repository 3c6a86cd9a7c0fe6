/*
 * The local APIC, in the mode the firmware left it or the one the run
 * switched CPU 0 to (xAPIC through its MMIO page, x2APIC through MSRs;
 * arch/smp.c chooses), and the legacy 8259 PICs masked: only
 * interrupts pmctest asks for arrive (SDM Vol. 3A, "Advanced
 * Programmable Interrupt Controller").
 */
#ifndef PMCTEST_APIC_H
#define PMCTEST_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

#define APIC_SPURIOUS_VECTOR	0xFF
#define APIC_LVT_MASKED		(1u << 16)
/* The fixed IPI that wakes a halted CPU: an AP for its work, CPU 0 for an
 * AP's new state (arch/cpus.c). The arch's own, not reported to the
 * harness as an interrupt. */
#define APIC_WAKE_VECTOR	0xFE

/* Masks the 8259s and, where there is an enabled local APIC, software-
 * enables it with TPR 0. Called once at boot. */
void interrupts_init(void);

/* Whether a local APIC is usable; if not, why (for SKIP). */
bool apic_available(struct strbuf *why_not);

/* The LVT performance-counter entry (xAPIC offset 340H, x2APIC 834H). */
uint32_t apic_lvt_pc_read(void);
void apic_lvt_pc_write(uint32_t value);

/* A fixed interrupt of `vector` to this CPU (self IPI); an NMI. */
void apic_self_ipi(uint8_t vector);
void apic_self_nmi(void);

void apic_eoi(void);

/* The task priority (TPR): an interrupt of priority class (vector >> 4)
 * at or below tpr >> 4 waits in the IRR, and does not end a HLT (SDM Vol.
 * 3A, 11.8.3). */
uint8_t apic_tpr(void);
void apic_tpr_write(uint8_t tpr);

/* The local APIC timer, one-shot, at its clock divided by 16: counting
 * down from count (0 stops it), an interrupt of vector when it reaches 0
 * unless masked (SDM Vol. 3A, 11.5.4); the count now. */
void apic_timer_start(uint32_t count, uint8_t vector, bool masked);
uint32_t apic_timer_count(void);

/* This CPU's local APIC ID: x2APIC's 32 bits, xAPIC's 8. */
uint32_t apic_id(void);

/* Whether the APIC is in x2APIC mode; switch CPU 0 to it from xAPIC (where
 * an APIC ID does not fit xAPIC's 8 bits, or apic=x2apic asks), false with
 * why where CPUID says there is no x2APIC mode. */
bool apic_x2apic(void);
bool apic_enter_x2apic(struct strbuf *why_not);

/* IPIs to one CPU by APIC ID (SDM Vol. 3A, 11.6.1): INIT (level assert),
 * a start-up IPI whose vector is the page of the real-mode code, and a
 * fixed interrupt. */
void apic_send_init(uint32_t destination);
void apic_send_startup(uint32_t destination, uint8_t page);
void apic_send_fixed(uint32_t destination, uint8_t vector);

/* On an AP that just started: its local APIC at CPU 0's page, in CPU 0's
 * mode, software-enabled with TPR 0; false, why, if it is not at that
 * page or disabled. */
bool apic_init_ap(struct strbuf *why_not);

/* STI; NOP; CLI: a pending interrupt is taken at the NOP. */
void interrupt_window(void);

#endif
