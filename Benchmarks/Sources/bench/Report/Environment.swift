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
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            ?? ProcessInfo.processInfo.operatingSystemVersionString
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
    /// The SQLite of each side, asked through its own connection.
    var sqliteBySide: [String: SQLiteInfo]
    /// The peers' versions, as Benchmarks/Package.swift pins them.
    var peers: [String: String]
    /// jemalloc's `version` mallctl, and the library `malloc` resolves to.
    var allocator: String

    /// What a report written before a figure existed says of it.
    static let unknown = "unknown"

    /// The peers' versions: keep in step with Benchmarks/Package.swift.
    static let peerVersions = ["GRDB": "7.10.0", "SQLiteNIO": "1.13.2", "SQLiteKit": "4.5.2", "SQLKit": "3.36.0"]

    /// One line: each SQLite the sides run on, and the sides on it.
    var sqliteSummary: String {
        var sidesByInfo: [(SQLiteInfo, [Side])] = []
        for side in Side.allCases {
            guard let info = sqliteBySide[side.rawValue] else { continue }
            if let index = sidesByInfo.firstIndex(where: { $0.0 == info }) {
                sidesByInfo[index].1.append(side)
            } else {
                sidesByInfo.append((info, [side]))
            }
        }
        return sidesByInfo.map { info, sides in
            "\(sides.map(\.title).joined(separator: ", ")): SQLite \(info.version) (\(info.library), THREADSAFE=\(info.threadsafe), \(info.connectionMode) connections)"
        }.joined(separator: "; ")
    }
}

extension SoftwareInfo {
    /// Decodes older reports too: a missing compiler reads as
    /// ``unknown``, missing SQLite figures as none.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        swiftCompiler = try container.decodeIfPresent(String.self, forKey: .swiftCompiler) ?? Self.unknown
        buildConfiguration = try container.decode(String.self, forKey: .buildConfiguration)
        sqliteBySide = try container.decodeIfPresent([String: SQLiteInfo].self, forKey: .sqliteBySide) ?? [:]
        peers = try container.decode([String: String].self, forKey: .peers)
        allocator = try container.decode(String.self, forKey: .allocator)
    }
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
