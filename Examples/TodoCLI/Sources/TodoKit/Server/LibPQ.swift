/// The few functions of PostgreSQL's client library, libpq, that `todo` uses, loaded when a
/// server is first used rather than linked.
///
/// Linking would make libpq's headers and library a build requirement: `swift run todo` must
/// build on a machine that has SQLite but no PostgreSQL client, and only `--database` needs
/// libpq. So the library is opened with `dlopen` and the functions are declared here, by
/// their C signatures from `libpq-fe.h`, which have been stable since PostgreSQL 7.4.
struct LibPQ: @unchecked Sendable {
    // @unchecked: every stored property is a C function pointer (an immutable address into
    // the loaded library, which is never closed), so sharing them across threads is safe.

    typealias Connect = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias ConnectionStatus = @convention(c) (OpaquePointer?) -> Int32
    typealias ConnectionText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias Finish = @convention(c) (OpaquePointer?) -> Void
    typealias ExecuteParameters = @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
        UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> OpaquePointer?
    typealias ResultStatus = @convention(c) (OpaquePointer?) -> Int32
    typealias ResultText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias ResultField = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias ResultCount = @convention(c) (OpaquePointer?) -> Int32
    typealias ResultValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    typealias ResultIsNull = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias Clear = @convention(c) (OpaquePointer?) -> Void
    typealias NoticeProcessor = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    typealias SetNoticeProcessor = @convention(c) (OpaquePointer?, NoticeProcessor?, UnsafeMutableRawPointer?) -> NoticeProcessor?
    typealias LibraryVersion = @convention(c) () -> Int32
    typealias Socket = @convention(c) (OpaquePointer?) -> Int32
    typealias ConsumeInput = @convention(c) (OpaquePointer?) -> Int32
    typealias Notifies = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    typealias FreeMemory = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let connect: Connect
    let status: ConnectionStatus
    let errorMessage: ConnectionText
    let finish: Finish
    let executeParameters: ExecuteParameters
    let resultStatus: ResultStatus
    let resultErrorMessage: ResultText
    let resultErrorField: ResultField
    let tupleCount: ResultCount
    let fieldCount: ResultCount
    let value: ResultValue
    let isNull: ResultIsNull
    let clear: Clear
    let setNoticeProcessor: SetNoticeProcessor
    let libraryVersion: LibraryVersion
    // For `todo watch` (LISTEN/NOTIFY): the connection's socket to wait on, reading what
    // arrived without blocking, and the notifications it held, freed with PQfreemem.
    let socket: Socket
    let consumeInput: ConsumeInput
    let notifies: Notifies
    let freeMemory: FreeMemory

    /// `CONNECTION_OK` of `ConnStatusType`.
    static let connectionOK: Int32 = 0
    /// `PGRES_COMMAND_OK` and `PGRES_TUPLES_OK` of `ExecStatusType`.
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    /// `PG_DIAG_SQLSTATE`: the five-character error code of a failed result.
    static let sqlStateField = Int32(UInt8(ascii: "C"))
    /// `PG_DIAG_MESSAGE_PRIMARY`: the server's one-line reason, without the `LINE 1: ...`
    /// quote of the statement and its caret, which show `todo`'s SQL rather than the
    /// user's problem.
    static let primaryMessageField = Int32(UInt8(ascii: "M"))

    /// The library, loaded on first use; the error says what to install when it is missing.
    static let shared: Result<LibPQ, PostgresError> = load()

    /// The names tried, newest first: `libpq.so.5` is the runtime package's name on Linux
    /// (`libpq5` on Debian and Ubuntu), the `dylib` one Homebrew's.
    static let libraryNames = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"]

    private static func load() -> Result<LibPQ, PostgresError> {
        var handle: UnsafeMutableRawPointer?
        for name in libraryNames {
            handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
            if handle != nil { break }
        }
        guard let handle else {
            return .failure(PostgresError(
                kind: .libraryMissing,
                message: "PostgreSQL's client library (libpq) is not installed: install the package libpq5 (Debian, Ubuntu), libpq (Fedora, Homebrew) or postgresql-libs (Arch)"
            ))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(PostgresError) -> T {
            guard let address = dlsym(handle, name) else {
                throw PostgresError(kind: .libraryMissing, message: "the installed libpq has no function \(name): it is too old")
            }
            return unsafeBitCast(address, to: type)
        }
        do throws(PostgresError) {
            return .success(LibPQ(
                connect: try symbol("PQconnectdb", as: Connect.self),
                status: try symbol("PQstatus", as: ConnectionStatus.self),
                errorMessage: try symbol("PQerrorMessage", as: ConnectionText.self),
                finish: try symbol("PQfinish", as: Finish.self),
                executeParameters: try symbol("PQexecParams", as: ExecuteParameters.self),
                resultStatus: try symbol("PQresultStatus", as: ResultStatus.self),
                resultErrorMessage: try symbol("PQresultErrorMessage", as: ResultText.self),
                resultErrorField: try symbol("PQresultErrorField", as: ResultField.self),
                tupleCount: try symbol("PQntuples", as: ResultCount.self),
                fieldCount: try symbol("PQnfields", as: ResultCount.self),
                value: try symbol("PQgetvalue", as: ResultValue.self),
                isNull: try symbol("PQgetisnull", as: ResultIsNull.self),
                clear: try symbol("PQclear", as: Clear.self),
                setNoticeProcessor: try symbol("PQsetNoticeProcessor", as: SetNoticeProcessor.self),
                libraryVersion: try symbol("PQlibVersion", as: LibraryVersion.self),
                socket: try symbol("PQsocket", as: Socket.self),
                consumeInput: try symbol("PQconsumeInput", as: ConsumeInput.self),
                notifies: try symbol("PQnotifies", as: Notifies.self),
                freeMemory: try symbol("PQfreemem", as: FreeMemory.self)
            ))
        } catch {
            return .failure(error)
        }
    }
}
