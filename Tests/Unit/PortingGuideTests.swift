import Foundation
import Testing

/// The porting guide (`DifferencesFromGRDB.md`) says only what tests hold:
/// each difference it lists names, after "Tested by", the tests that show
/// it (`Suite.function`), and each named test exists.
@Suite struct PortingGuideTests {
    /// The sections whose bullets are differences.
    static let sections = [
        "## What may not compile",
        "## What behaves differently with your data",
        "## What differs in errors, messages and labels",
    ]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bullets of the difference sections, each as one line.
    static func differences() throws -> [String] {
        let guide = try String(
            contentsOf: root.appendingPathComponent("Sources/GRDBLite/GRDBLite.docc/DifferencesFromGRDB.md"),
            encoding: .utf8)
        var bullets: [String] = []
        var inSection = false
        for line in guide.components(separatedBy: "\n") {
            if line.hasPrefix("## ") {
                inSection = sections.contains(line)
            } else if inSection && line.hasPrefix("- ") {
                bullets.append(line)
            } else if inSection && line.hasPrefix("  "), !bullets.isEmpty {
                bullets[bullets.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return bullets
    }

    /// The tests a bullet names: `Suite.function` after "Tested by".
    static func citedTests(in bullet: String) -> [String] {
        guard let range = bullet.range(of: "Tested by") else { return [] }
        return bullet[range.upperBound...]
            .matches(of: #/`([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)`/#)
            .map { String($0.output.1) }
    }

    /// Every test of the package's test targets, as `Suite.function`: the
    /// functions marked `@Test` (Swift Testing) or named `test...` (XCTest),
    /// under the top-level type or extension that holds them.
    static func existingTests() throws -> Set<String> {
        let tests = root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var names: Set<String> = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let lines = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
                .components(separatedBy: "\n")
            var suite: String?
            for (index, line) in lines.enumerated() {
                if let match = line.firstMatch(of: #/^(?:@[^ ]+ )*(?:final )?(?:struct|class|extension|enum) (\w+)/#) {
                    suite = String(match.output.1)
                }
                guard let owner = suite, let match = line.firstMatch(of: #/func (\w+)\(/#) else { continue }
                let function = String(match.output.1)
                // The attributes of the function: its line, and the lines
                // above up to a blank line, a comment or another declaration.
                var attributes = line
                var above = index - 1
                while above >= 0, above >= index - 4 {
                    let previous = lines[above].trimmingCharacters(in: .whitespaces)
                    if previous.isEmpty || previous.hasPrefix("//") || previous.hasSuffix("{")
                        || previous.hasSuffix("}") || previous.contains("func ")
                    {
                        break
                    }
                    attributes += previous
                    above -= 1
                }
                if attributes.contains("@Test") || function.hasPrefix("test") {
                    names.insert("\(owner).\(function)")
                }
            }
        }
        return names
    }

    @Test func everyDifferenceNamesItsTests() throws {
        let bullets = try Self.differences()
        #expect(bullets.count > 20, "the guide's differences are found")
        let untested = bullets.filter { Self.citedTests(in: $0).isEmpty }.map { String($0.prefix(80)) }
        #expect(untested == [])
    }

    @Test func everyNamedTestExists() throws {
        let existing = try Self.existingTests()
        #expect(existing.contains("PortingGuideTests.everyNamedTestExists"))
        let missing = try Self.differences().flatMap(Self.citedTests).filter { !existing.contains($0) }
        #expect(missing == [])
    }
}
