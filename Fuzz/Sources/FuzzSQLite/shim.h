// The system's SQLite, for fuzz-todo-store's own check of an input database
// (`PRAGMA integrity_check`). The root package's CSQLite module is not a product.
#include <sqlite3.h>
