// The module is its header (TreeArrayPrefetch.h): one inline function, inlined where it is
// called. A C target needs a source file to build.
#include "TreeArrayPrefetch.h"
