import Foundation
import PetSpotJSON

/// A line diff of an expected and an actual answer, for the HTML report.
///
/// Answers are made readable first (``lines(of:)``): a JSON part is pretty-printed with sorted
/// keys, so two bodies that differ in one member differ in one line. The diff is the longest
/// common subsequence of lines; a removed line followed by an added one that shares a beginning
/// or an end with it also marks the span where the two differ (``Line/changed``).
enum LineDiff {
    /// One line of the diff.
    struct Line: Equatable {
        /// Whether the line is in both, only in the expected answer, or only in the actual one.
        enum Kind: Equatable {
            case same, removed, added
        }

        let kind: Kind
        let text: String
        /// The character offsets (start, end) of the part that differs from its counterpart.
        var changed: Range<Int>?
    }

    /// Lines compared at most (longer answers are shown whole, as removed then added).
    static let maxLines = 2_000

    /// The diff of `expected` against `actual`.
    static func diff(expected: String, actual: String) -> [Line] {
        let old = lines(of: expected), new = lines(of: actual)
        var result: [Line] = []
        if old.count > maxLines || new.count > maxLines {
            result = old.map { Line(kind: .removed, text: $0) } + new.map { Line(kind: .added, text: $0) }
        } else {
            result = lcsDiff(old, new)
        }
        markChangedSpans(&result)
        return result
    }

    /// `text` as display lines: a leading remark (`400`, `reference model answers`) on its own
    /// line, then the JSON from the first `{` or `[` pretty-printed with sorted keys when the
    /// rest parses; otherwise the text's own lines.
    /// Keys keep their own order when `sortingKeys` is false.
    static func lines(of text: String, sortingKeys: Bool = true) -> [String] {
        if let start = text.firstIndex(where: { $0 == "{" || $0 == "[" }),
            let value = try? JSONValue.parse(String(text[start...]))
        {
            let prefix = text[..<start].trimmingCharacters(in: .whitespaces)
            let body = value.serialized(options: sortingKeys ? [.prettyPrinted, .sortedKeys] : [.prettyPrinted]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return (prefix.isEmpty ? [] : [prefix]) + body
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private static func lcsDiff(_ old: [String], _ new: [String]) -> [Line] {
        let n = old.count, m = new.count
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                result.append(Line(kind: .same, text: old[i]))
                i += 1
                j += 1
            } else if j < m, i == n || lengths[i][j + 1] > lengths[i + 1][j] {
                result.append(Line(kind: .added, text: new[j]))
                j += 1
            } else {
                result.append(Line(kind: .removed, text: old[i]))
                i += 1
            }
        }
        return result
    }

    /// Pairs each run of removed lines with the run of added lines after it and marks, in each
    /// pair, the span between their common prefix and common suffix.
    private static func markChangedSpans(_ lines: inout [Line]) {
        var index = 0
        while index < lines.count {
            guard lines[index].kind == .removed else {
                index += 1
                continue
            }
            var removedEnd = index
            while removedEnd < lines.count, lines[removedEnd].kind == .removed { removedEnd += 1 }
            var addedEnd = removedEnd
            while addedEnd < lines.count, lines[addedEnd].kind == .added { addedEnd += 1 }
            let pairs = min(removedEnd - index, addedEnd - removedEnd)
            for offset in 0..<pairs {
                // Lines with nothing in common are left unmarked: a mark over a whole line says nothing.
                guard let (left, right) = spans(Array(lines[index + offset].text), Array(lines[removedEnd + offset].text)) else { continue }
                lines[index + offset].changed = left
                lines[removedEnd + offset].changed = right
            }
            index = addedEnd
        }
    }

    private static func spans(_ a: [Character], _ b: [Character]) -> (Range<Int>, Range<Int>)? {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        guard prefix + suffix > 0 else { return nil }
        return (prefix..<(a.count - suffix), prefix..<(b.count - suffix))
    }
}
