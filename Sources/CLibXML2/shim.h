#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

// libxml2 was built with ICU; its headers would include the system ICU, which clashes with
// Foundation's copy. Nothing here needs ICU's converters, so leave them out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/encoding.h>

// xmlFree is a global function pointer: Swift 6 rejects reading it directly.
static inline void cxml_free(void *p) { xmlFree(p); }

static inline int cxml_html_options(void) {
    return HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_NOBLANKS;
}

#endif
