// The header's inline functions are the module; the variable they read is defined here, once.
#include "TreeArrayThreadLocal.h"

_Thread_local void *_Nullable treeArrayThreadJournal = 0;
