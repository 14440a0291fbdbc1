import Foundation
import TestSupport

/// A small `tmpfs` file system mounted on a temporary directory: a disk
/// that fills up for real (`ENOSPC`), or that turns read-only for real
/// (root ignores file permissions, not a read-only mount). Mounting needs
/// root, as CI runs; elsewhere the tests that need it are disabled, and
/// say why (`isAvailable`).
struct TmpfsMount {
    let directory: TemporaryDirectory

    /// Whether this process can mount a tmpfs (tried once).
    static let isAvailable: Bool = {
        guard let mount = try? TmpfsMount(size: "64k") else { return false }
        mount.unmount()
        return true
    }()

    /// Mounts a tmpfs of `size` (`mount -o size=`: "2m", "300k") on a new
    /// temporary directory.
    init(size: String) throws {
        directory = try TemporaryDirectory()
        do {
            try Self.run("/usr/bin/mount", "-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", directory.url.path)
        } catch {
            directory.remove()
            throw error
        }
    }

    /// A path in the file system.
    func path(_ name: String) -> String { directory.path(name) }

    /// Makes the file system read-only, or writable again.
    func remount(readOnly: Bool) throws {
        try Self.run("/usr/bin/mount", "-o", "remount,\(readOnly ? "ro" : "rw")", directory.url.path)
    }

    /// Unmounts the file system, and removes the directory.
    func unmount() {
        try? Self.run("/usr/bin/umount", directory.url.path)
        directory.remove()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ tool: String, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let command = ([tool] + arguments).joined(separator: " ")
            throw Failure(description: "\(command): status \(process.terminationStatus)")
        }
    }
}
