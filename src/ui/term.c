/* term.c - the terminal owner (see term.h).
 *
 * The terminal is always restored: on q, on Ctrl-C/SIGTERM/SIGQUIT (main's
 * handler sets the flag the dashboard's loop ends on, then term_close), on
 * a fatal signal (crash_handler), and at exit; after SIGHUP it is gone, and
 * nothing more is sent to it. The crash handler can only reach
 * static state, so what it restores lives here, in two statics. Nothing
 * else in idxlab initialises, colours or ends curses. */
#include "term.h"

#include <fcntl.h>
#include <langinfo.h>
#include <termios.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../evlog.h"
#include "../vocab.h"

/* For the crash handler: what to restore. */
static int curses_on;
static int crash_saved_stderr = -1;

/* For term_restore_now (a signal handler's, where curses cannot be called):
 * the terminal's modes before curses, and the bytes that end the alternate
 * screen, show the cursor and stop mouse reports, all read at term_open. */
static volatile sig_atomic_t raw_saved;
static struct termios raw_modes;
static char raw_undo[128];
static size_t raw_undo_len;

/* tty_gone (SIGHUP): endwin() would only write to a terminal that is no more. */
static void restore_terminal(int tty_gone)
{
	if (curses_on) {
		curses_on = 0;
		if (!tty_gone)
			endwin();
	}
	if (crash_saved_stderr >= 0) {
		dup2(crash_saved_stderr, STDERR_FILENO);
		close(crash_saved_stderr);
		crash_saved_stderr = -1;
	}
}

static void crash_handler(int sig)
{
	restore_terminal(0);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_crashes(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = crash_handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], &sa, NULL);
}

/* fd 2 becomes a non-blocking pipe that term_drain empties. */
static void capture_stderr(struct term *t)
{
	int p[2];

	t->err_fd = -1;
	t->saved_stderr = -1;
	if (pipe(p) < 0)
		return;
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	t->saved_stderr = dup(STDERR_FILENO);
	fcntl(t->saved_stderr, F_SETFD, FD_CLOEXEC);
	dup2(p[1], STDERR_FILENO);
	close(p[1]);
	t->err_fd = p[0];
	crash_saved_stderr = t->saved_stderr;
}

void term_drain(struct term *t)
{
	ssize_t n;

	if (t->err_fd < 0)
		return;
	while ((n = read(t->err_fd, t->errbuf + t->errlen, sizeof t->errbuf - 1 - t->errlen)) > 0) {
		char *nl;

		t->errlen += (size_t)n;
		t->errbuf[t->errlen] = 0;
		while ((nl = strchr(t->errbuf, '\n')) || t->errlen == sizeof t->errbuf - 1) {
			size_t cut = nl ? (size_t)(nl - t->errbuf) : t->errlen;

			t->errbuf[cut] = 0;
			if (cut)
				evlog_add(EV_WARN, "stderr: %s", t->errbuf);
			cut += nl ? 1 : 0;
			memmove(t->errbuf, t->errbuf + cut, t->errlen - cut);
			t->errlen -= cut;
			t->errbuf[t->errlen] = 0;
		}
	}
}

/* Each theme's colour pairs (foreground, background; -1: the terminal's
 * own). Dark and light keep the user's background and pick foregrounds
 * that read on it (no cyan or green on white); high contrast paints its
 * own black background, in bold (bright) colours, for a projector. */
static const short themes[][C_AB_B + 1][2] = {
	[THEME_DARK] = {
		[C_TITLE] = { COLOR_BLUE, -1 }, [C_SPARK] = { COLOR_GREEN, -1 },
		[C_GAUGE] = { COLOR_CYAN, -1 }, [C_MARK] = { COLOR_MAGENTA, -1 },
		[C_ERR] = { COLOR_RED, -1 }, [C_WARN] = { COLOR_MAGENTA, -1 },
		[C_DIM] = { -1, -1 }, [C_BASE] = { -1, -1 },
		[C_AB_A] = { COLOR_CYAN, -1 }, [C_AB_B] = { COLOR_YELLOW, -1 },
	},
	[THEME_LIGHT] = {
		[C_TITLE] = { COLOR_BLUE, -1 }, [C_SPARK] = { COLOR_BLUE, -1 },
		[C_GAUGE] = { COLOR_BLACK, -1 }, [C_MARK] = { COLOR_MAGENTA, -1 },
		[C_ERR] = { COLOR_RED, -1 }, [C_WARN] = { COLOR_MAGENTA, -1 },
		[C_DIM] = { COLOR_BLACK, -1 }, [C_BASE] = { -1, -1 },
		[C_AB_A] = { COLOR_BLUE, -1 }, [C_AB_B] = { COLOR_RED, -1 },
	},
	[THEME_HIGH_CONTRAST] = {
		[C_TITLE] = { COLOR_WHITE, COLOR_BLACK }, [C_SPARK] = { COLOR_GREEN, COLOR_BLACK },
		[C_GAUGE] = { COLOR_CYAN, COLOR_BLACK }, [C_MARK] = { COLOR_YELLOW, COLOR_BLACK },
		[C_ERR] = { COLOR_RED, COLOR_BLACK }, [C_WARN] = { COLOR_YELLOW, COLOR_BLACK },
		[C_DIM] = { COLOR_WHITE, COLOR_BLACK }, [C_BASE] = { COLOR_WHITE, COLOR_BLACK },
		[C_AB_A] = { COLOR_CYAN, COLOR_BLACK }, [C_AB_B] = { COLOR_YELLOW, COLOR_BLACK },
	},
};

static void init_colors(const struct term *t)
{
	int pair;

	if (!t->color || !has_colors())
		return;
	start_color();
	use_default_colors(); /* keep the user's background: dark or light */
	for (pair = C_TITLE; pair <= C_AB_B; pair++)
		init_pair((short)pair, themes[t->theme][pair][0], themes[t->theme][pair][1]);
	if (t->theme == THEME_HIGH_CONTRAST)
		bkgdset(COLOR_PAIR(C_BASE) | A_BOLD | ' ');
}

int term_auto_theme(const char *colorfgbg)
{
	const char *bg = colorfgbg ? strrchr(colorfgbg, ';') : NULL;
	int n;

	/* "15;0": white on black; "0;15": black on white (rxvt, konsole, ...):
	 * the last field is the background, 7 and 9..15 light colours. */
	if (!bg || !bg[1])
		return THEME_DARK;
	n = atoi(bg + 1);
	return n == 7 || (n >= 9 && n <= 15) ? THEME_LIGHT : THEME_DARK;
}

attr_t term_dim(const struct term *t)
{
	return t->theme == THEME_HIGH_CONTRAST ? A_NORMAL : A_DIM;
}

attr_t term_color(const struct term *t, int pair)
{
	return t->color && has_colors() ? COLOR_PAIR(pair) : A_NORMAL;
}

int term_check(struct err *e)
{
	const char *term = getenv("TERM");

	if (!term || !*term || strcmp(term, "dumb") == 0)
		return err_set(
		    e, ERR_RUNTIME,
		    "this terminal (TERM=%s) cannot show the dashboard: use `idxlab run` "
		    "for headless output",
		    term ? term : "");
	return 0;
}

void term_setup(struct term *t, int ascii, int color, int mouse, int refresh_ms, int theme)
{
	memset(t, 0, sizeof *t);
	t->saved_stderr = t->err_fd = -1;
	setlocale(LC_ALL, "");
	t->g = glyphs_for(ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0);
	t->color = color;
	t->mouse = mouse;
	t->refresh_ms = refresh_ms;
	t->theme = theme == THEME_AUTO ? term_auto_theme(getenv("COLORFGBG")) : theme;
}

/* The bytes term_restore_now writes: what endwin() would send for the
 * mouse, the cursor and the alternate screen. */
static void save_raw_undo(void)
{
	static const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1003l\033[?1006l";
	const char *caps[] = { "cnorm", "rmcup" };
	size_t i, n = 0;

	memcpy(raw_undo, mouse_off, sizeof mouse_off - 1);
	n = sizeof mouse_off - 1;
	for (i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		const char *c = tigetstr(caps[i]);

		if (c && c != (char *)-1 && n + strlen(c) < sizeof raw_undo) {
			memcpy(raw_undo + n, c, strlen(c));
			n += strlen(c);
		}
	}
	raw_undo_len = n;
}

void term_restore_now(void)
{
	if (!curses_on)
		return;
	curses_on = 0;
	if (write(STDOUT_FILENO, raw_undo, raw_undo_len) < 0) {
		/* a terminal that takes nothing more: its modes still go back */
	}
	if (raw_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &raw_modes);
	if (crash_saved_stderr >= 0)
		dup2(crash_saved_stderr, STDERR_FILENO);
}

int term_open(struct term *t, struct err *e)
{
	raw_saved = tcgetattr(STDIN_FILENO, &raw_modes) == 0; /* before curses */
	if (!newterm(NULL, stdout, stdin))
		return err_set(e, ERR_RUNTIME,
		               "cannot start the dashboard on TERM=%s: use `idxlab run`",
		               getenv("TERM"));
	curses_on = 1;
	save_raw_undo();
	catch_crashes();
	capture_stderr(t);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(t->refresh_ms);
	init_colors(t);
	if (t->mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED |
		              REPORT_MOUSE_POSITION,
		          NULL);
		mouseinterval(0);
	}
	return 0;
}

void term_close(struct term *t, int tty_gone)
{
	restore_terminal(tty_gone);
	t->saved_stderr = -1; /* restore_terminal closed it */
	if (t->err_fd >= 0)
		close(t->err_fd);
	t->err_fd = -1;
}

void term_frame_begin(struct term *t)
{
	erase();
	getmaxyx(stdscr, t->H, t->W);
}

void term_frame_end(void)
{
	wnoutrefresh(stdscr);
	doupdate();
}

int term_key(const struct term *t, int wait)
{
	timeout(wait ? t->refresh_ms : 0);
	return getch();
}
