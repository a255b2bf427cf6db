// CAtomicWords is a header (include/CAtomicWords.h); SwiftPM builds a C target only from a source file.
#include "CAtomicWords.h"
