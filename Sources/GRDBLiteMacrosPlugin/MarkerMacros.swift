import SwiftSyntax
import SwiftSyntaxMacros

/// `@DatabaseColumn("name")`, `@DatabaseTransient` and `@DatabaseJSON` only
/// mark a property for `@DatabaseRecord`, which reads them: they expand to
/// nothing.
public struct DatabaseColumnMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// See ``DatabaseColumnMacro``.
public struct DatabaseTransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// See ``DatabaseColumnMacro``.
public struct DatabaseJSONMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
