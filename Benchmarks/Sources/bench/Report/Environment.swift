import Foundation

/// The machine the bench ran on.
struct MachineInfo: Codable {
    /// `model name` in /proc/cpuinfo.
    var cpu: String
    /// Cores available to the process.
    var cores: Int
    var memoryBytes: UInt64
    /// PRETTY_NAME in /etc/os-release, and the kernel release (uname).
    var os: String

    static func current() -> MachineInfo {
        let cpuinfo = readWholeFile("/proc/cpuinfo") ?? ""
        let cpu = field("model name", in: cpuinfo, separator: ":") ?? "unknown"
        let osRelease = readWholeFile("/etc/os-release") ?? ""
        let osName = field("PRETTY_NAME", in: osRelease, separator: "=")?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? ProcessInfo.processInfo.operatingSystemVersionString
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(
            cpu: cpu,
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            os: "\(osName), Linux \(kernel)")
    }

    private static func field(_ name: String, in text: String, separator: Character) -> String? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// The contents of a text file, to its end: `String(contentsOfFile:)` stops
/// after the first 4 KiB of /proc files, whose size reads as zero.
func readWholeFile(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}

/// The software the bench measured, and how it was built.
struct SoftwareInfo: Codable {
    /// The Swift compiler that compiled the bench, from compile-time
    /// `#if compiler(>=…)` checks: "6.3.1" means at least 6.3.1 and below
    /// 6.3.2.
    var swiftCompiler: String
    /// `release` or `debug` (`#if DEBUG`).
    var buildConfiguration: String
    /// `sqlite_version()` asked through each side's own connection.
    var sqliteVersionBySide: [String: String]
    var grdbVersion: String
    /// jemalloc's `version` mallctl, and the library `malloc` resolves to.
    var allocator: String
}

/// The version of the compiler that compiled this file, to the patch level
/// for Swift 6 (a lower bound: the first check that holds).
let swiftCompilerVersion: String = {
    #if compiler(>=7.0)
    return "7.0 or later"
    #elseif compiler(>=6.5)
    return "6.5 or later"
    #elseif compiler(>=6.4.3)
    return "6.4.3 or later"
    #elseif compiler(>=6.4.2)
    return "6.4.2"
    #elseif compiler(>=6.4.1)
    return "6.4.1"
    #elseif compiler(>=6.4)
    return "6.4.0"
    #elseif compiler(>=6.3.3)
    return "6.3.3 or later"
    #elseif compiler(>=6.3.2)
    return "6.3.2"
    #elseif compiler(>=6.3.1)
    return "6.3.1"
    #elseif compiler(>=6.3)
    return "6.3.0"
    #elseif compiler(>=6.2)
    return "6.2.x"
    #elseif compiler(>=6.1)
    return "6.1.x"
    #else
    return "older than 6.1"
    #endif
}()

let buildConfiguration: String = {
    #if DEBUG
    return "debug"
    #else
    return "release"
    #endif
}()
