/* glyphs.c - the two glyph tables. Box lines in Unicode are curses'
 * line-drawing set (ACS_HLINE is the key 'q', ...): the terminal draws them
 * in its own way. */
#include "glyphs.h"

#include <stddef.h>

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
		[G_BLOCK] = "\u2588",
		[G_BLOCK_TOP] = "\u2580",
		[G_BLOCK_LOW] = "\u2584",
		[G_LOCKED] = "\u00d7",
		[G_DOT] = "\u00b7",
		[G_ELLIPSIS] = "\u2026",
		[G_MORE] = "\u25bc",
		[G_AB_B] = "\u2592",
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
		[G_BLOCK] = "#",
		[G_BLOCK_TOP] = "\"",
		[G_BLOCK_LOW] = "_",
		[G_LOCKED] = "x",
		[G_DOT] = "-",
		[G_ELLIPSIS] = "...",
		[G_MORE] = "v",
		[G_AB_B] = "%",
	},
};

const struct glyphs *glyphs_for(int want_ascii)
{
	return want_ascii ? &ascii : &unicode;
}

/* The block font: 3 pixels wide (M 5, the dot and the comma 1). */
static const struct {
	char ch;
	const char *rows[GLYPHS_FONT_H];
} font[] = {
	{ '0', { "###", "# #", "# #", "# #", "###" } },
	{ '1', { " # ", "## ", " # ", " # ", "###" } },
	{ '2', { "###", "  #", "###", "#  ", "###" } },
	{ '3', { "###", "  #", " ##", "  #", "###" } },
	{ '4', { "# #", "# #", "###", "  #", "  #" } },
	{ '5', { "###", "#  ", "###", "  #", "###" } },
	{ '6', { "###", "#  ", "###", "# #", "###" } },
	{ '7', { "###", "  #", " # ", " # ", " # " } },
	{ '8', { "###", "# #", "###", "# #", "###" } },
	{ '9', { "###", "# #", "###", "  #", "###" } },
	{ '.', { " ", " ", " ", " ", "#" } },
	{ ',', { " ", " ", " ", "#", "#" } },
	{ '-', { "   ", "   ", "###", "   ", "   " } },
	{ '<', { "  #", " # ", "#  ", " # ", "  #" } }, /* <0.0001: small, not none */
	{ '+', { "   ", " # ", "###", " # ", "   " } },
	{ '%', { "# #", "  #", " # ", "#  ", "# #" } },
	{ 'x', { "   ", "# #", " # ", "# #", "   " } },
	{ 'k', { "#  ", "# #", "## ", "# #", "# #" } },
	{ 'K', { "# #", "# #", "## ", "# #", "# #" } },
	{ 'M', { "#   #", "## ##", "# # #", "#   #", "#   #" } },
	{ 'G', { "###", "#  ", "# #", "# #", "###" } },
	{ 'T', { "###", " # ", " # ", " # ", " # " } },
};

const char *glyphs_font_row(int ch, int row)
{
	size_t i;

	if (row < 0 || row >= GLYPHS_FONT_H)
		return NULL;
	for (i = 0; i < sizeof font / sizeof font[0]; i++)
		if (font[i].ch == ch)
			return font[i].rows[row];
	return NULL;
}
