/// A catalog document that does not have the documented shape.
///
/// `path` locates the offending value from the document root in a JSONPath-like spelling, e.g.
/// `$.cases[3].expected.status`, so that a hand-edited catalog can be fixed from the message alone.
public struct CatalogDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the offending value is (`$` is the document root).
    public let path: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error for the value at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
