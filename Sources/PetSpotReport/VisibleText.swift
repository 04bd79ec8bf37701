/// Text as a person can read it in a report: invisible characters, spaces other than the ASCII
/// space, combining marks and joiners are written as `\u{XXXX}`.
package enum VisibleText {
    /// `text` with every scalar that does not show for itself escaped.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark,
            .spacingMark, .unassigned, .privateUse, .surrogate:
            return true
        default:
            return scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// Where two texts first differ, in Swift `Character`s, with their lengths and a few
    /// characters of context, e.g. `differ at character 501 of 501 vs 500: "…xyz" vs "…xy"`.
    package static func firstDifference(_ actual: String, _ expected: String) -> String {
        let left = Array(actual), right = Array(expected)
        var index = 0
        while index < left.count && index < right.count && left[index] == right[index] { index += 1 }
        func excerpt(_ characters: [Character]) -> String {
            let start = max(0, index - 8), end = min(characters.count, index + 8)
            return (start > 0 ? "…" : "") + escaped(String(characters[start..<end])) + (end < characters.count ? "…" : "")
        }
        return "first differ at character \(index + 1) (lengths \(left.count) vs \(right.count) characters): \"\(excerpt(left))\" vs \"\(excerpt(right))\""
    }
}
