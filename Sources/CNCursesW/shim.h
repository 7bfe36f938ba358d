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
static inline int cnc_colors(void) { return COLORS; }

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
