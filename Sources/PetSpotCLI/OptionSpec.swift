import PetSpotRunner

/// What the usage text shows of one `--flag`: its name, the value it takes (if any), its default
/// and help.
package struct OptionSpec: Sendable, Hashable {
    /// The flag, with its dashes: `--cases`.
    let name: String
    /// The placeholder of its value (`N`, `URL`); `nil` for a switch that takes none.
    let valueName: String?
    /// The default, as shown in the usage text (`nil`: no default, or "none").
    let defaultText: String?
    /// One sentence of help.
    let help: String
    /// Whether the flag may be given more than once, each value kept (`--break A --break B`).
    let repeats: Bool

    /// Creates an option description.
    package init(_ name: String, value valueName: String? = nil, default defaultText: String? = nil, help: String, repeats: Bool = false) {
        self.name = name
        self.valueName = valueName
        self.defaultText = defaultText
        self.help = help
        self.repeats = repeats
    }

    /// `[--cases N]`, or `--base-url URL` for a required option.
    var synopsis: String {
        let word = name + (valueName.map { " \($0)" } ?? "")
        return defaultText == "required" ? word : "[\(word)]"
    }
}
