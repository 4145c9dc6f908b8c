#ifndef BULWARK_CNCURSES_H
#define BULWARK_CNCURSES_H
/*
 * The only header in bulwark that includes curses.h.
 * SwiftPM drops pkg-config's -D_XOPEN_SOURCE, so the wide-character API is
 * switched on here before curses.h is read.
 */
#define NCURSES_WIDECHAR 1
#include <wchar.h>
#include <stdbool.h>

/* Result of bw_open. */
enum { BW_OPEN_OK = 0, BW_OPEN_NO_TTY = 1, BW_OPEN_NO_TERM = 2, BW_OPEN_DUMB = 3, BW_OPEN_FAILED = 4 };

/* Style flags for bw_put. */
enum { BW_BOLD = 1, BW_DIM = 2, BW_UNDERLINE = 4, BW_REVERSE = 8 };

/* What bw_read_key returned. */
enum { BW_KEY_NONE = 0, BW_KEY_CHAR = 1, BW_KEY_CODE = 2 };

/* Opens the screen with newterm on stdin/stdout after checking that both are
   terminals and that TERM names a terminal that can address the cursor. */
int bw_open(void);
/* Puts the terminal back as it was. Safe to call more than once. */
void bw_close(void);
bool bw_is_open(void);
/* Colours: returns the number of colours usable (0 for monochrome). */
int bw_start_colors(bool allowed);
int bw_lines(void);
int bw_cols(void);
/* Draws one cell: a grapheme of up to 5 code points, style flags, colours
   as 0-7 or -1 for the terminal's default. */
void bw_put(int y, int x, const wchar_t *text, int flags, int fg, int bg);
void bw_refresh(void);
void bw_clear_all(void);
/* Waits up to timeout_ms for a key. */
int bw_read_key(int timeout_ms, int *value);
/* Waits up to timeout_ms for input on the terminal or a byte on wake_fd
   (which it drains): 1 input (or a signal, such as a resize), 2 woken, 0 neither. */
int bw_wait_input(int wake_fd, int timeout_ms);
void bw_enable_mouse(int on);
int bw_key_mouse(void);
int bw_read_mouse(int *x, int *y);
/* Key codes that are macros in curses.h. */
int bw_key_resize(void);
int bw_key_up(void);
int bw_key_down(void);
int bw_key_left(void);
int bw_key_right(void);
int bw_key_home(void);
int bw_key_end(void);
int bw_key_ppage(void);
int bw_key_npage(void);
int bw_key_backspace(void);
int bw_key_dc(void);
int bw_key_enter(void);
int bw_key_btab(void);
int bw_key_f(int n);

/* True when standard input has hung up (the terminal went away): without
   this check get_wch returns ERR at once forever and the loop would spin. */
bool bw_input_hung_up(void);

/* Signals: SIGINT, SIGTERM, SIGHUP set a flag the run loop reads. */
void bw_install_signal_handlers(void);
/* Returns the signal number that arrived since the last call, or 0. */
int bw_take_signal(void);

#endif
