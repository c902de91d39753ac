// The system's SQLite, for the todo example. If this include fails, install the library's
// development files: `apt-get install libsqlite3-dev` (Debian, Ubuntu), `dnf install
// sqlite-devel` (Fedora), `brew install sqlite` (macOS has it in the SDK already).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// binding text or a blob with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
