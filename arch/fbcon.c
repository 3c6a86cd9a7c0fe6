#include "fbcon.h"

#include <stdbool.h>
#include <stdint.h>

#include "font.h"

#define MAX_ROWS	256
#define MAX_COLS	1024	/* wider lines wrap */
#define MAPPED_END	0x100000000ull	/* boot/entry32.asm maps 4 GiB */
#define FOREGROUND_LEVEL	0xC0	/* light grey on black */
#define EGA_ATTRIBUTE	0x07	/* light grey on black */

static struct screen {
	struct boot_framebuffer given;
	bool offered;
	volatile uint8_t *base;
	uint32_t pitch;
	uint8_t type;
	unsigned bytes;		/* per pixel: 3 or 4 */
	unsigned cols, rows;
	unsigned col, row;
	uint16_t used[MAX_ROWS];	/* cells written on each row */
	const char *unused;	/* why it is not drawn in, if offered */
} screen;

bool fbcon_init(const struct boot_framebuffer *fb, struct strbuf *why)
{
	unsigned cell_width = 1, cell_height = 1;	/* EGA text */

	screen = (struct screen){ .given = *fb, .offered = true };
	if (fb->type == BOOT_FB_RGB && (fb->bpp == 24 || fb->bpp == 32)) {
		cell_width = FONT_WIDTH;
		cell_height = FONT_HEIGHT;
	} else if (fb->type != BOOT_FB_EGA) {
		screen.unused = "not 24- or 32-bit RGB or EGA text";
		return true;
	}
	if (fb->width < cell_width || fb->height < cell_height) {
		strbuf_printf(why, "framebuffer %s %u: less than one %ux%u character cell",
			      fb->width < cell_width ? "width" : "height",
			      fb->width < cell_width ? fb->width : fb->height,
			      cell_width, cell_height);
		return false;
	}
	/* boot_info_read() has checked that this does not wrap. */
	if (fb->address + (uint64_t)fb->pitch * fb->height > MAPPED_END) {
		screen.unused = "not below 4 GiB";
		return true;
	}
	/* Every cell drawn lies within width x height, and pitch holds a
	 * line of width pixels: every write is within pitch x height. */
	screen.cols = fb->width / cell_width;
	screen.rows = fb->height / cell_height;
	if (screen.cols > MAX_COLS)
		screen.cols = MAX_COLS;
	if (screen.rows > MAX_ROWS)
		screen.rows = MAX_ROWS;
	screen.base = (volatile uint8_t *)(uintptr_t)fb->address;
	screen.pitch = fb->pitch;
	screen.type = fb->type;
	screen.bytes = fb->bpp / 8;
	return true;
}

static void put(unsigned col, unsigned row, char c)
{
	unsigned glyph = (unsigned char)c - FONT_FIRST;

	if (glyph >= FONT_GLYPHS)
		glyph = '?' - FONT_FIRST;
	if (screen.type == BOOT_FB_EGA) {
		/* Character, then attribute: bytes, for any pitch's alignment. */
		volatile uint8_t *cell = screen.base +
			(uintptr_t)row * screen.pitch + col * 2;

		cell[0] = (uint8_t)(glyph + FONT_FIRST);
		cell[1] = EGA_ATTRIBUTE;
		return;
	}
	/* Grey: the same byte in every channel, whatever their order. */
	for (unsigned y = 0; y < FONT_HEIGHT; y++) {
		volatile uint8_t *pixel = screen.base +
			(uintptr_t)(row * FONT_HEIGHT + y) * screen.pitch +
			col * FONT_WIDTH * screen.bytes;
		uint8_t bits = font_glyphs[glyph][y];

		for (unsigned x = 0; x < FONT_WIDTH; x++)
			for (unsigned b = 0; b < screen.bytes; b++)
				*pixel++ = (bits << x) & 0x80 ? FOREGROUND_LEVEL : 0;
	}
}

/* Blank what an earlier line left on `row` from `from` on. */
static void clear_row(unsigned row, unsigned from)
{
	for (unsigned col = from; col < screen.used[row]; col++)
		put(col, row, ' ');
	screen.used[row] = (uint16_t)from;
}

static void new_line(void)
{
	clear_row(screen.row, screen.col);
	screen.col = 0;
	screen.row = (screen.row + 1) % screen.rows;
	clear_row((screen.row + 1) % screen.rows, 0);	/* the blank row */
}

void fbcon_write(const char *s, size_t n)
{
	if (!screen.base)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			new_line();
			continue;
		}
		if (s[i] == '\r')
			continue;
		if (screen.col == screen.cols)
			new_line();
		put(screen.col, screen.row, s[i]);
		screen.col++;
		if (screen.used[screen.row] < screen.col)
			screen.used[screen.row] = (uint16_t)screen.col;
	}
}

void fbcon_describe(struct strbuf *sb)
{
	const struct boot_framebuffer *fb = &screen.given;

	if (!screen.offered) {
		strbuf_puts(sb, "none offered by the loader");
		return;
	}
	strbuf_printf(sb, "type %u, %ux%u, %u bits at 0x%llx", fb->type,
		      fb->width, fb->height, fb->bpp,
		      (unsigned long long)fb->address);
	if (screen.base)
		strbuf_printf(sb, ": %ux%u cells", screen.cols, screen.rows);
	else
		strbuf_printf(sb, ": not used (%s)", screen.unused);
}
