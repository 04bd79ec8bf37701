import Foundation

/// A shell-safe rendering of one word for replay command lines.
package func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) || "-_./:=@%+,".unicodeScalars.contains($0)
    }
    if safe && !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
