#pragma once
// libxml2's `xmlFree` is a global function pointer Swift 6 refuses to touch: a plain function calls it. The
// libxml2 headers are included only in shims.c (a second Clang module including them breaks the build). Every
// symbol carries the `spc_` prefix. Only HTML may import this module.

/// Calls libxml2's `xmlFree` (a global function pointer Swift 6 refuses to touch).
void spc_xml_free(void *_Nullable pointer);

/// What the HTML parser reports while it reads a page, in document order (libxml2's SAX events, as libxml2's own
/// tree builder receives them). `context` is handed back to every call.
typedef struct spc_html_events {
    void *_Nullable context;
    /// An element starts. `name` is the name libxml2's tree would give it (its local part when it has a prefix);
    /// `name_lasts` is nonzero when the name's storage lasts the whole parse (libxml2's dictionary of names, or a
    /// constant), so the same pointer is the same name. `attributes` holds name/value pairs and ends with a NULL name
    /// (the names' storage lasts the whole parse); a value is NULL when the markup gave none. Returns nonzero to stop
    /// the parse (libxml2's tree builder stops past its nesting limit).
    int (*_Nonnull start_element)(void *_Nullable context, const unsigned char *_Nonnull name, int name_lasts,
                                  const unsigned char *_Nullable const *_Nullable attributes);
    /// The current element ends.
    void (*_Nonnull end_element)(void *_Nullable context);
    /// Text (`is_raw_text` 0) or the raw text of a script or style element (1), `length` bytes.
    void (*_Nonnull text)(void *_Nullable context, const unsigned char *_Nonnull bytes, int length, int is_raw_text);
    /// A comment.
    void (*_Nonnull comment)(void *_Nullable context, const unsigned char *_Nonnull text);
    /// A processing instruction (`<?…>`): a node the tree would hold, with nothing to read in it.
    void (*_Nonnull processing_instruction)(void *_Nullable context);
    /// A document type declaration: libxml2 puts it first among the document's children.
    void (*_Nonnull document_type)(void *_Nullable context);
} spc_html_events;

/// Parses `size` bytes as `htmlReadMemory` does (same parser set-up, `encoding` and `options`), handing the events
/// to `events` instead of building libxml2's tree. Returns 0 when the page was read, -1 when no parser could be made.
int spc_html_read_events(const char *_Nonnull buffer, int size, const char *_Nullable encoding, int options,
                         const spc_html_events *_Nonnull events);
