import Foundation
import Testing

/// The child process of the crash and multi-process tests: on Linux, this
/// test binary itself, which runs as `grdblite-crash-writer` when
/// `childEnvironment` is set (see Tests/Support/CCrashWriterEntry), so that
/// the tests need no executable built for the target platform; elsewhere,
/// the `grdblite-crash-writer` executable next to the test binary.
/// `GRDBLITE_CRASH_WRITER` overrides the path (of an executable).
func crashWriterURL() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["GRDBLITE_CRASH_WRITER"] {
        return URL(fileURLWithPath: path)
    }
#if os(Linux)
    return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
#else
    // macOS: the test binary is inside `GRDBLitePackageTests.xctest/Contents/MacOS/`.
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    if let executable = Bundle.main.executableURL {
        directory = executable.deletingLastPathComponent()
    }
    for candidate in [
        directory, directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    ] {
        let url = candidate.appendingPathComponent("grdblite-crash-writer")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw ChildProcessError(description: """
        grdblite-crash-writer not found next to the test binary in \(directory.path): \
        build it with `swift build`, or set GRDBLITE_CRASH_WRITER to its path
        """)
#endif
}

/// The environment that makes the test binary run as the crash writer
/// (empty when `GRDBLITE_CRASH_WRITER` names an executable).
let childEnvironment: [String: String] = {
#if os(Linux)
    if ProcessInfo.processInfo.environment["GRDBLITE_CRASH_WRITER"] == nil {
        return ["GRDBLITE_CRASH_WRITER_CHILD": "1"]
    }
#endif
    return [:]
}()

struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}

/// A running `grdblite-crash-writer`, whose stdout is read line by line.
final class ChildProcess {
    let process = Process()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let stdin = Pipe()
    private var buffer: [UInt8] = []

    /// Starts the child with `arguments`, and `environment` added to this
    /// process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = try crashWriterURL()
        process.arguments = arguments
        let added = childEnvironment.merging(environment) { $1 }
        if !added.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
        }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The next line the child printed, or nil at the end of its output.
    func readLine() -> String? {
        let fd = stdout.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads a line and checks it.
    func expectLine(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = readLine()
        if line != expected {
            throw ChildProcessError(
                description:
                    "expected \"\(expected)\" from the child, got \(line.map { "\"\($0)\"" } ?? "end of output"); stderr: \(errorOutput())"
            )
        }
    }

    /// The child's stdin.
    var input: FileHandle { stdin.fileHandleForWriting }

    /// Writes a line on the child's stdin.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Kills the child with SIGKILL and waits for it.
    func killNow() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the child to exit; returns its status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the child printed on stderr (once it has exited).
    func errorOutput() -> String {
        if process.isRunning { return "(still running)" }
        return String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
