/* glyphs.c - the two glyph tables. Box lines in Unicode are curses'
 * line-drawing set (ACS_HLINE is the key 'q', ...): the terminal draws them
 * in its own way. */
#include "glyphs.h"

static const struct glyphs unicode = {
	.ascii = 0,
	.acs = 1,
	.box = { [BOX_H] = 'q', [BOX_V] = 'x', [BOX_UL] = 'l', [BOX_UR] = 'k', [BOX_LL] = 'm',
	         [BOX_LR] = 'j' },
	.s = {
		[G_NONE] = "",
		[G_ARROW] = "\u2192",
		[G_UP_DOWN] = "\u2191\u2193",
		[G_LEFT_RIGHT] = "\u2190\u2192",
		[G_BAR_ON] = "\u2588",
		[G_BAR_OFF] = "\u2591",
		[G_GAUGE] = "\u25a0",
		[G_GAP_MARK] = "\u2502",
		[G_CHANGE] = "\u25b2",
		[G_CAPTION] = "\u25b6",
		[G_HIGH_GOOD] = "\u2191",
		[G_LOW_GOOD] = "\u2193",
		[G_BETTER] = "\u25b2",
		[G_WORSE] = "\u25bc",
	},
};

static const struct glyphs ascii = {
	.ascii = 1,
	.acs = 0,
	.box = { [BOX_H] = '-', [BOX_V] = '|', [BOX_UL] = '+', [BOX_UR] = '+', [BOX_LL] = '+',
	         [BOX_LR] = '+' },
	.s = {
		[G_NONE] = "",
		[G_ARROW] = "->",
		[G_UP_DOWN] = "up/down",
		[G_LEFT_RIGHT] = "left/right",
		[G_BAR_ON] = "#",
		[G_BAR_OFF] = ".",
		[G_GAUGE] = "=",
		[G_GAP_MARK] = "|",
		[G_CHANGE] = "*",
		[G_CAPTION] = ">",
		[G_HIGH_GOOD] = "^",
		[G_LOW_GOOD] = "v",
		[G_BETTER] = "+",
		[G_WORSE] = "-",
	},
};

const struct glyphs *glyphs_for(int want_ascii)
{
	return want_ascii ? &ascii : &unicode;
}
