#include <chafa.h>
#include <stdlib.h>
#include <string.h>

// The canvas printed (for pixel modes: the whole sixel escape) as a malloc'd string the caller
// frees; GString's free is a macro in newer GLib, which Swift cannot call.
static inline char *cchafa_print(ChafaCanvas *canvas, size_t *length) {
    GString *printed = chafa_canvas_print(canvas, NULL);
    if (printed == NULL) { *length = 0; return NULL; }
    char *copy = malloc(printed->len + 1);
    if (copy != NULL) { memcpy(copy, printed->str, printed->len + 1); *length = printed->len; }
    g_string_free(printed, TRUE);
    return copy;
}
