/* CPU 0's alarm on the local APIC timer (arch/alarm.h). */
#include "alarm.h"

#include "apic.h"
#include "clock.h"
#include "cpu.h"
#include "cpus.h"
#include "hooks.h"

#define MEASURE_US	100	/* the timer's rate: its count over 100 us of the TSC */
#define CHECK_US	50	/* the check: an interrupt after 50 us ... */
#define CHECK_WAIT_MS	7	/* ... must come within 7 ms (a slow KVM took over 2), inside the 10 ms INIT delay */
#define RFLAGS_IF	(1u << 9)

static struct {
	bool usable;
	uint64_t counts_per_ms;	/* the timer's, divided by 16 */
	volatile unsigned fired;
} alarm;

void alarm_fired(void)
{
	alarm.fired++;
}


/* Timer counts in ticks of the TSC, at least 1. */
static uint32_t counts_of(uint64_t ticks)
{
	uint64_t counts = ticks * alarm.counts_per_ms / clock_tsc_per_ms();

	return counts ? (uint32_t)counts : 1;
}

/* Its count over MEASURE_US of the TSC, masked: counts per ms, or 0 where
 * it or the TSC did not count. */
static uint64_t measure(void)
{
	uint64_t start, ticks;
	uint32_t before, after;

	apic_timer_start(0xFFFFFFFFu, APIC_ALARM_VECTOR, true);
	start = rdtsc();
	before = apic_timer_count();
	clock_delay_us_since(start, MEASURE_US);
	after = apic_timer_count();
	ticks = rdtsc() - start;
	apic_timer_start(0, APIC_ALARM_VECTOR, true);
	if (ticks == 0)		/* a TSC that stood still: no rate to measure */
		return 0;
	return (uint64_t)(before - after) * clock_tsc_per_ms() / ticks;
}

/* An interrupt CHECK_US away, taken in interrupt windows (a halt that it
 * did not end would hang): whether it came within CHECK_WAIT_MS. */
static bool interrupts(void)
{
	unsigned before = alarm.fired;
	uint64_t start = rdtsc(), wait = clock_tsc_per_ms() * CHECK_WAIT_MS;
	uint8_t tpr = apic_tpr();

	apic_tpr_write(ALARM_TPR);
	apic_timer_start(counts_of(clock_tsc_per_ms() * CHECK_US / 1000),
			 APIC_ALARM_VECTOR, false);
	while (alarm.fired == before && rdtsc() - start < wait)
		interrupt_window();
	apic_timer_start(0, APIC_ALARM_VECTOR, true);
	interrupt_window();
	apic_tpr_write(tpr);
	return alarm.fired != before;
}

bool alarm_init(struct strbuf *how, struct strbuf *why_not)
{
	alarm.counts_per_ms = measure();
	if (alarm.counts_per_ms == 0) {
		strbuf_puts(why_not, "the local APIC timer does not count against the TSC");
		return false;
	}
	if (!interrupts()) {
		strbuf_printf(why_not, "the local APIC timer's interrupt did not come within %d ms",
			      CHECK_WAIT_MS);
		return false;
	}
	alarm.usable = true;
	strbuf_printf(how, "CPU 0 halts in its waits, local APIC timer %llu kHz",
		      (unsigned long long)alarm.counts_per_ms * 16);
	return true;
}

bool alarm_can_halt(void)
{
	uint64_t rflags;

	__asm__ volatile("pushfq; popq %0" : "=r"(rflags));
	return alarm.usable && platform_this_cpu() == 0 && !(rflags & RFLAGS_IF);
}

bool alarm_halt(uint64_t deadline)
{
	uint64_t now = rdtsc(), most = clock_tsc_per_ms() * ALARM_PERIOD_US / 1000;
	uint8_t tpr;

	if (!alarm_can_halt())
		return false;
	if (now >= deadline)
		return true;
	tpr = apic_tpr();
	apic_tpr_write(ALARM_TPR);
	apic_timer_start(counts_of(deadline - now < most ? deadline - now : most),
			 APIC_ALARM_VECTOR, false);
	arch_exits(EXIT_HLT, 0, 1);
	/* STI's shadow covers HLT: an interrupt pending since before the STI
	 * ends the HLT rather than being taken before it. */
	__asm__ volatile("sti; hlt; cli" : : : "memory");
	apic_timer_start(0, APIC_ALARM_VECTOR, true);
	interrupt_window();	/* one that came as the halt ended */
	apic_tpr_write(tpr);
	return true;
}

void alarm_absorb(void)
{
	uint8_t tpr = apic_tpr();

	apic_tpr_write(ALARM_TPR);
	interrupt_window();
	apic_tpr_write(tpr);
}

void alarm_sleep_us_since(uint64_t start, uint64_t us)
{
	uint64_t deadline = start + clock_tsc_per_ms() * us / 1000;

	while (rdtsc() < deadline)
		if (!alarm_halt(deadline))
			__asm__ volatile("pause");
}
