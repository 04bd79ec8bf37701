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
    let bytes: [UInt8]
    let options: JSONParseOptions
    var index = 0
    var depth = 0

    init(bytes: [UInt8], options: JSONParseOptions) {
        self.bytes = bytes
        self.options = options
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

    private func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    private func describeByte(_ at: Int) -> String {
        guard at < bytes.count else { return "end of input" }
        let byte = bytes[at]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected \(describeByte(index)), expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        let start = index
        var offset = 0
        for expected in word.utf8 {
            guard start + offset < bytes.count, bytes[start + offset] == expected else {
                index = start + offset
                throw fail("invalid literal, expected '\(word)'")
            }
            offset += 1
        }
        index = start + offset
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
            let key = try parseString()
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
        if let reason = JSONNumber.scanNumber(bytes, &index) { throw fail(reason) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = JSONNumber(validatedLiteral: text) else {
            index = start
            throw fail("number exponent out of range")
        }
        return number
    }

    /// Parses a string at `index` (on its opening quote), validating UTF-8 and escapes.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, ASCII or valid UTF-8.
        var hasEscape = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") { hasEscape = true; break }
            if byte < 0x20 { throw fail("control character in string (escape it)") }
            if byte < 0x80 { index += 1 } else { try skipUTF8Sequence() }
        }
        if !hasEscape {
            guard index < bytes.count else { throw fail("unterminated string") }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 1
            return text
        }
        var scalars = [UInt8](bytes[start..<index])
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw fail("control character in string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                try appendEscape(to: &scalars)
            } else if byte < 0x80 {
                scalars.append(byte)
                index += 1
            } else {
                let sequenceStart = index
                try skipUTF8Sequence()
                scalars.append(contentsOf: bytes[sequenceStart..<index])
            }
        }
    }

    private mutating func appendEscape(to output: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw fail("unterminated escape") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"): output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = index - 2
            var code = try readHex4()
            if code >= 0xD800 && code <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(offset: escapeStart, reason: "unpaired high surrogate escape")
                }
                index += 2
                let low = try readHex4()
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw JSONParseError(offset: escapeStart, reason: "high surrogate not followed by a low surrogate")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if code >= 0xDC00 && code <= 0xDFFF {
                throw JSONParseError(offset: escapeStart, reason: "unpaired low surrogate escape")
            }
            output.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
        default:
            index -= 1
            throw fail("invalid escape \\\(describeByte(index))")
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("unterminated \\u escape") }
            let byte = bytes[index]
            let nibble: UInt32
            switch byte {
            case 0x30...0x39: nibble = UInt32(byte - 0x30)
            case 0x41...0x46: nibble = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: nibble = UInt32(byte - 0x61 + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | nibble
            index += 1
        }
        return value
    }

    /// Advances over one well-formed UTF-8 sequence of 2-4 bytes (RFC 3629: no overlongs,
    /// no surrogates, nothing above U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: throw fail("invalid UTF-8 lead byte 0x\(String(lead, radix: 16, uppercase: true))")
        }
        for offset in 1..<length {
            let position = index + offset
            guard position < bytes.count else {
                index = position
                throw fail("truncated UTF-8 sequence")
            }
            let continuation = bytes[position]
            let low = offset == 1 ? lowerBound : 0x80
            let high = offset == 1 ? upperBound : 0xBF
            guard continuation >= low && continuation <= high else {
                index = position
                throw fail("invalid UTF-8 continuation byte")
            }
        }
        index += length
    }
}
