/// The header fields of an HTTP/1.1 message, in the order they were written.
///
/// Field names compare case-insensitively (`content-type` finds `Content-Type`), as RFC 9110
/// requires; the spelling given is kept for writing. A name may repeat; ``subscript(_:)`` returns
/// the first value, ``values(for:)`` all of them.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]            // "application/json"
/// headers.set("Connection", "close")
/// ```
///
/// Lookups are linear scans, which beat hashing for the dozen fields a request carries.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public typealias Field = (name: String, value: String)

    /// The fields in order.
    public private(set) var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// These fields, in this order (repeats kept).
    public init(_ fields: [Field]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field named `name` (case-insensitive), or `nil`.
    public subscript(_ name: String) -> String? {
        for field in fields where HTTPHeaders.namesMatch(field.name, name) { return field.value }
        return nil
    }

    /// Every value of the field named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.namesMatch($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` by one with `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                namesMatch($0.0.name, $0.1.name) && $0.0.value == $0.1.value
            }
    }

    /// ASCII case-insensitive comparison of two field names.
    package static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            guard asciiLower(a) == asciiLower(b) else { return false }
        }
        return true
    }

    @inline(__always)
    package static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
