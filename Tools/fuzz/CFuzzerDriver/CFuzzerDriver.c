// Declarations only (see include/CFuzzerDriver.h); a C target needs one source file.
#include "CFuzzerDriver.h"
