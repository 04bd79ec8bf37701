import PetSpotPropertyEngine

/// Character classes for realistic and hostile typing.
public enum HostileCharacters {
    /// Digits that are not ASCII: Arabic-Indic, Eastern Arabic-Indic, Devanagari, fullwidth,
    /// superscripts and subscripts, vulgar fractions, Roman numerals, circled digits.
    public static let nonASCIIDigits: CharacterClass =
        "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९０１２３４５６７８９¹²³⁴⁵⁶⁷⁸⁹⁰₀₁₂₃½¼¾⅓ⅠⅡⅢⅣⅤⅫⅯ①②⑩"
    /// Spaces and invisible characters: NBSP, the EN/EM/thin/hair spaces, ideographic space,
    /// line and paragraph separators, zero-width space/joiners, BOM, tab and newlines.
    public static let invisibles: CharacterClass =
        "\u{00A0}\u{2002}\u{2003}\u{2009}\u{200A}\u{3000}\u{2028}\u{2029}\u{200B}\u{200C}\u{200D}\u{FEFF}\t\n\r\u{0085}\u{202F}"
    /// Emoji, including multi-scalar ones (ZWJ families, flags, skin tones).
    public static let emoji = CharacterClass(["🐶", "🐱", "🐰", "🦜", "👨‍👩‍👧‍👦", "🇵🇱", "👍🏽", "❤️", "🏳️‍🌈"])
    /// Combining marks that attach to the previous character.
    public static let combiningMarks: CharacterClass = "\u{0301}\u{0308}\u{0327}\u{20DD}\u{0489}"
    /// Right-to-left letters and bidirectional controls.
    public static let rightToLeft: CharacterClass =
        "אבגדהוזחטיכלמנסעפצקרשתابتثجحخدذرزسشصضطظعغفقكلمنهوي\u{200F}\u{202E}\u{202B}\u{2067}"
    /// The spaces trimming removes (White_Space and U+FEFF): padding of these keeps a value valid.
    public static let trimmedSpaces: CharacterClass =
        " \u{00A0}\u{2002}\u{2003}\u{2009}\u{3000}\u{2028}\u{FEFF}\t\n\u{0085}\u{202F}"
    /// Punctuation people paste into numbers: hyphens, dashes, brackets, dots, slashes.
    public static let numberPunctuation: CharacterClass = "-–—‐‑()[]{}./ +#*"
    /// Letters with diacritics and other scripts.
    public static let internationalLetters: CharacterClass = "ąćęłńóśźżÄÖÜßéèçñøåæ漢字かなカナ한국어Ωλπ"
}

extension Gen where Value == String {
    /// Strings that mix `base` with a sprinkling of hostile characters.
    static func sprinkled(_ base: CharacterClass, length: ClosedRange<Int>) -> Gen<String> {
        Gen.string(
            of: Gen<Character>.frequency(
                (8, .character(from: base)),
                (1, .character(from: HostileCharacters.invisibles)),
                (1, .character(from: HostileCharacters.nonASCIIDigits)),
                (1, .character(from: HostileCharacters.emoji)),
                (1, .character(from: HostileCharacters.combiningMarks)),
                (1, .character(from: HostileCharacters.rightToLeft))
            ),
            length: length)
    }

    /// `inner` with optional padding of `spaces` before and after: trimmed spaces keep a value
    /// valid; other invisibles (zero-width space, joiners) are not trimmed and make it invalid.
    static func padded(_ inner: Gen<String>, with spaces: CharacterClass = HostileCharacters.trimmedSpaces) -> Gen<String> {
        let padding = Gen.frequency(
            (6, .constant("")),
            (2, .string(from: " ", length: 1...3)),
            (2, .string(from: spaces, length: 1...2)))
        return PetSpotPropertyEngine.zip(padding, inner, padding).map { $0 + $1 + $2 }
    }

    /// Exactly `count` characters from `characters`, a text at a length cap.
    static func exactly(_ count: Int, from characters: CharacterClass) -> Gen<String> {
        Gen.string(from: characters, length: count...count)
    }
}
