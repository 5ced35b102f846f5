#pragma once
// libxml2's `xmlFree` is a global function pointer Swift 6 refuses to touch: a plain function calls it. The
// libxml2 headers are included only in shims.c (a second Clang module including them breaks the build). Every
// symbol carries the `spc_` prefix. Only HTML may import this module.

/// Calls libxml2's `xmlFree` (a global function pointer Swift 6 refuses to touch).
void spc_xml_free(void *_Nullable pointer);
