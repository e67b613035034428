/* term.h - the terminal: the one owner of curses' set-up and teardown.
 *
 * term_open takes the screen (newterm, keys, mouse, colours), installs the
 * crash handler that gives the terminal back on a fatal signal, and makes
 * fd 2 a pipe that term_drain empties into the event log, so nothing a
 * library prints lands on the screen. term_close undoes all of it, on
 * every way out. Drawing is paint.c's and the panels'; they ask the
 * terminal only for its glyphs, its colours and its size. */
#ifndef IDXLAB_TERM_H
#define IDXLAB_TERM_H

#include <curses.h>
#include <stddef.h>

#include "../err.h"
#include "glyphs.h"

enum color { C_TITLE = 1, C_SPARK, C_GAUGE, C_MARK, C_ERR, C_WARN, C_DIM, C_BASE, C_AB_A, C_AB_B };

struct term {
	const struct glyphs *g; /* chosen once by term_setup; static */
	int color;              /* colours wanted (no --no-color, no NO_COLOR) */
	int mouse;              /* the mouse is ours (no --no-mouse) */
	int refresh_ms;         /* how long term_key waits for a first key */
	int theme;              /* THEME_DARK, _LIGHT or _HIGH_CONTRAST (knobs.h) */
	int H, W;               /* the size, as of the last term_frame_begin */
	int saved_stderr, err_fd;
	char errbuf[1024];
	size_t errlen;
};

/* Can this terminal show the dashboard at all (TERM unset or dumb: no)?
 * -1 with a message that says what to use instead. */
int term_check(struct err *e);

/* Choose the glyphs (--ascii, or a locale that is not UTF-8: ASCII) and
 * what the terminal will do; the screen is not touched yet. theme: a
 * --theme value (THEME_AUTO: light when COLORFGBG names a light background,
 * else dark). */
void term_setup(struct term *t, int ascii, int color, int mouse, int refresh_ms, int theme);

/* The theme for THEME_AUTO under COLORFGBG's value (NULL: unset). Pure. */
int term_auto_theme(const char *colorfgbg);

/* Take the screen. -1 (e filled) leaves the terminal as it was. */
int term_open(struct term *t, struct err *e);

/* Give the terminal back (and fd 2); safe when never opened, and twice.
 * tty_gone (after SIGHUP): nothing more is written to it. */
void term_close(struct term *t, int tty_gone);

/* From a signal handler that ends idxlab at once (main.c: a deliberate
 * second signal): the terminal's modes back, the alternate screen, the
 * cursor and mouse reports ended, fd 2 back on the terminal, with
 * async-signal-safe calls only (write, tcsetattr, dup2). Does nothing when
 * the dashboard is not on screen. */
void term_restore_now(void);

/* Move what libraries wrote to fd 2 into the event log, a line each. */
void term_drain(struct term *t);

/* The attribute of colour pair `pair`, or none without colours. */
attr_t term_color(const struct term *t, int pair);

/* What greys out the inactive: A_DIM, but none in high contrast (where
 * only a mark says it, G_LOCKED). */
attr_t term_dim(const struct term *t);

/* A frame: clear the screen and learn its size ... send the difference. */
void term_frame_begin(struct term *t);
void term_frame_end(void);

/* The next key: wait up to refresh_ms for the first of a frame (wait), or
 * none (a key already queued); ERR when there is none. */
int term_key(const struct term *t, int wait);

#endif
