import PetSpotJSON

/// `JSON.parse` as Node.js applies it to a request body, for the inputs the project's strict
/// parser (`JSONValue.parse`) refuses although JavaScript accepts them:
///
/// - any nesting depth (V8's parser is not recursive): arrays and objects deeper than
///   ``Options/keptDepth`` are validated but kept as empty placeholders of their type, which
///   is all the create rules look at (any array or object is a wrong type for every field, and
///   every unknown key is refused whatever its value), so memory and stack stay bounded;
/// - numbers whose exponent is out of any range (`1e-99999999999999999999` is 0,
///   `1e99999999999999999999` is Infinity);
/// - escaped lone surrogates (`"\ud800"`), kept as U+FFFD (a Swift string cannot hold them).
///
/// The grammar is RFC 8259's, like `JSON.parse`'s: anything else fails with a
/// `JSONParseError` naming the byte offset. The parser runs on an explicit stack: no
/// recursion, linear time in the input.
struct JavaScriptJSONParser {
    /// What to accept beyond RFC 8259's grammar.
    struct Options {
        /// What a repeated key does: `.keepLast` as `JSON.parse`, or `.reject`.
        var duplicateKeys: JSONParseOptions.DuplicateKeys
        /// Containers nested deeper than this are replaced by empty placeholders.
        var keptDepth: Int
        /// Whether an escaped lone surrogate is an error (else it becomes U+FFFD).
        var rejectsLoneSurrogates: Bool
    }

    /// A parsed document and what it used.
    struct Outcome {
        /// The value (containers beyond the kept depth are empty placeholders).
        var value: JSONValue
        /// The deepest nesting of arrays and objects (the root container is depth 1).
        var deepestNesting: Int
        /// Whether a number's exponent was beyond what the strict parser reads (±10^9).
        var hasOutOfRangeExponent: Bool
    }

    /// One array or object under construction.
    private struct Container {
        let isObject: Bool
        /// Whether its members are kept (it lies within the kept depth).
        let isKept: Bool
        var values: [JSONValue] = []
        var keys: [String] = []
        /// Key positions by UTF-8 bytes (code-point equality, as JavaScript compares keys).
        var positions: [[UInt8]: Int] = [:]
        var pendingKey: String = ""
        var pendingKeyOffset = 0
    }

    /// Whitespace, literals, numbers and strings, as the strict parser reads them.
    private var scanner: JSONScanner
    private let options: Options
    private var stack: [Container] = []
    private var deepest = 0
    private var outOfRangeExponent = false

    /// Parses `bytes` (UTF-8, no byte order mark) as one JSON text.
    /// - Throws: `JSONParseError` for text that is not JSON, or that breaks `options`.
    static func parse(_ bytes: [UInt8], options: Options) throws(JSONParseError) -> Outcome {
        var parser = JavaScriptJSONParser(bytes: bytes, options: options)
        let value = try parser.parseDocument()
        return Outcome(value: value, deepestNesting: parser.deepest, hasOutOfRangeExponent: parser.outOfRangeExponent)
    }

    private init(bytes: [UInt8], options: Options) {
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

    private func fail(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason)
    }

    private mutating func skipWhitespace() { scanner.skipWhitespace() }

    private mutating func parseString() throws(JSONParseError) -> String {
        try scanner.parseString(loneSurrogates: options.rejectsLoneSurrogates ? .reject : .replace)
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        valueLoop: while true {
            guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
            var value: JSONValue
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                let isObject = byte == UInt8(ascii: "{")
                stack.append(Container(isObject: isObject, isKept: stack.count < options.keptDepth))
                deepest = max(deepest, stack.count)
                index += 1
                skipWhitespace()
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index < bytes.count && bytes[index] == closing {
                    index += 1
                    value = closeContainer()
                } else {
                    if isObject { try readKey() }
                    continue valueLoop
                }
            } else {
                value = try parseScalar()
            }
            // Hand the value to its container, closing every container that ends here.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard index == bytes.count else { throw fail("unexpected byte after the value") }
                    return value
                }
                try add(value)
                skipWhitespace()
                let isObject = stack[stack.count - 1].isObject
                guard index < bytes.count else { throw fail("unexpected end of input in \(isObject ? "object" : "array")") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if isObject { try readKey() }
                    continue valueLoop
                }
                guard bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw fail("expected ',' or '\(isObject ? "}" : "]")' in \(isObject ? "object" : "array")")
                }
                index += 1
                value = closeContainer()
            }
        }
    }

    /// Reads `"key"` and `:` before an object member's value.
    private mutating func readKey() throws(JSONParseError) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        let offset = index
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after key") }
        index += 1
        skipWhitespace()
        stack[stack.count - 1].pendingKey = key
        stack[stack.count - 1].pendingKeyOffset = offset
    }

    private mutating func add(_ value: JSONValue) throws(JSONParseError) {
        let top = stack.count - 1
        guard stack[top].isKept else { return }
        guard stack[top].isObject else {
            stack[top].values.append(value)
            return
        }
        let key = stack[top].pendingKey
        let identity = Array(key.utf8)
        if let existing = stack[top].positions[identity] {
            switch options.duplicateKeys {
            case .reject: throw fail("duplicate key \"\(key)\"", at: stack[top].pendingKeyOffset)
            case .keepLast: stack[top].values[existing] = value
            }
        } else {
            stack[top].positions[identity] = stack[top].keys.count
            stack[top].keys.append(key)
            stack[top].values.append(value)
        }
    }

    private mutating func closeContainer() -> JSONValue {
        let container = stack.removeLast()
        switch (container.isObject, container.isKept) {
        case (true, true): return .object(JSONObject(uniqueKeys: container.keys, values: container.values))
        case (false, true): return .array(container.values)
        case (true, false): return .object(JSONObject())
        case (false, false): return .array([])
        }
    }

    private mutating func parseScalar() throws(JSONParseError) -> JSONValue {
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try scanner.expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try scanner.expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try scanner.expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected byte, expected a value")
        }
    }

    /// A number by JSON's grammar, read as JavaScript reads it (the nearest double).
    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        let literal = try scanner.scanNumberLiteral()
        if let number = JSONNumber(literal: literal) { return number }
        // The exponent is beyond ±10^9: JavaScript reads 0 or an infinity.
        outOfRangeExponent = true
        let negative = bytes[start] == UInt8(ascii: "-")
        let value = Double(literal) ?? 0
        if value.isInfinite {
            return JSONNumber(validatedLiteral: negative ? "-1e999999999" : "1e999999999", doubleValue: value) ?? JSONNumber(0)
        }
        if value == 0 { return JSONNumber(validatedLiteral: negative ? "-0" : "0", doubleValue: value) ?? JSONNumber(0) }
        return JSONNumber(value)
    }
}
