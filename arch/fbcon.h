/*
 * The screen console: the kernel's output on the framebuffer the loader set
 * up (Multiboot2), as well as on COM1, for machines without a serial port.
 * A full screen wraps to its top row instead of scrolling (under an
 * emulator, moving the whole screen for every line would cost more than
 * the suite); the row below the newest one is kept clear, so the end of
 * the output is where the blank row is. The last line stays on screen.
 */
#ifndef PMCTEST_FBCON_H
#define PMCTEST_FBCON_H

#include <stdbool.h>
#include <stddef.h>

#include "boot_info.h"
#include "strbuf.h"

/*
 * Takes a framebuffer whose geometry boot_info_read() has checked: draws in
 * a 24- or 32-bit RGB or an EGA text one below 4 GiB, leaves any other
 * alone (the console is then COM1 alone, and fbcon_describe() says why).
 * False, with the field and its value in why, where the screen is smaller
 * than one character cell.
 */
bool fbcon_init(const struct boot_framebuffer *fb, struct strbuf *why);

void fbcon_write(const char *s, size_t n);

/* For the TAP header: "800x600, 32 bits at 0x80000000, 100x37 cells" or
 * why there is no screen console. */
void fbcon_describe(struct strbuf *sb);

#endif
