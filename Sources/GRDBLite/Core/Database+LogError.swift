import CSQLite

extension Database {
    /// A function that receives the errors and warnings of SQLite.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// The function that receives SQLite's error log
    /// (<https://www.sqlite.org/errlog.html>), and GRDBLite's own
    /// diagnostics, such as the statements that prevent a connection from
    /// closing.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     print("SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    ///
    /// Set it before any connection opens, in this process: SQLite only
    /// accepts its log callback before it is initialized; afterwards, only
    /// GRDBLite's own diagnostics reach the function.
    public static var logError: LogErrorFunction? {
        get { logErrorFunction.withLock { $0 } }
        set {
            logErrorFunction.withLock { $0 = newValue }
            if newValue != nil {
                _ = grdblite_set_log_callback { _, code, message in
                    guard let message else { return }
                    Database.log(ResultCode(rawValue: code), String(cString: message))
                }
            } else {
                _ = grdblite_set_log_callback(nil)
            }
        }
    }

    /// Sends a diagnostic to ``logError``, if set.
    static func log(_ resultCode: ResultCode, _ message: String) {
        if let log = logErrorFunction.withLock({ $0 }) {
            log(resultCode, message)
        }
    }
}

private let logErrorFunction = Locked<Database.LogErrorFunction?>(nil)
