// CPrefetch is a header (include/CPrefetch.h); SwiftPM builds a C target only from a source file.
#include "CPrefetch.h"
