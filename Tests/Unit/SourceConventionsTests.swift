import Foundation
import Testing

/// Rules of the library's source that the compiler doesn't check, checked
/// on the files of `Sources/GRDBLite`:
///
/// - A folder is a layer, and no file depends on a layer above it: Core,
///   then Schema (introspection and the schema DSL), then Record and
///   Observation (which don't depend on each other), then QueryInterface,
///   then Migration, Dump, FTS and JSON (which build on all the others).
/// - Every `@unchecked Sendable` and unsafe construct carries a one-line
///   reason that names what it bypasses, in its own words (not "see above",
///   "as above" or a bare "see `name`").
/// - A public name with a leading underscore says that it is not an API,
///   and why it is public.
/// - One lock type: `Locked` (a pthread mutex, which Thread Sanitizer
///   sees), `Atomic` for counters; no other mutex.
@Suite struct SourceConventionsTests {
    // MARK: - Layers

    /// Layers, lowest first. Layers of the same rank don't depend on each
    /// other.
    static let layers: [(folder: String, rank: Int)] = [
        ("Core", 0),
        ("Schema", 1),
        ("Record", 2),
        ("Observation", 2),
        ("QueryInterface", 3),
        ("Migration", 4),
        ("Dump", 4),
        ("FTS", 4),
        ("JSON", 4),
    ]

    @Test func noFileDependsOnALayerAbove() throws {
        let files = try SourceFile.library()
        // The types each layer declares. Associated types are allowed in
        // their layer and above, but don't forbid their names below: they
        // belong to their protocol, and names such as `Value` are common
        // generic parameters in every layer.
        let declaringKeywords: Set<String> = ["class", "struct", "enum", "protocol", "typealias", "actor"]
        var declarations: [String: Set<String>] = [:]
        var associatedTypes: [String: Set<String>] = [:]
        for file in files {
            // `class var`, `class func`: members, not types.
            for (keyword, name) in zip(file.identifiers, file.identifiers.dropFirst())
            where !["var", "func", "let", "subscript"].contains(name) {
                if declaringKeywords.contains(keyword) {
                    declarations[file.layer, default: []].insert(name)
                } else if keyword == "associatedtype" {
                    associatedTypes[file.layer, default: []].insert(name)
                }
            }
        }
        var violations: [String] = []
        for file in files {
            let rank = try #require(Self.layers.first { $0.folder == file.layer }).rank
            // Names of the layers this file may use (its own included).
            let allowed = Self.layers
                .filter { $0.folder == file.layer || $0.rank < rank }
                .reduce(into: Set<String>()) {
                    $0.formUnion(declarations[$1.folder] ?? [])
                    $0.formUnion(associatedTypes[$1.folder] ?? [])
                }
            let identifiers = Set(file.identifiers)
            for layer in Self.layers where layer.folder != file.layer && layer.rank >= rank {
                let forbidden = (declarations[layer.folder] ?? []).subtracting(allowed)
                for name in identifiers.intersection(forbidden).sorted() {
                    violations.append("\(file.path) uses \(layer.folder).\(name)")
                }
            }
        }
        #expect(violations == [])
    }

    /// CONTRIBUTING.md names each layer.
    @Test func contributingNamesEveryLayer() throws {
        let text = try String(
            contentsOf: SourceFile.root.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        let unnamed = Self.layers.map(\.folder).filter { !text.contains("`\($0)`") }
        #expect(unnamed == [])
    }

    // MARK: - Unsafe constructs

    /// The layers whose unsafe constructs are checked.
    static let checkedLayers: Set<String> = [
        "Core", "Record", "Observation", "Schema", "Migration", "QueryInterface", "Dump", "FTS", "JSON",
    ]

    /// Constructs that bypass a check of the compiler, and the words one of
    /// which their reason must contain.
    static let unsafeConstructs: [(constructs: [String], words: [String])] = [
        (["@unchecked Sendable"], ["Sendable"]),
        (["@exclusivity(unchecked)"], ["exclusivity"]),
        (["nonisolated(unsafe)"], ["nonisolated", "Unsafe", "unsafe"]),
        (
            ["unowned(unsafe)", "Unmanaged", "_withUnsafeGuaranteedRef"],
            ["Unmanaged", "Unowned", "unowned", "Unretained", "unretained", "retain"]
        ),
        (
            [
                "unsafeBitCast", "unsafeDowncast", "unsafelyUnwrapped", "withUnsafe", "withMemoryRebound",
                "assumingMemoryBound", "bindMemory",
            ],
            ["Unsafe", "unsafe", "alive"]
        )
    ]

    @Test func unsafeConstructsCarryAReason() throws {
        var violations: [String] = []
        for file in try SourceFile.library() where Self.checkedLayers.contains(file.layer) {
            let lines = file.text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//")[0]
                for construct in Self.unsafeConstructs where construct.constructs.contains(where: code.contains) {
                    // The line's own comment, and the comments right above.
                    var reason = line.dropFirst(code.count)
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                        reason += lines[above]
                        above -= 1
                    }
                    // A reason is its own sentence: "see above", "as above" or
                    // a bare "see `name`" would survive a change of the code
                    // they point to.
                    let pointsElsewhere = reason.contains("see above") || reason.contains("as above")
                        || reason.range(of: ": see `[^`]+`( above)?\\.", options: .regularExpression) != nil
                    if !construct.words.contains(where: reason.contains) || pointsElsewhere {
                        violations.append("\(file.path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(violations == [])
    }

    // MARK: - Locks

    /// Every mutual exclusion goes through `Locked` (Core/Support/Locked.swift),
    /// whose pthread mutex Thread Sanitizer intercepts, unlike a contended
    /// `Synchronization.Mutex` on Linux.
    @Test func oneLockType() throws {
        let otherLocks = ["Mutex<", "Mutex(", "NSLock", "NSRecursiveLock", "os_unfair_lock", "OSAllocatedUnfairLock"]
        var violations: [String] = []
        for file in try SourceFile.library() where file.path != "Core/Support/Locked.swift" {
            for (index, line) in file.text.components(separatedBy: "\n").enumerated() {
                let code = line.components(separatedBy: "//")[0]
                if otherLocks.contains(where: code.contains) {
                    violations.append("\(file.path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(violations == [])
    }

    // MARK: - Underscored public names

    @Test func publicUnderscoredNamesSayTheyAreNotAnAPI() throws {
        var violations: [String] = []
        for file in try SourceFile.library() {
            let lines = file.text.components(separatedBy: "\n")
            // The requirements of a public protocol are public.
            var publicProtocolDepth: Int?
            var depth = 0
            for (index, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//")[0]
                if code.contains("public protocol ") && publicProtocolDepth == nil {
                    publicProtocolDepth = depth
                }
                let isDeclaration = ["func", "var", "let", "class", "struct", "enum", "protocol", "typealias", "case"]
                    .contains { code.contains("\($0) _") }
                let isPublic = code.contains("public ") || code.contains("open ")
                    || (publicProtocolDepth.map { depth == $0 + 1 } ?? false)
                if isDeclaration && isPublic {
                    var documentation = ""
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                        documentation += lines[above]
                        above -= 1
                    }
                    if !documentation.localizedCaseInsensitiveContains("not an API") {
                        violations.append("\(file.path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
                if let protocolDepth = publicProtocolDepth, depth <= protocolDepth, code.contains("}") {
                    publicProtocolDepth = nil
                }
            }
        }
        #expect(violations == [])
    }
}

extension SourceConventionsTests {
    /// What tests share: temporary directories and the seeded generator
    /// (Tests/TestSupport), SQL recording (Tests/Unit/Support); and their
    /// comments state rules instead of citing documents that are not in
    /// the repository.
    @Test func testsShareTheirSupport() throws {
        let forbidden = [
            "FileManager.default.temporaryDirectory": "use TemporaryDirectory",
            "0x9E37_79B9_7F4A_7C15": "use SeededGenerator",
            "db.trace {": "use recordedSQL or SQLRecorder",
            "DESIGN.md": "state the rule",
            "PERFORMANCE-NOTES": "state the rule",
            "(seed 0": "state the rule",
        ]
        let tests = SourceFile.root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var violations: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift"),
                  !path.hasPrefix("TestSupport/"), !path.hasPrefix("Unit/Support/"),
                  // GRDB's base class, rebuilt over the public API in another package.
                  !path.hasPrefix("GRDBCompat/"),
                  !path.hasSuffix("SourceConventionsTests.swift")
            else { continue }
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            for (pattern, fix) in forbidden.sorted(by: { $0.key < $1.key }) where text.contains(pattern) {
                violations.append("Tests/\(path) contains \(pattern): \(fix)")
            }
        }
        #expect(violations == [])
    }
}

/// A Swift file of `Sources/GRDBLite`.
private struct SourceFile {
    /// Relative to `Sources/GRDBLite`.
    var path: String
    /// The top folder: the layer.
    var layer: String
    var text: String

    /// The identifiers of the code, outside of comments and string
    /// literals, in order.
    var identifiers: [String] = []

    static func identifiers(in text: String) -> [String] {
        var identifiers: [String] = []
        var current = ""
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return iterator.next()
        }
        func flush() {
            if !current.isEmpty { identifiers.append(current); current = "" }
        }
        while let scalar = next() {
            if scalar == "/" , let following = next() {
                if following == "/" {
                    flush()
                    while let skipped = next(), skipped != "\n" { }
                    continue
                }
                if following == "*" {
                    flush()
                    var last: Unicode.Scalar = " "
                    while let skipped = next(), !(last == "*" && skipped == "/") { last = skipped }
                    continue
                }
                pending = following
            }
            if scalar == "\"" {
                // A string literal (a multi-line one ends at the next quote
                // too, which is enough to skip its words).
                flush()
                var escaped = false
                while let skipped = next() {
                    if escaped {
                        escaped = false
                    } else if skipped == "\\" {
                        escaped = true
                    } else if skipped == "\"" {
                        break
                    }
                }
                continue
            }
            if scalar == "_" || scalar.properties.isAlphabetic
                || (scalar.properties.numericType != nil && !current.isEmpty)
            {
                current.unicodeScalars.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return identifiers
    }

    /// The package root (this file is Tests/Unit/SourceConventionsTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func library() throws -> [SourceFile] {
        let sources = root.appendingPathComponent("Sources/GRDBLite")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [SourceFile] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            files.append(SourceFile(
                path: path, layer: String(path.prefix { $0 != "/" }), text: text,
                identifiers: identifiers(in: text)))
        }
        #expect(files.count > 100, "the sources of the library are at \(sources.path)")
        return files.sorted { $0.path < $1.path }
    }
}
