import CSQLite

/// Flags of a token reported by an FTS5 tokenizer: the `FTS5_TOKEN_*`
/// flags.
public struct FTS5TokenFlags: OptionSet, Sendable {
    /// The raw flags.
    public let rawValue: CInt

    /// Flags from their raw value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The token is a synonym of the previous one, at the same position.
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// How an ``FTS5WrapperTokenizer`` reports a token.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that transforms the tokens of another tokenizer:
/// it lets `wrappedTokenizer` cut the text, and decides in
/// ``accept(token:flags:for:tokenCallback:)`` what each token becomes
/// (nothing, itself, another token, synonyms...).
///
/// ```swift
/// final class LatinAsciiTokenizer: FTS5WrapperTokenizer {
///     static let name = "latinascii"
///     let wrappedTokenizer: any FTS5Tokenizer
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///     func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                 tokenCallback: FTS5WrapperTokenCallback) throws {
///         try tokenCallback(token.folding(options: .diacriticInsensitive, locale: nil), flags)
///     }
/// }
/// ```
///
/// An error thrown by `accept` stops the tokenization: SQLite receives
/// its result code (`SQLITE_ERROR` for errors that are not
/// ``DatabaseError``) and the statement fails.
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer that cuts the text.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Called for each token of the wrapped tokenizer: report the tokens
    /// that replace it with `tokenCallback`.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

/// What a wrapper tokenizer needs in the C callback of its wrapped
/// tokenizer, which can't capture anything.
private struct FTS5WrapperContext {
    let tokenizer: any FTS5WrapperTokenizer
    let context: UnsafeMutableRawPointer?
    let tokenization: FTS5Tokenization
    let tokenCallback: FTS5TokenCallback
}

extension FTS5WrapperTokenizer {
    /// Tokenizes with the wrapped tokenizer, and reports the tokens that
    /// ``accept(token:flags:for:tokenCallback:)`` produces.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        var wrapperContext = FTS5WrapperContext(
            tokenizer: self, context: context, tokenization: tokenization, tokenCallback: tokenCallback)
        // the context stays alive during the tokenization
        return withUnsafeMutablePointer(to: &wrapperContext) { wrapperContextPointer in
            wrappedTokenizer.tokenize(
                context: wrapperContextPointer,
                tokenization: tokenization,
                pText: pText,
                nText: nText,
                tokenCallback: { wrapperContextPointer, flags, pToken, nToken, iStart, iEnd in
                    guard let wrapperContextPointer else { return SQLITE_ERROR }
                    guard let token = String(ftsToken: pToken, count: nToken) else { return SQLITE_OK }
                    // unsafe: the context is the FTS5WrapperContext that `tokenize` passes, alive until it returns.
                    let wrapper = wrapperContextPointer.assumingMemoryBound(to: FTS5WrapperContext.self).pointee
                    do {
                        try wrapper.tokenizer.accept(
                            token: token,
                            flags: FTS5TokenFlags(rawValue: flags),
                            for: wrapper.tokenization,
                            tokenCallback: { token, flags in
                                var bytes = Array(token.utf8)
                                // the bytes stay alive during the callback
                                let code = bytes.withUnsafeMutableBufferPointer { buffer in
                                    // the bytes stay alive during the call; CChar and UInt8 have the same layout
                                    buffer.withMemoryRebound(to: CChar.self) { buffer in
                                        wrapper.tokenCallback(
                                            wrapper.context, flags.rawValue,
                                            buffer.baseAddress, CInt(buffer.count), iStart, iEnd)
                                    }
                                }
                                guard code == SQLITE_OK else {
                                    throw DatabaseError(resultCode: code, message: "token callback failed")
                                }
                            })
                        return SQLITE_OK
                    } catch {
                        return ftsResultCode(for: error)
                    }
                })
        }
    }
}
