import Hummingbird

extension Request {
    /// The integer query parameter `name`, or `defaultValue` when it is missing. Throws a
    /// 400 Bad Request when it is not an integer in `range`.
    func integerQuery(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = uri.queryParameters.get(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message: "`\(name)` must be an integer in \(range)")
        }
        return value
    }
}
