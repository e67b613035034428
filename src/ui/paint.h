/* paint.h - the painting primitives every panel draws with.
 *
 * Text is ASCII or UTF-8 of one-column glyphs; a string is clipped to the
 * columns it is given, never wrapped and never written past them. Boxes and
 * lines take their characters from the terminal's glyph table. These draw
 * into stdscr; term_frame_end() sends the frame. */
#ifndef IDXLAB_PAINT_H
#define IDXLAB_PAINT_H

#include <stddef.h>

#include "glyphs.h"
#include "layout.h"

/* The display columns of the first len bytes of s. Pure. */
int paint_cols(const char *s, size_t len);

/* At most w columns of s at (y, x). */
void paint_clipped(int y, int x, int w, const char *s);

/* w cells of the box's horizontal line at (y, x). */
void paint_hline(const struct glyphs *g, int y, int x, int w);

/* A box on the edge of r, its title (NULL: none) in bold on the top line. */
void paint_box(const struct glyphs *g, const struct rect *r, const char *title);

/* Spaces over r. */
void paint_clear(const struct rect *r);

/* n copies of glyph s at the cursor. */
void paint_repeat(const char *s, int n);

#endif
