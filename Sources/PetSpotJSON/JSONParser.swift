import Foundation

/// Why a JSON text was refused, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset of the offending byte (the input's length for an early end).
    public let offset: Int
    /// What was wrong there, in a few words.
    public let reason: String

    /// An error at byte `offset` for `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `invalid JSON at byte N: reason`.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// Limits and policies for ``JSONValue/parse(_:options:)``.
public struct JSONParseOptions: Sendable {
    /// What to do with a key that appears twice in one object.
    public enum DuplicateKeys: Sendable {
        /// Refuse the document (the default: a strict backend must not guess).
        case reject
        /// Keep the last value, as JavaScript's `JSON.parse` does.
        case keepLast
    }

    /// Deepest nesting of arrays and objects accepted; deeper input is refused, not recursed into.
    public var maxDepth: Int
    /// Largest input accepted, in bytes.
    public var maxBytes: Int
    /// Duplicate-key policy.
    public var duplicateKeys: DuplicateKeys

    /// Options; the defaults are ``strict``.
    public init(maxDepth: Int = 256, maxBytes: Int = 64 * 1024 * 1024, duplicateKeys: DuplicateKeys = .reject) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.duplicateKeys = duplicateKeys
    }

    /// Strict defaults: depth 256, 64 MiB, duplicate keys refused.
    public static let strict = JSONParseOptions()
}

extension JSONValue {
    /// Parses one JSON text (RFC 8259): exactly one value, optional surrounding whitespace.
    ///
    /// Strings must be valid UTF-8 with paired surrogate escapes. Errors carry the byte offset.
    /// - Throws: ``JSONParseError``.
    public static func parse(_ bytes: [UInt8], options: JSONParseOptions = .strict) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= options.maxBytes else {
            throw JSONParseError(offset: options.maxBytes, reason: "document larger than \(options.maxBytes) bytes")
        }
        var parser = JSONByteParser(bytes: bytes, options: options)
        return try parser.parseDocument()
    }

    /// Parses JSON from `Data`. See ``parse(_:options:)-(([UInt8],_))``.
    public static func parse(_ data: Data, options: JSONParseOptions = .strict) throws(JSONParseError) -> JSONValue {
        try parse([UInt8](data), options: options)
    }

    /// Parses JSON from a string's UTF-8.
    public static func parse(_ text: String, options: JSONParseOptions = .strict) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), options: options)
    }
}

/// Recursive-descent parser over bytes; depth is bounded by the options, so the stack is too.
struct JSONByteParser {
    /// Whitespace, literals, numbers and strings.
    var scanner: JSONScanner
    let options: JSONParseOptions
    var depth = 0

    init(bytes: [UInt8], options: JSONParseOptions) {
        scanner = JSONScanner(bytes: bytes)
        self.options = options
    }

    /// The text.
    private var bytes: [UInt8] { scanner.bytes }
    /// Where parsing goes on.
    private var index: Int {
        get { scanner.index }
        set { scanner.index = newValue }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw JSONParseError(offset: 0, reason: "byte order mark before the value")
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describeByte(index)) after the value") }
        return value
    }

    private func fail(_ reason: String) -> JSONParseError { scanner.fail(reason) }
    private func describeByte(_ at: Int) -> String { scanner.describeByte(at) }
    private mutating func skipWhitespace() { scanner.skipWhitespace() }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try scanner.parseString())
        case UInt8(ascii: "t"): try scanner.expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try scanner.expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try scanner.expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected \(describeByte(index)), expected a value")
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > options.maxDepth { throw fail("nesting deeper than \(options.maxDepth)") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var keys: [String] = []
        var values: [JSONValue] = []
        var seenKeys: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key, found \(describeByte(index))")
            }
            let keyOffset = index
            let key = try scanner.parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after key, found \(describeByte(index))")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            // Duplicate check: a scan for small objects, a set once they grow.
            var duplicateIndex: Int? = nil
            if keys.count < 16 {
                duplicateIndex = keys.firstIndex { $0.hasSameCodePoints(as: key) }
            } else {
                if seenKeys == nil { seenKeys = Set(keys) }
                // The set compares canonically; confirm a hit code point by code point.
                if seenKeys?.contains(key) == true { duplicateIndex = keys.firstIndex { $0.hasSameCodePoints(as: key) } }
                seenKeys?.insert(key)
            }
            if let duplicateIndex {
                switch options.duplicateKeys {
                case .reject: throw JSONParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"")
                case .keepLast: values[duplicateIndex] = value
                }
            } else {
                keys.append(key)
                values.append(value)
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(JSONObject(uniqueKeys: keys, values: values))
            }
            throw fail("expected ',' or '}' in object, found \(describeByte(index))")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(items)
            }
            throw fail("expected ',' or ']' in array, found \(describeByte(index))")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        let text = try scanner.scanNumberLiteral()
        guard let number = JSONNumber(validatedLiteral: text) else {
            index = start
            throw fail("number exponent out of range")
        }
        return number
    }
}
