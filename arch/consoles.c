/* The ports the log goes to, chosen at boot or by console=. */
#include "consoles.h"

#include <stdbool.h>

#include "debugcon.h"
#include "platform.h"
#include "serial.h"

static unsigned selected;
static bool uart_ready;

void consoles_init(void)
{
	consoles_select(serial_present() ? CONSOLE_COM1 : CONSOLE_E9);
}

void consoles_select(unsigned ports)
{
	selected = ports;
	if ((ports & CONSOLE_COM1) && !uart_ready) {
		serial_init();
		uart_ready = true;
	}
}

void consoles_write(const char *s, size_t n)
{
	if (selected & CONSOLE_COM1)
		serial_write(s, n);
	if (selected & CONSOLE_E9)
		debugcon_write(s, n);
}

void consoles_flush(void)
{
	if (selected & CONSOLE_COM1)
		serial_flush();
}
