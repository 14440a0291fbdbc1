import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin of GRDBLite's record macros.
@main
struct GRDBLiteMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        DatabaseRecordMacro.self,
        DatabaseColumnMacro.self,
        DatabaseTransientMacro.self,
        DatabaseJSONMacro.self,
    ]
}
