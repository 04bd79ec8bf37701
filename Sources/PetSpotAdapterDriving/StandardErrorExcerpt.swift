import PetSpotReport

/// What an adapter wrote on standard error while it was asked one question, bounded: its first
/// ``headLines`` lines and its last ``tailLines`` (a Python traceback names the exception on its
/// last line), each escaped and cut as the relay shows it.
package struct StandardErrorExcerpt: Sendable, Hashable {
    /// Lines kept from the start.
    static let headLines = 8
    /// Lines kept from the end, past the head.
    static let tailLines = 4

    /// The first lines.
    private(set) var head: [String] = []
    /// The last lines past the head, oldest first.
    private(set) var tail: [String] = []
    /// Every line written, kept or not.
    private(set) var count = 0

    /// An empty excerpt.
    package init() {}

    /// Records one more line.
    mutating func add(_ line: String) {
        count += 1
        if head.count < Self.headLines {
            head.append(line)
            return
        }
        tail.append(line)
        if tail.count > Self.tailLines { tail.removeFirst() }
    }

    /// Whether nothing was written.
    package var isEmpty: Bool { count == 0 }

    /// The lines kept, with `(N more lines)` where lines were left out.
    package var lines: [String] {
        let skipped = count - head.count - tail.count
        return head + (skipped > 0 ? ["(\(skipped) more line\(skipped == 1 ? "" : "s"))"] : []) + tail
    }

    /// The lines on one line, `|` between them, each cut at 300 bytes.
    package var joined: String {
        lines.map { DisplayText.sanitized($0, maxBytes: 300) }.joined(separator: " | ")
    }
}
