#include "CXMLShims.h"
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlmemory.h>

void spc_xml_free(void *pointer) {
    if (pointer != NULL) xmlFree(pointer);
}
