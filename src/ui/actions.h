/* actions.h - the handlers of the dashboard's keys, one per action, as
 * input.c's binding table names them. Each takes the dashboard and the key
 * that was pressed (a handler shared by several keys tells them apart by
 * it), acts, and returns; none draws. */
#ifndef IDXLAB_ACTIONS_H
#define IDXLAB_ACTIONS_H

struct dash;

void actions_select_knob(struct dash *d, int ch);
void actions_adjust_knob(struct dash *d, int ch);
void actions_start_prompt(struct dash *d, int ch);
void actions_mouse(struct dash *d, int ch);
void actions_pause_feed(struct dash *d, int ch);
void actions_next_cue(struct dash *d, int ch);
void actions_prev_cue(struct dash *d, int ch);
void actions_blank(struct dash *d, int ch);
void actions_demo_mode(struct dash *d, int ch);
void actions_presenter(struct dash *d, int ch);
void actions_hide_panel(struct dash *d, int ch);
void actions_pin(struct dash *d, int ch);
void actions_unpin(struct dash *d, int ch);
void actions_pin_scales(struct dash *d, int ch);
void actions_ab(struct dash *d, int ch);     /* ab_dash.c */
void actions_ab_end(struct dash *d, int ch); /* ab_dash.c */
void actions_reset_window(struct dash *d, int ch);
void actions_rewrite(struct dash *d, int ch);
void actions_speed(struct dash *d, int ch);
void actions_scroll_events(struct dash *d, int ch);
void actions_seek(struct dash *d, int ch);
void actions_open_help(struct dash *d, int ch);
void actions_quit(struct dash *d, int ch);
void actions_scroll_help(struct dash *d, int ch);
void actions_close_help(struct dash *d, int ch);
void actions_confirm(struct dash *d, int ch);
void actions_cancel(struct dash *d, int ch);
void actions_prompt_cancel(struct dash *d, int ch);
void actions_prompt_enter(struct dash *d, int ch);
void actions_prompt_edit(struct dash *d, int ch);

#endif
