import CSQLite

/// The callback through which an FTS5 tokenizer reports each token: the
/// `xToken` argument of `xTokenize` (https://www.sqlite.org/fts5.html#custom_tokenizers).
public typealias FTS5TokenCallback = @convention(c) (
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt,
    _ iStart: CInt,
    _ iEnd: CInt) -> CInt

/// Why a text is tokenized: the `FTS5_TOKENIZE_*` flags.
public struct FTS5Tokenization: OptionSet, Sendable {
    /// The raw flags.
    public let rawValue: CInt

    /// Flags from their raw value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// A query (a MATCH pattern) is tokenized.
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)
    /// With `query`: the token is followed by `*` in the pattern.
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)
    /// A document is tokenized, to be indexed or removed from the index.
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)
    /// An auxiliary function (`highlight`...) tokenizes a document.
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// An FTS5 tokenizer: built in (``Database/makeTokenizer(_:)``) or your
/// own (``FTS5CustomTokenizer``, ``FTS5WrapperTokenizer``).
public protocol FTS5Tokenizer: AnyObject {
    /// Tokenizes the `nText` UTF-8 bytes at `pText`, calling
    /// `tokenCallback` (with `context`) for each token, and returns an
    /// SQLite result code (`SQLITE_OK`, or the first error code).
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
}

/// Collects the tokens reported by a tokenizer.
private final class TokenCollector {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []
}

extension FTS5Tokenizer {
    /// The tokens of a document, with their flags.
    ///
    /// ```swift
    /// let tokenizer = try db.makeTokenizer(.porter())
    /// try tokenizer.tokenize(document: "Databases") // [("databas", [])]
    /// ```
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokens(of: string, for: .document)
    }

    /// The tokens of a query, with their flags.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokens(of: string, for: .query)
    }

    private func tokens(of string: String, for tokenization: FTS5Tokenization) throws
        -> [(token: String, flags: FTS5TokenFlags)]
    {
        let collector = TokenCollector()
        var utf8 = Array(string.utf8)
        if utf8.isEmpty { return [] }
        let code = utf8.withUnsafeMutableBufferPointer { buffer in // the bytes stay alive during the tokenization
            // the bytes stay alive during the call; CChar and UInt8 have the same layout
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pText in
                tokenize(
                    // unretained: the collector is alive until the end
                    context: Unmanaged.passUnretained(collector).toOpaque(),
                    tokenization: tokenization,
                    pText: pText,
                    nText: CInt(buffer.count),
                    tokenCallback: { context, flags, pToken, nToken, _, _ in
                        guard let context else { return SQLITE_ERROR }
                        // Unretained: the collector outlives the tokenization.
                        let collector = Unmanaged<TokenCollector>.fromOpaque(context).takeUnretainedValue()
                        guard let token = String(ftsToken: pToken, count: nToken) else { return SQLITE_OK }
                        collector.tokens.append((token, FTS5TokenFlags(rawValue: flags)))
                        return SQLITE_OK
                    })
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code)
        }
        return collector.tokens
    }
}

extension String {
    /// The token at `pointer`, `count` UTF-8 bytes; nil if they are not
    /// valid UTF-8.
    init?(ftsToken pointer: UnsafePointer<CChar>?, count: CInt) {
        guard let pointer, count >= 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(count))
        self.init(validating: bytes, as: UTF8.self)
    }
}

/// A tokenizer registered in SQLite, found with `xFindTokenizer`.
private final class FTS5RegisteredTokenizer: FTS5Tokenizer {
    private let module: fts5_tokenizer
    private let instance: OpaquePointer

    init(module: fts5_tokenizer, userData: UnsafeMutableRawPointer?, arguments: [String]) throws {
        guard let xCreate = module.xCreate else {
            throw DatabaseError(message: "the FTS5 tokenizer has no xCreate function")
        }
        // Arguments as C strings, alive for the duration of xCreate.
        let cStrings = arguments.map { argument -> UnsafeMutablePointer<CChar> in
            let bytes = Array(argument.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
        defer { cStrings.forEach { $0.deallocate() } }
        var arguments: [UnsafePointer<CChar>?] = cStrings.map { UnsafePointer($0) }
        var instance: OpaquePointer?
        let code = arguments.withUnsafeMutableBufferPointer { buffer in // the C strings stay alive during xCreate
            xCreate(userData, buffer.baseAddress, CInt(buffer.count), &instance)
        }
        guard code == SQLITE_OK, let instance else {
            throw DatabaseError(
                resultCode: code == SQLITE_OK ? SQLITE_ERROR : code, message: "the FTS5 tokenizer could not be created")
        }
        self.module = module
        self.instance = instance
    }

    deinit {
        module.xDelete?(instance)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let xTokenize = module.xTokenize else { return SQLITE_ERROR }
        return xTokenize(instance, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}

extension Database {
    /// A tokenizer registered in the connection: a built-in one (`ascii`,
    /// `porter`, `unicode61`, `trigram`), or one added with
    /// ``add(tokenizer:)``.
    ///
    /// ```swift
    /// let tokenizer = try db.makeTokenizer(.unicode61())
    /// try tokenizer.tokenize(query: "Élan") // [("elan", [])]
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the tokenizer is unknown or
    ///   refuses its arguments.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        let api = try FTS5.apiIfAvailable(self)
        guard let xFindTokenizer = api.pointee.xFindTokenizer else {
            throw DatabaseError(message: "FTS5 has no xFindTokenizer function")
        }
        var module = fts5_tokenizer()
        var userData: UnsafeMutableRawPointer?
        let code = xFindTokenizer(UnsafeMutablePointer(mutating: api), descriptor.name, &userData, &module)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: "no such tokenizer: \(descriptor.name)")
        }
        return try FTS5RegisteredTokenizer(module: module, userData: userData, arguments: descriptor.arguments)
    }
}
