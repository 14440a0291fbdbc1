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

/// Held while a child's pipes are made and it starts.
private let spawnLock = NSLock()

/// A running `grdblite-crash-writer`, whose stdout is read line by line.
///
/// Started with `posix_spawn` and reaped with `waitpid`, not with
/// Foundation's `Process`: on Linux, `Process.waitUntilExit()` polls a run
/// loop (spinning, on a thread of the test runtime) for a termination that
/// another thread reports, and has been reported to wait forever for a
/// child that has exited. (A CI run never ended, its output stopped in the
/// first seconds of the tests: when these tests hold both threads of the
/// test runtime.)
final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: the buffer is only used by the thread that
    // reads the child's lines.
    /// The child's process identifier.
    let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    /// The child's stdin.
    let input: FileHandle
    private var buffer: [UInt8] = []
    private let exit = ChildExit()

    /// Starts the child with `arguments`, and `environment` added to this
    /// process's environment: the crash writer, or `executable` (an
    /// absolute path) when given.
    init(_ arguments: [String], environment: [String: String] = [:], executable: String? = nil) throws {
        let added = executable == nil ? childEnvironment.merging(environment) { $1 } : environment
        let executable = try executable ?? crashWriterURL().path
        let variables = ProcessInfo.processInfo.environment.merging(added) { $1 }.map { "\($0)=\($1)" }
        var stdin: [Int32] = [0, 0]
        var stdout: [Int32] = [0, 0]
        var stderr: [Int32] = [0, 0]
        // Every end is close-on-exec (the child's are duplicated onto 0, 1
        // and 2, which are not), and no other child starts before they are:
        // a child that inherited another's pipe would hold its end open.
        spawnLock.lock()
        defer { spawnLock.unlock() }
        guard pipe(&stdin) == 0, pipe(&stdout) == 0, pipe(&stderr) == 0 else {
            throw ChildProcessError(description: "pipe failed: errno \(errno)")
        }
        for fd in stdin + stdout + stderr { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
        // Default signal handling and no blocked signal in the child,
        // whatever the spawning thread (a Dispatch worker) blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends, now the child's only.
        close(stdin[0])
        close(stdout[1])
        close(stderr[1])
        guard result == 0 else {
            close(stdin[1])
            close(stdout[0])
            close(stderr[0])
            throw ChildProcessError(description: "posix_spawn \(executable) failed: errno \(result)")
        }
        self.pid = pid
        stdoutFD = stdout[0]
        stderrFD = stderr[0]
        input = FileHandle(fileDescriptor: stdin[1], closeOnDealloc: true)
        // Reaped as soon as it exits: Swift Testing's exit-test monitor
        // waits for any child without reaping it (`waitid` with
        // `WNOWAIT`), and a zombie of ours would keep it spinning.
        let exit = self.exit
        let child = pid
        Thread {
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift doesn't import.
            let signal = raw & 0x7F
            exit.record(signal == 0 ? (raw >> 8) & 0xFF : signal)
        }.start()
    }

    deinit {
        if exit.status == nil {
            kill(pid, SIGKILL)
            _ = exit.wait()
        }
        close(stdoutFD)
        close(stderrFD)
    }

    /// The next line the child printed, or nil at the end of its output.
    func readLine() -> String? {
        let fd = stdoutFD
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

    /// Writes a line on the child's stdin.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Kills the child with SIGKILL and waits for it.
    func killNow() {
        if exit.status == nil { kill(pid, SIGKILL) }
        _ = exit.wait()
    }

    /// Waits for the child to exit; returns its exit status, or the number
    /// of the signal that killed it (as Foundation's `Process` does).
    @discardableResult
    func waitForExit() -> Int32 {
        exit.wait()
    }

    /// What the child printed on stderr (once it has exited).
    func errorOutput() -> String {
        if exit.status == nil { return "(still running)" }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[..<count])
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The exit status of a child, once its thread has reaped it.
private final class ChildExit: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is only used under `condition`.
    private let condition = NSCondition()
    private var recorded: Int32?

    /// The status, or nil while the child runs.
    var status: Int32? { condition.withLock { recorded } }

    func record(_ status: Int32) {
        condition.withLock {
            recorded = status
            condition.broadcast()
        }
    }

    /// Waits for the status.
    func wait() -> Int32 {
        condition.withLock {
            while recorded == nil { condition.wait() }
            return recorded!
        }
    }
}
