#include "CXMLShims.h"
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlmemory.h>
#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/parserInternals.h>
#include <string.h>

void spc_xml_free(void *pointer) {
    if (pointer != NULL) xmlFree(pointer);
}

// The events are kept in the parser context's `_private` field; libxml2 hands the context to every callback.
static const spc_html_events *events_of(void *ctx) {
    return (const spc_html_events *)((xmlParserCtxtPtr)ctx)->_private;
}

static void on_start_element(void *ctx, const xmlChar *name, const xmlChar **attributes) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    const spc_html_events *events = events_of(ctx);
    // libxml2's tree builder names an element by the local part of a prefixed name (`o:p` is `p`).
    xmlChar *prefix = NULL;
    xmlChar *local = NULL;
    if (strchr((const char *)name, ':') != NULL) local = xmlSplitQName(ctxt, name, &prefix);
    int stop = events->start_element(events->context, local != NULL ? local : name, local == NULL,
                                     (const unsigned char *const *)attributes);
    if (local != NULL) xmlFree(local);
    if (prefix != NULL) xmlFree(prefix);
    if (stop) xmlStopParser(ctxt);
}

static void on_end_element(void *ctx, const xmlChar *name) {
    (void)name;
    const spc_html_events *events = events_of(ctx);
    events->end_element(events->context);
}

static void on_characters(void *ctx, const xmlChar *bytes, int length) {
    const spc_html_events *events = events_of(ctx);
    events->text(events->context, bytes, length, 0);
}

static void on_raw_text(void *ctx, const xmlChar *bytes, int length) {
    const spc_html_events *events = events_of(ctx);
    events->text(events->context, bytes, length, 1);
}

static void on_comment(void *ctx, const xmlChar *text) {
    const spc_html_events *events = events_of(ctx);
    events->comment(events->context, text);
}

static void on_processing_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    (void)target;
    (void)data;
    const spc_html_events *events = events_of(ctx);
    events->processing_instruction(events->context);
}

static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    const spc_html_events *events = events_of(ctx);
    events->document_type(events->context);
}

int spc_html_read_events(const char *buffer, int size, const char *encoding, int options,
                         const spc_html_events *events) {
    // `htmlReadMemory` in the libxml2 this links (2.9): a memory parser context, the HTML handler's first part
    // copied over its handler, the options, the caller's encoding, then the document.
    xmlInitParser();
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(buffer, size);
    if (ctxt == NULL) return -1;
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof(handler));
    xmlSAX2InitHtmlDefaultSAXHandler(&handler);
    // No document: the events replace libxml2's tree.
    handler.startDocument = NULL;
    handler.endDocument = NULL;
    handler.startElement = on_start_element;
    handler.endElement = on_end_element;
    handler.characters = on_characters;
    handler.cdataBlock = on_raw_text;
    handler.comment = on_comment;
    handler.processingInstruction = on_processing_instruction;
    handler.internalSubset = on_internal_subset;
    if (ctxt->sax != NULL) memcpy(ctxt->sax, &handler, sizeof(xmlSAXHandlerV1));
    ctxt->_private = (void *)events;
    htmlCtxtUseOptions(ctxt, options);
    ctxt->html = 1;
    if (encoding != NULL) {
        xmlCharEncodingHandlerPtr encoder = xmlFindCharEncodingHandler(encoding);
        if (encoder != NULL) {
            xmlSwitchToEncoding(ctxt, encoder);
            if (ctxt->input->encoding != NULL) xmlFree((xmlChar *)ctxt->input->encoding);
            ctxt->input->encoding = xmlStrdup((const xmlChar *)encoding);
        }
    }
    htmlParseDocument(ctxt);
    if (ctxt->myDoc != NULL) xmlFreeDoc(ctxt->myDoc);
    xmlFreeParserCtxt(ctxt);
    return 0;
}
