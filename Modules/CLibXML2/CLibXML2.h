#pragma once
// Debian's libxml2 is built with ICU; its headers would pull the system ICU in and clash with
// Foundation's own ICU module on every clean build. Hide it before any other libxml2 header.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/parser.h>
