import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@DatabaseRecord`: the columns, `init(row:)`, `encode(to:)` and the
/// record conformances of a struct or a final class, from its stored
/// properties in declaration order.
///
/// The extension role writes everything but a class's `init(row:)`, which
/// only the class body can hold (the member role). An `init(row:)` in a
/// struct's body would remove its memberwise initializer, so a struct gets
/// it in the extension. Only the extension role reports diagnostics.
public struct DatabaseRecordMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
            let record = RecordDeclaration(node: node, declaration: declaration, diagnose: nil),
            !record.declares("init(row:)")
        else { return [] }
        return [record.rowInitializer()]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let record = RecordDeclaration(node: node, declaration: declaration, diagnose: { context.diagnose($0) })
        else { return [] }
        let missing = Set(protocols.map(\.trimmedDescription))
        var conformances: [String] = []
        if missing.contains("FetchableRecord") { conformances.append("FetchableRecord") }
        // PersistableRecord lists MutablePersistableRecord too: the compiler
        // doesn't infer a conformance that the macro declares.
        let persistable = ["MutablePersistableRecord"] + (record.isMutable ? [] : ["PersistableRecord"])
        conformances += persistable.filter(missing.contains)
        let inheritance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")

        var members: [String] = []
        if !record.declares("Columns") { members.append(record.columnsEnum()) }
        // A generic type has no static stored properties.
        if !record.declares("databaseTableName") {
            let name = stringLiteral(record.tableName)
            members.append(
                record.isGeneric
                    ? "\(record.access)static var databaseTableName: String { \(name) }"
                    : "\(record.access)static let databaseTableName = \(name)")
        }
        if !record.declares("databaseSelection") {
            let columns = record.columns.map { "Column(\(stringLiteral($0.column)))" }.joined(separator: ", ")
            members.append(
                record.isGeneric
                    ? "\(record.access)static var databaseSelection: [any SQLSelectable] { [\(columns)] }"
                    : "\(record.access)nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [\(columns)]")
        }
        if !record.isClass, !record.declares("init(row:)") { members.append(record.rowInitializer().description) }
        if !record.declares("encode(to:)") { members.append(record.encodeMethod()) }
        if let id = record.autoIncrementedID, !record.declares("didInsert") {
            let mutating = record.isClass ? "" : "mutating "
            members.append("""
                \(record.access)\(mutating)func didInsert(_ inserted: InsertionSuccess) {
                    \(id.identifier) = \(id.wrappedType)(inserted.rowID)
                }
                """)
        }
        let body = members.map { $0.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") }
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: inheritance) {
            \(raw: body.joined(separator: "\n\n"))
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}

/// Reports the errors of a declaration, and counts them.
final class ErrorCollector {
    private let reportDiagnostic: (Diagnostic) -> Void
    private(set) var count = 0

    init(report: @escaping (Diagnostic) -> Void) {
        reportDiagnostic = report
    }

    func report(_ diagnostic: Diagnostic) {
        reportDiagnostic(diagnostic)
        count += 1
    }
}

/// A stored property that is a column.
struct RecordColumn {
    /// The property's name, as written (with backticks if any).
    var identifier: String
    /// The property's name without backticks.
    var name: String
    /// The column's name.
    var column: String
    /// Whether the column holds the property's JSON.
    var isJSON: Bool
    /// Whether the property's type is written as an optional.
    var isOptional: Bool
}

/// What `@DatabaseRecord` reads of the type it is attached to.
struct RecordDeclaration {
    var typeName: String
    var isClass: Bool
    var isGeneric: Bool
    var access: String
    var tableName: String
    var columns: [RecordColumn] = []
    /// The `var id` of an optional integer type, set by `didInsert`.
    var autoIncrementedID: (identifier: String, wrappedType: String)?
    var memberNames: Set<String> = []

    var isMutable: Bool { autoIncrementedID != nil && !isClass }
    var throwsJSON: Bool { columns.contains(where: \.isJSON) }

    func declares(_ member: String) -> Bool { memberNames.contains(member) }

    /// Reads the declaration; nil, after reporting why, when the macro
    /// can't handle it. `diagnose` nil reports nothing (the member role).
    init?(node: AttributeSyntax, declaration: some DeclGroupSyntax, diagnose: ((Diagnostic) -> Void)?) {
        let report = diagnose ?? { _ in }
        let errors = ErrorCollector(report: report)
        func error(_ node: some SyntaxProtocol, _ message: RecordMessage, fixIts: [FixIt] = []) {
            errors.report(Diagnostic(node: node, message: message, fixIts: fixIts))
        }

        let modifiers: DeclModifierListSyntax
        if let structDecl = declaration.as(StructDeclSyntax.self) {
            typeName = structDecl.name.text
            isClass = false
            isGeneric = structDecl.genericParameterClause != nil
            modifiers = structDecl.modifiers
        } else if let classDecl = declaration.as(ClassDeclSyntax.self) {
            typeName = classDecl.name.text
            isClass = true
            isGeneric = classDecl.genericParameterClause != nil
            modifiers = classDecl.modifiers
            if !modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) {
                let start = classDecl.classKeyword.positionAfterSkippingLeadingTrivia
                let fixIt = FixIt(
                    message: RecordFixIt.addFinal,
                    changes: [.replaceText(range: start..<start, with: "final ", in: Syntax(classDecl.classKeyword))])
                error(node, .nonFinalClass, fixIts: [fixIt])
            }
        } else {
            let kind: String
            if declaration.is(EnumDeclSyntax.self) {
                kind = "an enum"
            } else if declaration.is(ProtocolDeclSyntax.self) {
                kind = "a protocol"
            } else if declaration.is(ActorDeclSyntax.self) {
                kind = "an actor"
            } else if declaration.is(ExtensionDeclSyntax.self) {
                kind = "an extension"
            } else {
                kind = "this declaration"
            }
            report(Diagnostic(node: node, message: RecordMessage.unsupportedShape(kind)))
            return nil
        }
        access =
            modifiers.contains(where: {
                [.keyword(.public), .keyword(.open), .keyword(.package)].contains($0.name.tokenKind)
            })
            ? (modifiers.contains(where: { $0.name.tokenKind == .keyword(.package) }) ? "package " : "public ") : ""

        // The table: the macro's argument, or GRDB's default.
        var tableName = Self.defaultTableName(typeName)
        if let arguments = node.arguments?.as(LabeledExprListSyntax.self) {
            for argument in arguments where argument.label?.text == "table" {
                if let literal = argument.expression.as(StringLiteralExprSyntax.self),
                    let value = literal.representedLiteralValue
                {
                    tableName = value
                } else if !argument.expression.is(NilLiteralExprSyntax.self) {
                    error(argument.expression, .notALiteral("table"))
                }
            }
        }
        self.tableName = tableName

        var seenColumns: [String: String] = [:]
        for member in declaration.memberBlock.members {
            let decl = member.decl
            if let nested = decl.asProtocol(NamedDeclSyntax.self) { memberNames.insert(nested.name.text) }
            if let typeAlias = decl.as(TypeAliasDeclSyntax.self) { memberNames.insert(typeAlias.name.text) }
            if let function = decl.as(FunctionDeclSyntax.self) {
                let labels = function.signature.parameterClause.parameters.map { ($0.firstName.text) + ":" }.joined()
                memberNames.insert(function.name.text)
                memberNames.insert("\(function.name.text)(\(labels))")
            }
            if let initializer = decl.as(InitializerDeclSyntax.self) {
                let labels = initializer.signature.parameterClause.parameters.map { ($0.firstName.text) + ":" }.joined()
                memberNames.insert("init(\(labels))")
            }
            guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                if let pattern = binding.pattern.as(IdentifierPatternSyntax.self) {
                    memberNames.insert(pattern.identifier.text)
                }
            }
            if variable.modifiers.contains(where: {
                [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
            }) {
                continue
            }

            let columnAttribute = variable.attribute(named: "DatabaseColumn")
            let jsonAttribute = variable.attribute(named: "DatabaseJSON")
            let isTransient = variable.attribute(named: "DatabaseTransient") != nil
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)

            // `var a, b: Int`: a binding without a type takes the next one's.
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let type = binding.typeAnnotation?.type
                    ?? (binding.initializer == nil
                        ? bindings[(index + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type
                        : nil)
                let identifier = pattern.identifier.text
                let name = identifier.filter { $0 != "`" }

                if binding.isComputed {
                    if let attribute = columnAttribute ?? jsonAttribute {
                        error(
                            attribute, .computedColumn(name),
                            fixIts: [
                                variable.removing(attribute, message: .removeAttribute(attribute.trimmedDescription))
                            ])
                    }
                    continue
                }
                if isTransient {
                    let isOptionalVar = !isLet && type.flatMap(Self.wrappedOptional) != nil
                    if binding.initializer == nil, !isOptionalVar {
                        error(binding, .transientWithoutDefault(name))
                    }
                    continue
                }
                if isLet, binding.initializer != nil {
                    let specifier = variable.bindingSpecifier
                    error(
                        binding, .letWithInitialValue(name),
                        fixIts: [
                            FixIt(
                                message: RecordFixIt.letToVar,
                                changes: [
                                    .replace(
                                        oldNode: Syntax(specifier),
                                        newNode: Syntax(specifier.with(\.tokenKind, .keyword(.var))))
                                ])
                        ])
                    continue
                }

                var column = name
                if let columnAttribute {
                    if let literal = columnAttribute.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
                        .as(StringLiteralExprSyntax.self),
                        let value = literal.representedLiteralValue, !value.isEmpty
                    {
                        column = value
                    } else {
                        error(columnAttribute, .notALiteral("@DatabaseColumn"))
                        continue
                    }
                }
                if let previous = seenColumns[column.lowercased()] {
                    error(binding, .duplicateColumn(column, previous))
                    continue
                }
                seenColumns[column.lowercased()] = name
                columns.append(
                    RecordColumn(
                        identifier: identifier, name: name, column: column, isJSON: jsonAttribute != nil,
                        isOptional: type.flatMap(Self.wrappedOptional) != nil))

                if name == "id", !isLet, jsonAttribute == nil, let type, let wrapped = Self.wrappedOptional(type),
                    ["Int", "Int64", "Int32", "Swift.Int", "Swift.Int64", "Swift.Int32"].contains(wrapped)
                {
                    autoIncrementedID = (identifier, wrapped)
                }
            }
        }
        if errors.count > 0 { return nil }
    }

    /// The wrapped type of `T?` or `Optional<T>`, or nil.
    static func wrappedOptional(_ type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return argument.argument.trimmedDescription
        }
        return nil
    }

    /// GRDB's default table name: the type name with a lowercased first
    /// letter, or a lowercased leading acronym (`HTTPRequest` →
    /// `httpRequest`, `URL` → `url`).
    static func defaultTableName(_ typeName: String) -> String {
        let capitals = typeName.prefix(while: \.isUppercase)
        switch capitals.count {
        case 0: return typeName
        case 1: return capitals.lowercased() + typeName.dropFirst()
        case typeName.count: return typeName.lowercased()
        default: return capitals.dropLast().lowercased() + typeName.dropFirst(capitals.count - 1)
        }
    }

    func columnsEnum() -> String {
        // A generic type has no static stored properties.
        let constants = columns.map { column in
            isGeneric
                ? "    \(access)static var \(column.identifier): Column { Column(\(stringLiteral(column.column))) }"
                : "    \(access)static let \(column.identifier) = Column(\(stringLiteral(column.column)))"
        }
        return "\(access)enum Columns {\n\(constants.joined(separator: "\n"))\n}"
    }

    func rowInitializer() -> DeclSyntax {
        let reads = columns.enumerated().map { index, column in
            column.isJSON
                ? "    self.\(column.identifier) = try Self.databaseJSONValue\(column.isOptional ? "IfPresent" : "")(row, "
                    + "atIndex: \(index), column: \(stringLiteral(column.column)))"
                : "    self.\(column.identifier) = row[\(index)]"
        }
        let effects = throwsJSON ? " throws" : ""
        return "\(raw: access)init(row: Row)\(raw: effects) {\n\(raw: reads.joined(separator: "\n"))\n}"
    }

    func encodeMethod() -> String {
        let writes = columns.map { column in
            let literal = stringLiteral(column.column)
            return column.isJSON
                ? "    container[\(literal)] = try Self.databaseJSONText\(column.isOptional ? "IfPresent" : "")("
                    + "self.\(column.identifier), column: \(literal))"
                : "    container[\(literal)] = self.\(column.identifier)"
        }
        let effects = throwsJSON ? " throws" : ""
        return """
            \(access)func encode(to container: inout PersistenceContainer)\(effects) {
            \(writes.joined(separator: "\n"))
            }
            """
    }
}

/// A Swift string literal of `value`.
func stringLiteral(_ value: String) -> String {
    var escaped = "\""
    for character in value.unicodeScalars {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        default: escaped.unicodeScalars.append(character)
        }
    }
    return escaped + "\""
}

extension VariableDeclSyntax {
    /// The attribute `@name`, if any.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let attributeName = attribute.attributeName.trimmedDescription
            if attributeName == name || attributeName == "GRDBLiteMacros.\(name)" { return attribute }
        }
        return nil
    }

    /// A fix-it that removes `attribute`.
    func removing(_ attribute: AttributeSyntax, message: RecordFixIt) -> FixIt {
        let remaining = attributes.filter { $0.as(AttributeSyntax.self) != attribute }
        var newDecl = self.with(\.attributes, remaining)
        if remaining.isEmpty {
            // The declaration keeps the removed attribute's indentation.
            newDecl = newDecl.with(\.leadingTrivia, leadingTrivia)
        }
        return FixIt(message: message, changes: [.replace(oldNode: Syntax(self), newNode: Syntax(newDecl))])
    }
}

extension PatternBindingSyntax {
    /// Whether the property is computed (a getter), not stored (observers
    /// keep it stored).
    var isComputed: Bool {
        guard let accessorBlock else { return false }
        switch accessorBlock.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            let computing: [TokenKind] = [.keyword(.get), .keyword(.set), .keyword(._read), .keyword(._modify)]
            return accessors.contains { computing.contains($0.accessorSpecifier.tokenKind) }
        }
    }
}

/// The errors of `@DatabaseRecord`.
enum RecordMessage: DiagnosticMessage {
    case unsupportedShape(String)
    case nonFinalClass
    case letWithInitialValue(String)
    case computedColumn(String)
    case transientWithoutDefault(String)
    case notALiteral(String)
    case duplicateColumn(String, String)

    var message: String {
        switch self {
        case .unsupportedShape(let kind):
            "@DatabaseRecord applies to a struct or a final class, not to \(kind)"
        case .nonFinalClass:
            "@DatabaseRecord applies to a final class only: a subclass would not be read or written whole"
        case .letWithInitialValue(let name):
            "'\(name)' is a 'let' with an initial value: init(row:) can't set it; make it a 'var' or mark it @DatabaseTransient"
        case .computedColumn(let name):
            "'\(name)' is a computed property: only stored properties are columns"
        case .transientWithoutDefault(let name):
            "@DatabaseTransient property '\(name)' needs a default value: init(row:) doesn't read it"
        case .notALiteral(let argument):
            "\(argument) takes a non-empty string literal"
        case .duplicateColumn(let column, let previous):
            "column '\(column)' is already the column of '\(previous)'"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .unsupportedShape: id = "unsupportedShape"
        case .nonFinalClass: id = "nonFinalClass"
        case .letWithInitialValue: id = "letWithInitialValue"
        case .computedColumn: id = "computedColumn"
        case .transientWithoutDefault: id = "transientWithoutDefault"
        case .notALiteral: id = "notALiteral"
        case .duplicateColumn: id = "duplicateColumn"
        }
        return MessageID(domain: "GRDBLiteMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The fix-its of `@DatabaseRecord`.
enum RecordFixIt: FixItMessage {
    case addFinal
    case letToVar
    case removeAttribute(String)

    var message: String {
        switch self {
        case .addFinal: "Add 'final'"
        case .letToVar: "Replace 'let' with 'var'"
        case .removeAttribute(let attribute): "Remove '\(attribute)'"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .addFinal: MessageID(domain: "GRDBLiteMacros", id: "addFinal")
        case .letToVar: MessageID(domain: "GRDBLiteMacros", id: "letToVar")
        case .removeAttribute: MessageID(domain: "GRDBLiteMacros", id: "removeAttribute")
        }
    }
}
