/* The screen console's glyphs: printable ASCII (20H-7EH), 8 x 16 pixels,
 * one byte a row, the leftmost pixel in bit 7 (build/font.c, from a PC
 * Screen Font by scripts/psf2c.py). */
#ifndef PMCTEST_FONT_H
#define PMCTEST_FONT_H

#include <stdint.h>

#define FONT_FIRST	0x20
#define FONT_GLYPHS	95
#define FONT_WIDTH	8
#define FONT_HEIGHT	16

extern const uint8_t font_glyphs[FONT_GLYPHS][FONT_HEIGHT];

#endif
