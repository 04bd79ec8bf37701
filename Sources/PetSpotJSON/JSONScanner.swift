/// The lexical layer of JSON text (RFC 8259), shared by the strict parser (``JSONValue/parse(_:options:)-(([UInt8],_))``)
/// and the mock's `JSON.parse`: whitespace, literals, numbers, and strings with their escapes
/// and UTF-8, each read from ``index`` on and failing with the byte offset of what is wrong.
package struct JSONScanner {
    /// What an escaped UTF-16 surrogate without its pair (`"\ud800"`) does.
    package enum LoneSurrogates: Sendable {
        /// Refuses the text (RFC 8259 allows it, but a Swift string cannot hold it).
        case reject
        /// Reads it as U+FFFD, as `JSON.parse` followed by a UTF-8 encoder does.
        case replace
    }

    /// The text.
    package let bytes: [UInt8]
    /// Where reading goes on.
    package var index = 0

    /// A scanner at the start of `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A failure for `reason` at the current byte.
    package func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    /// The byte at `at` for a message: `'x'`, `byte 0x1F`, or `end of input`.
    package func describeByte(_ at: Int) -> String {
        guard at < bytes.count else { return "end of input" }
        let byte = bytes[at]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// Advances over spaces, tabs and line breaks.
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Advances over `word` (`true`, `false`, `null`), or fails at its first wrong byte.
    package mutating func expectWord(_ word: String) throws(JSONParseError) {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw fail("invalid literal, expected '\(word)'") }
            index += 1
        }
    }

    /// The literal of the number at `index`, advanced past; fails at the byte that breaks
    /// JSON's number grammar.
    package mutating func scanNumberLiteral() throws(JSONParseError) -> String {
        let start = index
        if let reason = JSONNumber.scanNumber(bytes, &index) { throw fail(reason) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The string at `index` (on its opening quote), escapes decoded and UTF-8 validated
    /// (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
    package mutating func parseString(loneSurrogates: LoneSurrogates = .reject) throws(JSONParseError) -> String {
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
                try appendEscape(to: &scalars, loneSurrogates: loneSurrogates)
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

    /// Decodes the escape at `index` (on its backslash) into `output` as UTF-8.
    private mutating func appendEscape(to output: inout [UInt8], loneSurrogates: LoneSurrogates) throws(JSONParseError) {
        let escapeStart = index
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
            let code = try readSurrogatePair(escapeStart: escapeStart, loneSurrogates: loneSurrogates)
            output.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
        default:
            index -= 1
            throw fail("invalid escape \\\(describeByte(index))")
        }
    }

    /// The scalar of a `\u` escape (its four digits at `index`), joined with the low surrogate
    /// escape that must follow a high one; a surrogate without its pair as `loneSurrogates` says.
    private mutating func readSurrogatePair(escapeStart: Int, loneSurrogates: LoneSurrogates) throws(JSONParseError) -> UInt32 {
        let code = try readHex4()
        switch (code, loneSurrogates) {
        case (0xD800...0xDBFF, _):
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                if loneSurrogates == .replace { return 0xFFFD }
                throw JSONParseError(offset: escapeStart, reason: "unpaired high surrogate escape")
            }
            let afterHigh = index
            index += 2
            let low = try readHex4()
            if (0xDC00...0xDFFF).contains(low) { return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
            if loneSurrogates == .replace {
                index = afterHigh
                return 0xFFFD
            }
            throw JSONParseError(offset: escapeStart, reason: "high surrogate not followed by a low surrogate")
        case (0xDC00...0xDFFF, .replace): return 0xFFFD
        case (0xDC00...0xDFFF, .reject): throw JSONParseError(offset: escapeStart, reason: "unpaired low surrogate escape")
        default: return code
        }
    }

    /// Four hex digits at `index`, as a number.
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

    /// Advances over one well-formed UTF-8 sequence of 2-4 bytes.
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
