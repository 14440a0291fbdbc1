import CSQLite

/// An FTS5 tokenizer written in Swift, registered with
/// ``Database/add(tokenizer:)`` and used by its name.
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "my"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(...) -> CInt { ... }
/// }
///
/// db.add(tokenizer: MyTokenizer.self)
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = MyTokenizer.tokenizerDescriptor()
///     t.column("title")
/// }
/// ```
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name under which the tokenizer is registered.
    static var name: String { get }

    /// A tokenizer for a table, with the arguments of its `tokenize`
    /// option. An error thrown here makes the table creation or the query
    /// fail with a ``DatabaseError``.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of this tokenizer, with arguments.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}

/// What SQLite keeps for a registered tokenizer type: how to make its
/// instances.
private final class FTS5TokenizerFactory {
    // unowned(unsafe): SQLite calls the factory only while the connection
    // is open, and the connection outlives its tokenizers.
    unowned(unsafe) let db: Database
    let make: (Database, [String]) throws -> any FTS5Tokenizer

    init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.db = db
        self.make = make
    }
}

/// A tokenizer instance, as SQLite holds it (`Fts5Tokenizer *`).
private final class FTS5TokenizerInstance {
    let tokenizer: any FTS5Tokenizer
    init(_ tokenizer: any FTS5Tokenizer) { self.tokenizer = tokenizer }
}

/// The SQLite result code for an error thrown by Swift code.
func ftsResultCode(for error: any Error) -> CInt {
    if let error = error as? DatabaseError {
        return error.extendedResultCode.rawValue
    }
    return SQLITE_ERROR
}

extension Database {
    /// Registers a custom tokenizer in this connection, so that tables
    /// and ``makeTokenizer(_:)`` can use it by name. Register it in each
    /// connection that uses it (`Configuration.prepareDatabase`).
    ///
    /// If SQLite can't register it (out of memory), the registration is
    /// retried before the next statement compiles, whose error it is if it
    /// fails again. (GRDB traps.)
    public func add(tokenizer: (some FTS5CustomTokenizer).Type) {
        do {
            try addTokenizer(tokenizer)
        } catch {
            pendingRegistrations.append { db in try db.addTokenizer(tokenizer) }
        }
    }

    private func addTokenizer<T: FTS5CustomTokenizer>(_ type: T.Type) throws {
        let api = try FTS5.apiIfAvailable(self)
        guard let xCreateTokenizer = api.pointee.xCreateTokenizer else {
            throw DatabaseError(message: "FTS5 has no xCreateTokenizer function")
        }
        let factory = FTS5TokenizerFactory(db: self) { db, arguments in try T(db: db, arguments: arguments) }
        // Retained by SQLite until it calls the destroy callback below.
        let factoryPointer = Unmanaged.passRetained(factory).toOpaque() // retained by SQLite, released by xDestroy
        var module = fts5_tokenizer(
            xCreate: { factoryPointer, azArg, nArg, ppOut in
                guard let factoryPointer, let ppOut else { return SQLITE_ERROR }
                // unretained: SQLite holds it
                let factory = Unmanaged<FTS5TokenizerFactory>.fromOpaque(factoryPointer).takeUnretainedValue()
                var arguments: [String] = []
                if let azArg {
                    for index in 0..<Int(max(nArg, 0)) {
                        if let argument = azArg[index] { arguments.append(String(cString: argument)) }
                    }
                }
                do {
                    let tokenizer = try factory.make(factory.db, arguments)
                    // Retained until SQLite calls xDelete.
                    // retained until xDelete
                    ppOut.pointee = OpaquePointer(Unmanaged.passRetained(FTS5TokenizerInstance(tokenizer)).toOpaque())
                    return SQLITE_OK
                } catch {
                    return ftsResultCode(for: error)
                }
            },
            xDelete: { instancePointer in
                guard let instancePointer else { return }
                // balances the retain of xCreate
                Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(instancePointer)).release()
            },
            xTokenize: { instancePointer, context, flags, pText, nText, xToken in
                guard let instancePointer, let xToken else { return SQLITE_ERROR }
                let instance = Unmanaged<FTS5TokenizerInstance> // unretained: SQLite holds it until xDelete
                    .fromOpaque(UnsafeRawPointer(instancePointer))
                    .takeUnretainedValue()
                return instance.tokenizer.tokenize(
                    context: context,
                    tokenization: FTS5Tokenization(rawValue: flags),
                    pText: pText,
                    nText: nText,
                    tokenCallback: xToken)
            })
        let code = xCreateTokenizer(
            UnsafeMutablePointer(mutating: api), T.name, factoryPointer, &module,
            { factoryPointer in
                guard let factoryPointer else { return }
                // balances the retain of registration
                Unmanaged<FTS5TokenizerFactory>.fromOpaque(factoryPointer).release()
            })
        guard code == SQLITE_OK else {
            // SQLite did not take the factory.
            Unmanaged<FTS5TokenizerFactory>.fromOpaque(factoryPointer).release() // balances the retain of registration
            throw DatabaseError(resultCode: code, message: "could not register FTS5 tokenizer \(T.name)")
        }
    }
}
