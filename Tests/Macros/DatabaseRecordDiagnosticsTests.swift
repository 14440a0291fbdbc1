import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@DatabaseRecord` refuses, at compile time, with a fix-it where one
/// exists.
@Suite struct DatabaseRecordDiagnosticsTests {
    @Test func enumProtocolAndActor() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            enum Color {
                case red
            }
            """,
            expandedSource: """
            enum Color {
                case red
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@DatabaseRecord applies to a struct or a final class, not to an enum",
                    line: 1, column: 1)
            ])
        assertRecordExpansion(
            """
            @DatabaseRecord
            protocol Named {
                var name: String { get }
            }
            """,
            expandedSource: """
            protocol Named {
                var name: String { get }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@DatabaseRecord applies to a struct or a final class, not to a protocol",
                    line: 1, column: 1)
            ])
        assertRecordExpansion(
            """
            @DatabaseRecord
            actor Counter {
                var count: Int
            }
            """,
            expandedSource: """
            actor Counter {
                var count: Int
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@DatabaseRecord applies to a struct or a final class, not to an actor",
                    line: 1, column: 1)
            ])
    }

    @Test func nonFinalClass() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            class Author {
                var name: String
            }
            """,
            expandedSource: """
            class Author {
                var name: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@DatabaseRecord applies to a final class only: a subclass would not be read or written whole",
                    line: 1, column: 1, fixIts: [FixItSpec(message: "Add 'final'")])
            ],
            fixedSource: """
            @DatabaseRecord
            final class Author {
                var name: String
            }
            """)
    }

    @Test func letWithInitialValue() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Player {
                var name: String
                let kind = "player"
            }
            """,
            expandedSource: """
            struct Player {
                var name: String
                let kind = "player"
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'kind' is a 'let' with an initial value: init(row:) can't set it; make it a 'var' or mark it @DatabaseTransient",
                    line: 4, column: 9, fixIts: [FixItSpec(message: "Replace 'let' with 'var'")])
            ],
            fixedSource: """
            @DatabaseRecord
            struct Player {
                var name: String
                var kind = "player"
            }
            """)
    }

    @Test func computedPropertyMarkedAsColumn() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Player {
                var name: String
                @DatabaseColumn("upper_name")
                var upperName: String { name.uppercased() }
                @DatabaseJSON var letters: [Character] {
                    get { Array(name) }
                    set { name = String(newValue) }
                }
            }
            """,
            expandedSource: """
            struct Player {
                var name: String
                var upperName: String { name.uppercased() }
                var letters: [Character] {
                    get { Array(name) }
                    set { name = String(newValue) }
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'upperName' is a computed property: only stored properties are columns",
                    line: 4, column: 5,
                    fixIts: [FixItSpec(message: "Remove '@DatabaseColumn(\"upper_name\")'")]),
                DiagnosticSpec(
                    message: "'letters' is a computed property: only stored properties are columns", line: 6, column: 5,
                    fixIts: [FixItSpec(message: "Remove '@DatabaseJSON'")]),
            ],
            fixedSource: """
            @DatabaseRecord
            struct Player {
                var name: String
                var upperName: String { name.uppercased() }
                var letters: [Character] {
                    get { Array(name) }
                    set { name = String(newValue) }
                }
            }
            """)
    }

    @Test func transientWithoutDefault() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Player {
                var name: String
                @DatabaseTransient var rank: Int
            }
            """,
            expandedSource: """
            struct Player {
                var name: String
                var rank: Int
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@DatabaseTransient property 'rank' needs a default value: init(row:) doesn't read it",
                    line: 4, column: 28)
            ])
    }

    @Test func nonLiteralArgumentsAndDuplicateColumns() {
        assertRecordExpansion(
            """
            @DatabaseRecord(table: tableName)
            struct Player {
                @DatabaseColumn(columnName) var name: String
                var score: Int
                @DatabaseColumn("SCORE") var bonus: Int
            }
            """,
            expandedSource: """
            struct Player {
                var name: String
                var score: Int
                var bonus: Int
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "table takes a non-empty string literal", line: 1, column: 24),
                DiagnosticSpec(message: "@DatabaseColumn takes a non-empty string literal", line: 3, column: 5),
                DiagnosticSpec(message: "column 'SCORE' is already the column of 'score'", line: 5, column: 34),
            ])
    }
}
