/* schema_note.c - a derived spec's notes (schema_from.h: shape_note,
 * shape_notes_add): one note a line, escaped as err_escape does, never cut
 * in the middle; once one does not fit, the last line counts what was left
 * out ("... and N more notes left out"). The readers of a user's table and
 * the derivation write them; --print-config and a run's header print them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_from.h"

/* The last line of notes once one did not fit: "... and N more notes" (its
 * room, SHAPE_NOTES_MORE bytes, is kept free until then). */
#define MORE_WORDS       "... and %d more note%s left out (the notes hold %zu bytes)"
#define SHAPE_NOTES_MORE 96

/* How many notes line counts as left out, when it is a buffer's last line
 * of MORE_WORDS (all of it: a note from outside that only starts like one
 * is no count); else 0. */
static int more_of(const char *line)
{
	char again[128];
	size_t size = 0;
	int more = 0;

	if (sscanf(line, "... and %d more note%*[s] left out (the notes hold %zu bytes)", &more,
	           &size) != 2 &&
	    sscanf(line, "... and %d more note left out (the notes hold %zu bytes)", &more,
	           &size) != 2)
		return 0;
	snprintf(again, sizeof again, MORE_WORDS, more, more == 1 ? "" : "s", size);
	return more > 0 && strcmp(line, again) == 0 ? more : 0;
}

/* Count k more notes left out of notes: in its last line, written when it
 * is not one yet (in the room kept for it). */
static void note_more(char *notes, size_t len, int k)
{
	size_t n = strlen(notes);
	char *last = strrchr(notes, '\n');
	int more;

	last = last ? last + 1 : notes;
	more = more_of(last);
	if (more)
		snprintf(last, len - (size_t)(last - notes), MORE_WORDS, more + k, "s", len);
	else if (n + 1 + SHAPE_NOTES_MORE <= len)
		snprintf(notes + n, len - n, "%s" MORE_WORDS, n ? "\n" : "", k, k == 1 ? "" : "s",
		         len);
}

/* Add one line (escaped already) to notes, or count it as left out: once
 * one is, every later one is too (the count stays the last line). */
static void note_line(char *notes, size_t len, const char *line)
{
	size_t n = strlen(notes), l = strlen(line);
	const char *last = strrchr(notes, '\n');

	if (!len || !l)
		return;
	if (more_of(last ? last + 1 : notes) || n + (n > 0) + l + SHAPE_NOTES_MORE >= len)
		note_more(notes, len, 1);
	else
		snprintf(notes + n, len - n, "%s%s", n ? "\n" : "", line);
}

void shape_note(char *notes, size_t len, const char *fmt, ...)
{
	char raw[2048], line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* names from the source are one line of text, whatever they hold */
	err_escape(raw, line, sizeof line);
	note_line(notes, len, line);
}

void shape_notes_add(char *notes, size_t len, const char *lines)
{
	char line[2048];
	const char *p = lines, *nl;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t l;

		nl = strchr(p, '\n');
		l = nl ? (size_t)(nl - p) : strlen(p);
		if (l >= sizeof line)
			l = sizeof line - 1;
		memcpy(line, p, l);
		line[l] = 0;
		/* the other notes' own count of what they left out adds up here */
		if (!nl && more_of(line))
			note_more(notes, len, more_of(line));
		else
			note_line(notes, len, line);
		if (!nl)
			break;
	}
}
