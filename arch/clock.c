/* The TSC's rate, against the PIT (clock.h). */
#include "clock.h"

#include "cpu.h"

#define PIT_HZ			1193182u
#define PIT_CHANNEL2		0x42
#define PIT_COMMAND		0x43
#define PIT_PORT_B		0x61	/* bit 0: channel 2 gate; bit 1: speaker; bit 5: OUT2 */
#define PORT_B_GATE2		0x01
#define PORT_B_SPEAKER		0x02
#define PORT_B_OUT2		0x20
/* Channel 2, low then high byte, mode 0 (interrupt on terminal count:
 * OUT2 goes high when the count reaches 0), binary. */
#define PIT_CH2_MODE0		0xB0
#define CALIBRATE_MS		10
#define CALIBRATE_POLLS		10000000u	/* an OUT2 that never rises */

static uint64_t tsc_per_ms;

/* Ticks of the TSC over CALIBRATE_MS of PIT channel 2, or 0 where its
 * OUT2 does not behave like a counter's (no PIT: port 61H reads FFH). */
static uint64_t pit_measure(void)
{
	uint16_t count = PIT_HZ / 1000 * CALIBRATE_MS;
	uint8_t b = inb(PIT_PORT_B);
	uint64_t start, end;
	unsigned polls = 0;

	if (b == 0xFF)
		return 0;
	outb(PIT_PORT_B, (uint8_t)((b & ~PORT_B_SPEAKER) | PORT_B_GATE2));
	outb(PIT_COMMAND, PIT_CH2_MODE0);
	outb(PIT_CHANNEL2, count & 0xFF);
	start = rdtsc();
	outb(PIT_CHANNEL2, count >> 8);	/* counting starts here */
	if (inb(PIT_PORT_B) & PORT_B_OUT2)	/* high before the count ran out */
		return 0;
	while (!(inb(PIT_PORT_B) & PORT_B_OUT2) && polls < CALIBRATE_POLLS)
		polls++;
	end = rdtsc();
	outb(PIT_PORT_B, b);
	if (polls == CALIBRATE_POLLS)
		return 0;
	return end - start;
}

/* CPUID 15H: TSC = crystal x EBX / EAX (ECX the crystal's Hz), else
 * 16H: the base frequency in MHz (SDM Vol. 2A, CPUID). */
static uint64_t cpuid_rate(void)
{
	struct cpuid_regs r;

	if (cpuid(0, 0).eax < 0x15)
		return 0;
	r = cpuid(0x15, 0);
	if (r.eax && r.ebx && r.ecx)
		return (uint64_t)r.ecx / 1000 * r.ebx / r.eax;
	if (cpuid(0, 0).eax < 0x16)
		return 0;
	return (uint64_t)(cpuid(0x16, 0).eax & 0xFFFF) * 1000;
}

bool clock_calibrate(struct strbuf *how, struct strbuf *why_not)
{
	uint64_t ticks;

	if (tsc_per_ms)
		return true;
	ticks = pit_measure();
	if (ticks >= CALIBRATE_MS) {
		tsc_per_ms = ticks / CALIBRATE_MS;
		strbuf_printf(how, "TSC %llu kHz against PIT channel 2 over %d ms",
			      (unsigned long long)tsc_per_ms, CALIBRATE_MS);
		return true;
	}
	tsc_per_ms = cpuid_rate();
	if (tsc_per_ms) {
		strbuf_printf(how, "TSC %llu kHz from CPUID 15H/16H (no PIT channel 2)",
			      (unsigned long long)tsc_per_ms);
		return true;
	}
	strbuf_puts(why_not, "no PIT channel 2 and no TSC rate in CPUID 15H or 16H to time the start-up by");
	return false;
}

uint64_t clock_tsc_per_ms(void)
{
	return tsc_per_ms;
}

void clock_delay_us(uint64_t us)
{
	uint64_t start = rdtsc(), ticks = tsc_per_ms * us / 1000;

	while (rdtsc() - start < ticks)
		__asm__ volatile("pause");
}
