// Optional support of GRDB's base test class: compiled only when the
// library has `Database.logError`; then every test records the last
// diagnostic SQLite logged (GRDBCOMPAT_LOGERROR is defined, and
// `GRDBTestCase.setUp()` installs the recorder).

import Foundation
import GRDBLite

/// A diagnostic logged by SQLite.
struct SQLiteDiagnostic {
    var resultCode: ResultCode
    var message: String
}

private final class DiagnosticBox: @unchecked Sendable {
    let lock = NSLock()
    var last: SQLiteDiagnostic?
}

private let diagnostics = DiagnosticBox()

/// The last diagnostic SQLite logged.
var lastSQLiteDiagnostic: SQLiteDiagnostic? {
    diagnostics.lock.lock()
    defer { diagnostics.lock.unlock() }
    return diagnostics.last
}

private let logErrorInstallation: Void = {
    Database.logError = { resultCode, message in
        diagnostics.lock.lock()
        diagnostics.last = SQLiteDiagnostic(resultCode: resultCode, message: message)
        diagnostics.lock.unlock()
    }
}()

/// Installs the recorder of `lastSQLiteDiagnostic`, once per process.
func installLogErrorRecorder() {
    _ = logErrorInstallation
}
