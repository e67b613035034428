/* glyphs.h - what the dashboard draws with: Unicode, or ASCII only.
 *
 * One table of each, chosen once when the terminal opens (--ascii, or a
 * locale that is not UTF-8), so no drawing code asks which one it is on.
 * Pure data: no curses here (box lines are named by the keys of curses'
 * line-drawing set, which term/paint turn into characters). */
#ifndef IDXLAB_GLYPHS_H
#define IDXLAB_GLYPHS_H

enum glyph {
	G_NONE,       /* "": a binding with no glyph on the hint line */
	G_ARROW,      /* a change from -> to */
	G_UP_DOWN,    /* the hint line's select keys */
	G_LEFT_RIGHT, /* the hint line's adjust keys */
	G_BAR_ON,     /* a slider's filled cell */
	G_BAR_OFF,    /* a slider's empty cell */
	G_GAUGE,      /* a metric gauge's cell */
	G_GAP_MARK,   /* a knob change in a sparkline column with no value */
	G_CHANGE,     /* the event log's mark of an applied change */
	G_CAPTION,    /* a demo caption */
	G_HIGH_GOOD,  /* a metric row: more is better */
	G_LOW_GOOD,   /* a metric row: less is better */
	G_BETTER,     /* a ratio now/baseline that went the good way */
	G_WORSE,      /* ... the bad way */
	G_BLOCK,      /* a big digit's pixel, whole cell */
	G_BLOCK_TOP,  /* ... its upper half only (the 3-row font) */
	G_BLOCK_LOW,  /* ... its lower half only */
	G_LOCKED,     /* the mark of a knob that cannot move now */
	G_DOT,        /* a separator between words */
	G_ELLIPSIS,   /* a line cut where a field ends: more did not fit */
	G_MORE,       /* the help: more lines below */
	G_AB_B,       /* a chart's cell of A/B's B trace (A's: G_BLOCK) */
	G_COUNT
};

enum box_part { BOX_H, BOX_V, BOX_UL, BOX_UR, BOX_LL, BOX_LR, BOX_COUNT };

struct glyphs {
	int ascii;           /* only ASCII bytes (sparklines pick their levels by it) */
	int acs;             /* box[] are keys of the line-drawing set, else characters */
	char box[BOX_COUNT]; /* the lines of a box */
	const char *s[G_COUNT];
};

/* The table for ASCII (ascii != 0) or Unicode; static, never freed. */
const struct glyphs *glyphs_for(int ascii);

/* The presenter view's block font: a character is GLYPHS_FONT_H rows of
 * pixels, '#' on and ' ' off, all rows as wide; drawn with G_BLOCK (or,
 * two pixel rows to a cell, G_BLOCK_TOP / G_BLOCK_LOW). */
#define GLYPHS_FONT_H 5

/* Row `row` (0..GLYPHS_FONT_H-1) of character ch, or NULL: not in the font
 * (digits, . , - + % x k K M G T only). Static. */
const char *glyphs_font_row(int ch, int row);

#endif
