/// A table of a request, whose columns can be qualified: `"player"."score"`.
///
/// The identity of an alias is what matters: two aliases refer to the same
/// table of a request when they are the same object, or when one was merged
/// into the other (a request aliased twice). The table name is learned when
/// the alias is attached to a request. See ``TableAlias``.
// @unchecked Sendable: all its state is behind a lock; the class is not final
// (`TableAlias` subclasses it), so the compiler can't check it.
public class TableAliasBase: @unchecked Sendable {
    private enum State: Sendable {
        case undefined(userName: String?)
        case table(tableName: String, userName: String?)
        /// Merged into another alias.
        case proxy(TableAliasBase)
    }

    // Never locked while another alias is: each lock is held for a few
    // instructions. A `Locked`, GRDBLite's one lock type, which Thread
    // Sanitizer sees: it costs each alias one allocation (its buffer).
    private let state: Locked<State>

    init(name: String? = nil) {
        state = Locked(.undefined(userName: name))
    }

    init(tableName: String, userName: String? = nil) {
        state = Locked(.table(tableName: tableName, userName: userName))
    }

    /// The alias this one was merged into, or self.
    var root: TableAliasBase {
        if case .proxy(let base) = state.withLock({ $0 }) { return base.root }
        return self
    }

    /// The name of the aliased table.
    var tableName: String {
        switch root.state.withLock({ $0 }) {
        case .table(let tableName, _): return tableName
        default: fatalError("A TableAlias was used before it was attached to a request")
        }
    }

    /// The name the user gave to the alias, if any.
    var userName: String? {
        switch root.state.withLock({ $0 }) {
        case .undefined(let userName), .table(_, let userName): userName
        case .proxy: nil
        }
    }

    var hasUserName: Bool { userName != nil }

    /// The user name, or the table name.
    var identityName: String { userName ?? tableName }

    /// Attaches the alias to a table. Traps if it is already attached to
    /// another table.
    func setTableName(_ tableName: String) {
        let root = self.root
        root.state.withLock { state in
            switch state {
            case .undefined(let userName):
                state = .table(tableName: tableName, userName: userName)
            case .table(let initialName, _):
                precondition(
                    CaseInsensitiveIdentifier(initialName) == CaseInsensitiveIdentifier(tableName),
                    "A TableAlias must not be used to refer to multiple tables")
            case .proxy:
                preconditionFailure("a root alias is not a proxy")
            }
        }
    }

    /// Merges this alias into `base`, which takes its user name if any.
    func becomeProxy(of base: TableAliasBase) {
        let root = self.root
        let baseRoot = base.root
        if root === baseRoot { return }
        let (tableName, userName): (String?, String?) = root.state.withLock { state in
            switch state {
            case .undefined(let userName): (nil, userName)
            case .table(let tableName, let userName): (tableName, userName)
            case .proxy: preconditionFailure("a root alias is not a proxy")
            }
        }
        if let tableName { baseRoot.setTableName(tableName) }
        if let userName {
            baseRoot.state.withLock { state in
                switch state {
                case .undefined(let baseUserName):
                    precondition(baseUserName == nil || baseUserName == userName, "ambiguous alias: \(userName)")
                    state = .undefined(userName: userName)
                case .table(let tableName, let baseUserName):
                    precondition(baseUserName == nil || baseUserName == userName, "ambiguous alias: \(userName)")
                    state = .table(tableName: tableName, userName: userName)
                case .proxy:
                    preconditionFailure("a root alias is not a proxy")
                }
            }
        }
        root.state.withLock { $0 = .proxy(baseRoot) }
    }
}

extension TableAliasBase: Hashable {
    public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool {
        lhs.root === rhs.root
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(root))
    }
}

extension TableAliasBase {
    /// The column `name` of the aliased table.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// let request = Player.aliased(alias).filter(alias["score"] > 1000)
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// ```
    public subscript(_ column: String) -> SQLExpression {
        SQLExpression(impl: .qualifiedColumn(column, self))
    }

    /// The expression, with its columns qualified by the alias.
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        expression.sqlExpression.qualified(with: self)
    }

    /// The selection, with its columns qualified by the alias.
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        selectable.sqlSelection.qualified(with: self)
    }

    /// The ordering, with its columns qualified by the alias.
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        ordering.sqlOrdering.qualified(with: self)
    }
}
