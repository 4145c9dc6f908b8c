#define _XOPEN_SOURCE_EXTENDED 1
#include "CNcurses.h"
#include <curses.h>
#include <term.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>

static SCREEN *screen = NULL;
static int colors_on = 0;
static short pair_table[9][9];
static short next_pair = 1;
static volatile sig_atomic_t pending_signal = 0;

int bw_open(void) {
    if (screen) return BW_OPEN_OK;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return BW_OPEN_NO_TTY;
    const char *term = getenv("TERM");
    if (term == NULL || term[0] == '\0') return BW_OPEN_NO_TERM;
    if (strcmp(term, "dumb") == 0) return BW_OPEN_DUMB;
    int err = 0;
    /* Check the terminfo entry first: newterm on an unknown TERM may still print. */
    if (setupterm((char *)term, STDOUT_FILENO, &err) != OK) return BW_OPEN_NO_TERM;
    char *cup = tigetstr("cup");
    int can_move = cup != NULL && cup != (char *)-1;
    del_curterm(cur_term);
    if (!can_move) return BW_OPEN_DUMB;
    screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return BW_OPEN_FAILED;
    set_term(screen);
    raw();               /* Ctrl-C arrives as a key, so the app decides. */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    leaveok(stdscr, TRUE);
    memset(pair_table, 0, sizeof pair_table);
    next_pair = 1;
    /* Until a screen has once been suspended and resumed, ncurses takes it
       for one a low-level terminfo program drives and writes out after
       every cursor move: a frame went to the terminal in dozens of writes
       (one per changed run of a line), each a system call, and a terminal
       could show it half drawn. One endwin and refresh here, before the
       first frame, and each frame is one write. */
    endwin();
    refresh();
    return BW_OPEN_OK;
}

void bw_close(void) {
    if (!screen) return;
    curs_set(1);
    endwin();
    delscreen(screen);
    screen = NULL;
    fflush(stdout);
}

bool bw_is_open(void) { return screen != NULL; }

int bw_start_colors(bool allowed) {
    colors_on = 0;
    if (!allowed || !has_colors()) return 0;
    if (start_color() != OK) return 0;
    use_default_colors();
    colors_on = 1;
    return COLORS;
}

int bw_lines(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
int bw_cols(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }

/* Colour pairs are made on first use; when the terminal runs out, the cell
   falls back to the default pair (the style flags still carry meaning). */
static short pair_for(int fg, int bg) {
    if (!colors_on || (fg < 0 && bg < 0)) return 0;
    if (fg > 7 || bg > 7) return 0;
    short *slot = &pair_table[fg + 1][bg + 1];
    if (*slot) return *slot;
    if (next_pair >= COLOR_PAIRS) return 0;
    if (init_pair(next_pair, (short)fg, (short)bg) != OK) return 0;
    *slot = next_pair++;
    return *slot;
}

void bw_put(int y, int x, const wchar_t *text, int flags, int fg, int bg) {
    attr_t attrs = A_NORMAL;
    if (flags & BW_BOLD) attrs |= A_BOLD;
    if (flags & BW_DIM) attrs |= A_DIM;
    if (flags & BW_UNDERLINE) attrs |= A_UNDERLINE;
    if (flags & BW_REVERSE) attrs |= A_REVERSE;
    cchar_t cell;
    wchar_t buf[CCHARW_MAX + 1];
    wcsncpy(buf, text, CCHARW_MAX);
    buf[CCHARW_MAX] = L'\0';
    if (setcchar(&cell, buf, attrs, pair_for(fg, bg), NULL) != OK) return;
    /* The last cell of the screen scrolls on some terminals: mvadd_wch
       returns ERR there but draws, which is what we want. */
    mvadd_wch(y, x, &cell);
}

void bw_refresh(void) { refresh(); }
void bw_clear_all(void) { clearok(curscr, TRUE); erase(); }

int bw_read_key(int timeout_ms, int *value) {
    wint_t ch = 0;
    timeout(timeout_ms);
    int kind = get_wch(&ch);
    if (kind == ERR) return BW_KEY_NONE;
    *value = (int)ch;
    return kind == KEY_CODE_YES ? BW_KEY_CODE : BW_KEY_CHAR;
}

int bw_wait_input(int wake_fd, int timeout_ms) {
    struct pollfd fds[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = wake_fd, .events = POLLIN } };
    int ready = poll(fds, 2, timeout_ms);
    if (ready < 0) return 1;  /* a signal: ncurses may have a resize to report */
    if (ready == 0) return 0;
    if (fds[1].revents & POLLIN) {
        char drain[64];
        while (read(wake_fd, drain, sizeof drain) > 0) {}
        if (!(fds[0].revents & (POLLIN | POLLHUP))) return 2;
    }
    return 1;
}

/* Clicks and the wheel: presses only (a click acts on the press, as
   terminal programs do), reported at once (no click-interval wait). */
void bw_enable_mouse(int on) {
    if (on) {
        mouseinterval(0);
        mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    } else {
        mousemask(0, NULL);
    }
}

int bw_key_mouse(void) { return KEY_MOUSE; }

/* The last mouse report: 1 a left press, 4 wheel up, 5 wheel down, 0 anything else. */
int bw_read_mouse(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_PRESSED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 4;
#ifdef BUTTON5_PRESSED
    if (event.bstate & BUTTON5_PRESSED) return 5;
#endif
    return 0;
}

int bw_key_resize(void) { return KEY_RESIZE; }
int bw_key_up(void) { return KEY_UP; }
int bw_key_down(void) { return KEY_DOWN; }
int bw_key_left(void) { return KEY_LEFT; }
int bw_key_right(void) { return KEY_RIGHT; }
int bw_key_home(void) { return KEY_HOME; }
int bw_key_end(void) { return KEY_END; }
int bw_key_ppage(void) { return KEY_PPAGE; }
int bw_key_npage(void) { return KEY_NPAGE; }
int bw_key_backspace(void) { return KEY_BACKSPACE; }
int bw_key_dc(void) { return KEY_DC; }
int bw_key_enter(void) { return KEY_ENTER; }
int bw_key_btab(void) { return KEY_BTAB; }
int bw_key_f(int n) { return KEY_F(n); }

bool bw_input_hung_up(void) {
    struct pollfd fd = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
    if (poll(&fd, 1, 0) < 0) return false;
    return (fd.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

static void on_signal(int sig) { pending_signal = sig; }

void bw_install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A parent may have left these blocked (test runners do); without them
       there is no resize and no clean exit on SIGTERM. */
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGHUP);
    sigaddset(&wanted, SIGWINCH);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
}

int bw_take_signal(void) {
    int sig = pending_signal;
    pending_signal = 0;
    return sig;
}
