/// GitHub Actions workflow commands made inert in text the runner writes, so that no text from
/// a target (an answer's body, an adapter's output, a server-chosen id) can steer CI.
///
/// The Actions runner reads two forms on every line a step prints: `::name key=v::value` at the
/// start of a line (after spaces), and the legacy `##[name key=v;]value` anywhere in a line. One
/// `##[stop-commands]token` in an answer would silence every annotation of the run, and
/// `##[add-mask]FAILED` would hide the verdict. So, wherever they appear, the `[` of every `##[`
/// and the second `:` of every `::` are written escaped; a reader still sees what was there:
/// - in the console, the annotations and JUnit (text that CI tools print), as the report shows
///   other escaped characters: `##\u{5B}stop-commands]x`, `:\u{3A}add-mask:\u{3A}x`
///   (``visible(_:)``);
/// - in the JSON report, as JSON escapes (`##\u005B`, `:\u003A`), and in the HTML report as
///   character references (`##&#91;`, `:&#58;`): the text read back is exactly the original.
///
/// A `::` inside an IPv6 literal in brackets (`http://[::1]:8080`) is kept: a `[` stands before
/// it on the same line, so it cannot start a command, and replay lines stay copyable.
///
/// Wrapping the output in `::stop-commands::TOKEN` instead was not chosen: standard output and
/// standard error reach the log interleaved, and the run's own annotations must stay commands.
package enum WorkflowCommands {
    /// Whether `text` holds `##[` or `::` anywhere.
    package static func containsCommandMarker(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") && previous == UInt8(ascii: ":") { return true }
            if byte == UInt8(ascii: "[") && previous == UInt8(ascii: "#") && beforePrevious == UInt8(ascii: "#") { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// `text` with every `##[` written `##\u{5B}` and every `::` written `:\u{3A}`: for the
    /// console, the annotations and JUnit.
    package static func visible(_ text: String) -> String {
        neutralized(text, colon: "\\u{3A}", bracket: "\\u{5B}")
    }

    /// `text` (JSON text) with `##[` and `::` written with JSON escapes (`\u005B`, `\u003A`): the
    /// same JSON value. Both occur only inside strings in JSON text, where a `\u` escape means the
    /// character itself.
    package static func jsonEscaped(_ text: String) -> String {
        neutralized(text, colon: "\\u003A", bracket: "\\u005B")
    }

    /// `text` (HTML or XML text) with `##[` and `::` written with character references
    /// (`&#91;`, `&#58;`): the same text for a reader.
    package static func markupEscaped(_ text: String) -> String {
        neutralized(text, colon: "&#58;", bracket: "&#91;")
    }

    /// `text` with the `[` of each `##[` replaced by `bracket` and the second `:` of each `::`
    /// (outside an IPv6 literal) by `colon`.
    static func neutralized(_ text: String, colon: String, bracket: String) -> String {
        guard containsCommandMarker(text) else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        var index = 0
        var keptColon = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "["), index >= 2, bytes[index - 1] == UInt8(ascii: "#"), bytes[index - 2] == UInt8(ascii: "#") {
                result.append(contentsOf: bracket.utf8)
            } else if byte == UInt8(ascii: ":"), index >= 1, bytes[index - 1] == UInt8(ascii: ":"), keptColon,
                !insideIPv6Literal(bytes, at: index)
            {
                result.append(contentsOf: colon.utf8)
                keptColon = false
                index += 1
                continue
            } else {
                result.append(byte)
            }
            keptColon = byte == UInt8(ascii: ":")
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether `index` lies in `[` hex digits, `:` and `.` `]`, at most 64 bytes wide.
    private static func insideIPv6Literal(_ bytes: [UInt8], at index: Int) -> Bool {
        func isAddressByte(_ byte: UInt8) -> Bool {
            SecretMatcher.hexValue(byte) != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
        var start = index
        while start > 0, index - start < 64, isAddressByte(bytes[start - 1]) { start -= 1 }
        guard start > 0, bytes[start - 1] == UInt8(ascii: "[") else { return false }
        var end = index
        while end < bytes.count, end - index < 64, isAddressByte(bytes[end]) { end += 1 }
        return end < bytes.count && bytes[end] == UInt8(ascii: "]")
    }
}
