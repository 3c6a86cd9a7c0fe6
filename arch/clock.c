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
#define CALIBRATE_MS		2
/* Reads of the PIT for 2 ms: about 2,000 where a port read costs a
 * microsecond (an exit to a hypervisor), 20,000 under TCG. Past this, or
 * past STALL_POLLS reads of a count that does not move, there is no
 * counting PIT. */
#define CALIBRATE_POLLS		1000000u
#define STALL_POLLS		10000u

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

/* Ticks of the TSC over CALIBRATE_MS of PIT channel 0, read back by its
 * latch command (no port 61H needed: QEMU's microvm has a PIT and no
 * speaker port), or 0 where its count does not run (no PIT: FFFFH). Mode
 * 2 from FFFFH: the count falls by one each PIT clock and wraps every
 * 55 ms, far longer than between two reads. */
#define PIT_CHANNEL0		0x40
#define PIT_CH0_MODE2		0x34	/* channel 0, low then high, mode 2 */
#define PIT_CH0_LATCH		0x00

static uint16_t channel0_count(void)
{
	uint8_t low, high;

	outb(PIT_COMMAND, PIT_CH0_LATCH);
	low = inb(PIT_CHANNEL0);
	high = inb(PIT_CHANNEL0);
	return (uint16_t)(high << 8 | low);
}

static uint64_t channel0_measure(void)
{
	uint32_t elapsed = 0, want = PIT_HZ / 1000 * CALIBRATE_MS;
	uint16_t before, now;
	uint64_t start;
	unsigned polls = 0;

	outb(PIT_COMMAND, PIT_CH0_MODE2);
	outb(PIT_CHANNEL0, 0xFF);
	outb(PIT_CHANNEL0, 0xFF);
	before = channel0_count();
	start = rdtsc();
	while (elapsed < want && polls < CALIBRATE_POLLS) {
		now = channel0_count();
		elapsed += (uint16_t)(before - now);
		before = now;
		if (++polls == STALL_POLLS && elapsed == 0)
			return 0;
	}
	return polls == CALIBRATE_POLLS ? 0 : rdtsc() - start;
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
	ticks = channel0_measure();
	if (ticks >= CALIBRATE_MS) {
		tsc_per_ms = ticks / CALIBRATE_MS;
		strbuf_printf(how, "TSC %llu kHz against PIT channel 0 over %d ms (no port 61H)",
			      (unsigned long long)tsc_per_ms, CALIBRATE_MS);
		return true;
	}
	tsc_per_ms = cpuid_rate();
	if (tsc_per_ms) {
		strbuf_printf(how, "TSC %llu kHz from CPUID 15H/16H (no PIT channel 2)",
			      (unsigned long long)tsc_per_ms);
		return true;
	}
	strbuf_puts(why_not, "no PIT and no TSC rate in CPUID 15H or 16H to time the start-up by");
	return false;
}

uint64_t clock_tsc_per_ms(void)
{
	return tsc_per_ms;
}

void clock_delay_us_since(uint64_t start, uint64_t us)
{
	uint64_t ticks = tsc_per_ms * us / 1000;

	while (rdtsc() - start < ticks)
		__asm__ volatile("pause");
}

void clock_delay_us(uint64_t us)
{
	clock_delay_us_since(rdtsc(), us);
}
