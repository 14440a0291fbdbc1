/// An assignment of a batch update: `"score" = "score" + ?`.
///
/// ```swift
/// // UPDATE player SET score = 0
/// try Player.updateAll(db, Column("score").set(to: 0))
/// // UPDATE player SET score = score + 1 WHERE team = ?
/// try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 1 }
/// ```
public struct ColumnAssignment: Sendable {
    /// The assigned column.
    var columnName: String
    /// The assigned value; nil keeps the column as it is (`noOverwrite`).
    var value: SQLExpression?
}

extension ColumnExpression {
    /// Assigns `value` to the column; nil assigns NULL.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? .null)
    }

    /// Keeps the column as it is: in an upsert, the column is not
    /// overwritten with the inserted value.
    ///
    /// ```swift
    /// try player.upsertAndFetch(db) { _ in [Column("score").noOverwrite] }
    /// ```
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(columnName: name, value: nil)
    }

    /// `column = column + value`
    public static func += (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column + value)
    }

    /// `column = column - value`
    public static func -= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column - value)
    }

    /// `column = column * value`
    public static func *= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column * value)
    }

    /// `column = column / value`
    public static func /= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column / value)
    }

    /// `column = column & value`
    public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column & value)
    }

    /// `column = column | value`
    public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column | value)
    }

    /// `column = column << value`
    public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column << value)
    }

    /// `column = column >> value`
    public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column >> value)
    }
}
