/* COM1 16550 UART, polled. */
#include "serial.h"

#include "cpu.h"

#define COM1		0x3F8
#define REG_DATA	0
#define REG_IER		1
#define REG_FCR		2
#define REG_IIR		2	/* read: bits 7:6 both set once FIFOs are on */
#define REG_LCR		3
#define REG_MCR		4
#define REG_LSR		5
#define REG_SCR		7	/* scratch: holds what is written, nothing else */
#define LCR_DLAB	0x80
#define LCR_8N1		0x03
#define LSR_THRE	0x20	/* holding register empty: may write */
#define LSR_TEMT	0x40	/* shift register empty too: all sent */
#define IIR_FIFOS	0xC0
#define FIFO_DEPTH	16	/* 16550A transmit FIFO */

/* Bytes that may be written before LSR is read again: a 16550A takes a
 * whole FIFO once THRE says it is empty; an 8250 or 16450, one byte. Every
 * port access costs an exit on an emulated UART, so this halves them. */
static unsigned burst = 1;
static unsigned room;

/* Whether a UART answers at COM1: its scratch register keeps two
 * patterns written to it, as UART drivers test. Where nothing decodes the
 * port (a PVH domain under Xen, which keeps COM1 for itself) reads give
 * FFH. */
bool serial_present(void)
{
	static const uint8_t patterns[] = { 0x55, 0xAA };

	for (unsigned i = 0; i < sizeof(patterns); i++) {
		outb(COM1 + REG_SCR, patterns[i]);
		if (inb(COM1 + REG_SCR) != patterns[i])
			return false;
	}
	return true;
}

void serial_init(void)
{
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, LCR_DLAB);
	outb(COM1 + REG_DATA, 1);	/* divisor 1: 115200 baud */
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, LCR_8N1);
	outb(COM1 + REG_FCR, 0xC7);	/* FIFOs on and cleared */
	outb(COM1 + REG_MCR, 0x03);	/* DTR, RTS */
	if ((inb(COM1 + REG_IIR) & IIR_FIFOS) == IIR_FIFOS)
		burst = FIFO_DEPTH;
}

static void put_raw(char c)
{
	if (room == 0) {
		while (!(inb(COM1 + REG_LSR) & LSR_THRE))
			;
		room = burst;
	}
	outb(COM1 + REG_DATA, (uint8_t)c);
	room--;
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			put_raw('\r');
		put_raw(s[i]);
	}
}

void serial_flush(void)
{
	while (!(inb(COM1 + REG_LSR) & LSR_TEMT))
		;
}
