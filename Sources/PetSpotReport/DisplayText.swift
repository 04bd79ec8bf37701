/// Text from outside the runner (a server's answer, an adapter's output) made safe to print:
/// control characters and escape codes escaped, and bounded in length.
///
/// A hostile server or adapter must not be able to drive the terminal (`ESC [ 2 J` clears the
/// screen, `\r` overwrites a line, a bidi override reorders what is shown) or flood a log with a
/// 15 MB line. Every string of a report goes through ``sanitized(_:maxBytes:)`` once, in the
/// report's final pass (``ContractReport/sanitized(by:)``), and so does every line an adapter
/// writes on its standard error.
///
/// ```swift
/// DisplayText.sanitized("\u{1B}[2Jhello")   // "\u{1B}[2Jhello" shown as the 6 characters \u{1B} then "[2Jhello"
/// ```
package enum DisplayText {
    /// The longest text shown, in UTF-8 bytes, before it is cut (the full length is stated).
    package static let maxBytes = 4096

    /// Whether `scalar` must be shown escaped: C0 controls, DEL, C1 controls and the Unicode
    /// marks that reorder or hide text (bidi embeddings, overrides and isolates).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The escaped form of one scalar: `\n`, `\r`, `\t`, else `\u{1B}` (hexadecimal, upper case).
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `text` with every character of ``needsEscape(_:)`` escaped, cut after about `maxBytes`
    /// UTF-8 bytes of output with ` ... (N bytes in all)` appended, N being the length of `text`
    /// (or `fullLength`, when `text` is already the start of something longer).
    package static func sanitized(_ text: String, maxBytes: Int = maxBytes, fullLength: Int? = nil) -> String {
        let total = max(fullLength ?? 0, text.utf8.count)
        var clean = true
        for scalar in text.unicodeScalars where needsEscape(scalar) {
            clean = false
            break
        }
        if clean && text.utf8.count <= maxBytes && total == text.utf8.count { return text }
        var result = ""
        var length = 0
        for scalar in text.unicodeScalars {
            let piece = needsEscape(scalar) ? escape(scalar) : String(scalar)
            if length + piece.utf8.count > maxBytes {
                return result + " ... (\(total) bytes in all)"
            }
            result += piece
            length += piece.utf8.count
        }
        return total > text.utf8.count ? result + " ... (\(total) bytes in all)" : result
    }
}
