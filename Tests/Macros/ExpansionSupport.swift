import GRDBLiteMacrosPlugin
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The record macros as the compiler sees them: `@DatabaseRecord` adds the
/// conformances its declaration lists.
let recordMacros: [String: MacroSpec] = [
    "DatabaseRecord": MacroSpec(
        type: DatabaseRecordMacro.self,
        conformances: ["FetchableRecord", "PersistableRecord", "MutablePersistableRecord"].map {
            TypeSyntax(IdentifierTypeSyntax(name: .identifier($0)))
        }),
    "DatabaseColumn": MacroSpec(type: DatabaseColumnMacro.self),
    "DatabaseTransient": MacroSpec(type: DatabaseTransientMacro.self),
    "DatabaseJSON": MacroSpec(type: DatabaseJSONMacro.self),
]

/// Expands the record macros in `source` and compares with
/// `expandedSource`, the diagnostics, and the source with the fix-its
/// applied; each difference is an issue.
func assertRecordExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    fixedSource: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation)
{
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: recordMacros,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        })
}
