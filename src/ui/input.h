/* input.h - every key the dashboard takes, in one binding table.
 *
 * The table drives the dispatch (input_key), the help overlay (help.c: the
 * rows with a help text, in table order), the hint line (input_hints) and
 * is checked against the man page's key list (tests/unit/ui/input.c). No curses
 * here: key codes are curses', but the table is plain data. */
#ifndef IDXLAB_INPUT_H
#define IDXLAB_INPUT_H

#include <stddef.h>

#include "glyphs.h"

struct dash;

/* The input modes; a binding acts in those of its `when` bits. */
enum when {
	W_MAIN = 1u << 0,    /* the dashboard */
	W_DEMO = 1u << 1,    /* ... while a --demo has cues to play */
	W_HELP = 1u << 2,    /* the help overlay is open */
	W_CONFIRM = 1u << 3, /* a rebuild waits for y/n */
	W_PROMPT = 1u << 4,  /* a value is being typed */
	W_REPLAY = 1u << 5,  /* the dashboard showing a --replay (its feed seeks) */
};

#define KEY_OTHER    (-1) /* in keys[]: any key that no row above took */
#define BINDING_KEYS 6

struct binding {
	int keys[BINDING_KEYS]; /* curses key codes; 0 ends the list */
	const char *names;      /* as the help and the man page name them; NULL: unlisted */
	const char *label;      /* on the hint line of the modes in label_in, or NULL */
	enum glyph label_key;   /* the label's key as a glyph (G_NONE: in the label) */
	unsigned label_in;
	const char *help;                        /* the help overlay's line; NULL: not there */
	unsigned when;                           /* W_* bits */
	void (*handler)(struct dash *d, int ch); /* NULL: the key does nothing */
};

extern const struct binding input_bindings[];
extern const size_t input_nbindings;

/* The mode the dashboard is in. */
unsigned input_mode(const struct dash *d);

/* Act on key ch: the first row, in table order, for the current mode
 * whose keys hold ch. */
void input_key(struct dash *d, int ch);

/* The hint line of mode (W_MAIN or W_DEMO): " key label  key label ...",
 * at most cols columns wide (<= 0: all of it). Too wide, hints go from the
 * right but help, quit and the one of key `keep` (0: none; the key that
 * matters in this view, e.g. v back from the presenter view). */
void input_hints(const struct glyphs *g, unsigned mode, int cols, int keep, char *buf, size_t len);

#endif
