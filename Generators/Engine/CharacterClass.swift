/// An ordered set of characters that string generators draw from.
///
/// The order is the shrink order: the first character is the simplest, so a failing
/// string shrinks toward repetitions of it (``asciiLetters`` shrinks to `"a"`). Duplicates
/// are dropped, keeping the first occurrence.
///
/// ```swift
/// let digits = CharacterClass("0123456789")
/// let mixed = CharacterClass.asciiLetters + CharacterClass(["é", "ß", "👩‍👩‍👧"])
/// ```
///
/// The class keeps every character's UTF-8 bytes in one flat array, so generated strings
/// are assembled as bytes in a reused buffer, without per-character allocation.
public struct CharacterClass: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The characters in shrink order, without duplicates.
    public let characters: [Character]
    /// The UTF-8 bytes of all characters, concatenated in order.
    let utf8: [UInt8]
    /// Where each character's bytes start in `utf8`, plus the total length at the end.
    let utf8Starts: [Int]

    /// Creates a class of `characters` in the given order, dropping repeats.
    public init<S: Sequence>(_ characters: S) where S.Element == Character {
        var seen = Set<Character>()
        let unique = characters.filter { seen.insert($0).inserted }
        self.characters = unique
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(unique.count + 1)
        for character in unique {
            starts.append(bytes.count)
            bytes.append(contentsOf: character.utf8)
        }
        starts.append(bytes.count)
        utf8 = bytes
        utf8Starts = starts
    }

    /// Creates a class of the characters of `string`, in order.
    public init(stringLiteral string: String) {
        self.init(Array(string))
    }

    /// Creates a class of every Unicode scalar in `ranges`, in order (surrogates are skipped).
    public init(scalarsIn ranges: ClosedRange<UInt32>...) {
        var characters: [Character] = []
        for range in ranges {
            for value in range {
                if let scalar = Unicode.Scalar(value) { characters.append(Character(scalar)) }
            }
        }
        self.init(characters)
    }

    /// The union of two classes: `left`'s characters first.
    public static func + (left: CharacterClass, right: CharacterClass) -> CharacterClass {
        CharacterClass(left.characters + right.characters)
    }

    /// `a` through `z`.
    public static let asciiLowercase = CharacterClass(scalarsIn: 0x61...0x7A)
    /// `A` through `Z`.
    public static let asciiUppercase = CharacterClass(scalarsIn: 0x41...0x5A)
    /// `a`-`z` then `A`-`Z`.
    public static let asciiLetters = asciiLowercase + asciiUppercase
    /// `0` through `9`.
    public static let asciiDigits = CharacterClass(scalarsIn: 0x30...0x39)
    /// `a`-`z`, `A`-`Z`, then `0`-`9`.
    public static let asciiAlphanumerics = asciiLetters + asciiDigits
    /// Every printable ASCII character: letters, digits, space, then punctuation in code order.
    public static let asciiPrintable = asciiAlphanumerics + CharacterClass(scalarsIn: 0x20...0x7E)
    /// Every Unicode scalar of the Basic Multilingual Plane and beyond, except surrogates and
    /// the C0 controls, starting from `a`-`z` (about 1.1 million characters).
    public static let unicodeScalars = asciiAlphanumerics + CharacterClass(scalarsIn: 0x20...0x10FFFF)
}

extension Gen where Value == Character {
    /// A generator of the characters of `characterClass`, shrinking toward its first character.
    ///
    /// An empty class rejects every case with an explanation.
    public static func character(from characterClass: CharacterClass) -> Gen<Character> {
        element(of: characterClass.characters)
    }
}

extension Gen where Value == String {
    /// A generator of strings of characters from `characterClass` with a length (in characters) in `length`.
    ///
    /// Shrinks toward shorter strings of earlier characters of the class: the shortest and
    /// simplest failing string. The typical length grows with the size parameter. Note that
    /// adjacent characters can combine (a combining mark after a letter); `length` counts
    /// the characters drawn.
    public static func string(
        from characterClass: CharacterClass = .asciiPrintable, length: ClosedRange<Int> = 0...Int.max
    ) -> Gen<String> {
        let characters = characterClass.characters
        guard !characters.isEmpty else {
            return Gen { testCase in try testCase.reject("string(from:) was given an empty character class") }
        }
        let last = UInt64(characters.count - 1)
        let minimum = Swift.max(0, length.lowerBound), maximum = Swift.max(minimum, length.upperBound)
        let utf8 = characterClass.utf8, starts = characterClass.utf8Starts
        return Gen { testCase in
            var bytes = testCase.scratch
            testCase.scratch = []
            bytes.removeAll(keepingCapacity: true)
            defer { testCase.scratch = bytes }
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "string") { testCase in
                let index = Int(try testCase.choice(upTo: last))
                let start = starts[index], end = starts[index + 1]
                if end - start == 1 {
                    bytes.append(utf8[start])
                } else {
                    bytes.append(contentsOf: utf8[start..<end])
                }
                return true
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A generator of strings of `character`'s values with a length (in characters drawn) in `length`.
    public static func string(of character: Gen<Character>, length: ClosedRange<Int> = 0...Int.max) -> Gen<String> {
        let draw = character.draw
        let minimum = Swift.max(0, length.lowerBound), maximum = Swift.max(minimum, length.upperBound)
        return Gen { testCase in
            var result = ""
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "string") { testCase in
                result.append(try draw(&testCase))
                return true
            }
            return result
        }
    }
}
