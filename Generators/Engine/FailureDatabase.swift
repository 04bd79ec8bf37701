import Foundation

/// One property's entry in the failure database: its last shrunk choice sequence.
///
/// An entry is keyed by the property's name and, when it has one, its identity
/// (``Property/identified(by:)``: a test's identity and arguments). The file is
/// `<directory>/<name>.choices` for a property without identity, and
/// `<directory>/<name>-<16 hex digits>.choices` with one, the digits hashing the identity; the
/// file's first line (`# key: name | identity`) names the full key, and an entry whose key line
/// does not match (a hash collision) is ignored. The choices follow as decimal numbers separated
/// by spaces. Unreadable entries are ignored and I/O errors never fail a run.
struct FailureDatabase {
    /// The entry's file.
    let file: URL
    /// The full key: the name, then ` | ` and the identity when there is one.
    let key: String

    init(directory: String, name: String, identity: String?) {
        let safeName = String(name.unicodeScalars.prefix(100).map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
        })
        key = identity.map { "\(name) | \($0)" } ?? name
        let fileName = identity.map { "\(safeName)-\(Self.digest($0)).choices" } ?? "\(safeName).choices"
        file = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(fileName)
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as 16 hexadecimal digits.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The saved choices, or `nil` when there is no readable entry for this key.
    func load() -> [UInt64]? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        var numbers: [Substring] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#") {
                if line.hasPrefix("# key: "), line.dropFirst("# key: ".count) != Substring(key) { return nil }
                continue
            }
            numbers += line.split(whereSeparator: \.isWhitespace)
        }
        let choices = numbers.map { UInt64($0) }
        guard !choices.isEmpty, !choices.contains(nil) else { return nil }
        return choices.compactMap { $0 }
    }

    /// Saves `choices` as this key's entry, replacing any earlier one.
    func save(_ choices: [UInt64]) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let text = "# key: \(key.filter { !$0.isNewline })\n" + choices.map(String.init).joined(separator: " ") + "\n"
        try? Data(text.utf8).write(to: file, options: .atomic)
    }

    /// Deletes this key's entry.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
