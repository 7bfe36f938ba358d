#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's "-D_XOPEN_SOURCE=600", so turn the wide-character API on here.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdio.h>
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

// Mutable globals: Swift 6 rejects direct reads of them.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline WINDOW *cnc_curscr(void) { return curscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }

// Attribute macros built from NCURSES_BITS(...) do not import.
static inline attr_t cnc_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t cnc_A_BOLD(void) { return A_BOLD; }
static inline attr_t cnc_A_DIM(void) { return A_DIM; }
static inline attr_t cnc_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t cnc_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t cnc_A_ITALIC(void) { return A_ITALIC; }

// Line drawing characters.
static inline const cchar_t *cnc_WACS_HLINE(void) { return WACS_HLINE; }
static inline const cchar_t *cnc_WACS_VLINE(void) { return WACS_VLINE; }
static inline const cchar_t *cnc_WACS_ULCORNER(void) { return WACS_ULCORNER; }
static inline const cchar_t *cnc_WACS_URCORNER(void) { return WACS_URCORNER; }
static inline const cchar_t *cnc_WACS_LLCORNER(void) { return WACS_LLCORNER; }
static inline const cchar_t *cnc_WACS_LRCORNER(void) { return WACS_LRCORNER; }

// setcchar with an extended (int) pair number: the pair travels through the opts pointer.
static inline int cnc_setcchar_ext(cchar_t *wcval, const wchar_t *wch, attr_t attrs, int pair) {
    return setcchar(wcval, wch, attrs, 0, &pair);
}

// glibc hides wcwidth() unless _XOPEN_SOURCE is defined.
extern int wcwidth(wchar_t c);
static inline int cnc_wcwidth(wchar_t c) { return wcwidth(c); }

// Window size of the controlling terminal (TIOCGWINSZ imports awkwardly).
static inline int cnc_terminal_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row; *cols = ws.ws_col;
    return 0;
}

// stdin/stdout are mutable C globals too.
static inline FILE *cnc_stdin(void) { return stdin; }
static inline FILE *cnc_stdout(void) { return stdout; }

static inline const char *cnc_codeset(void) { return nl_langinfo(CODESET); }

// From <term.h>, which defines macros (lines, columns...) that clash with Swift names.
extern char *tigetstr(const char *capname);
// Whether the current terminal has the string capability `name` ("cup", "indn").
static inline int cnc_has_capability(const char *name) {
    char *value = tigetstr(name);
    return value != NULL && value != (char *)-1;
}

#endif
