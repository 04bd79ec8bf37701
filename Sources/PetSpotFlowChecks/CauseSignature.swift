import PetSpotFlowGenerators
import PetSpotModel
import PetSpotReport

/// What a cause's shrunk case carries in its fields that a plain value would not: the
/// characters that are neither ASCII letters, digits nor ASCII punctuation (a U+FEFF, a space,
/// an Arabic-Indic digit), or, when there are none, the value itself (`000000000000`).
///
/// Causes in different fields with the same offending characters are most likely one defect in
/// code the fields share (a trimming helper that keeps U+FEFF shows in every text field), so
/// they are one ``CauseGroup``: shown once, listing the fields, counted once against
/// `--max-failures`.
package struct CauseSignature: Hashable, Sendable {
    /// The offending characters, when the values carry any.
    package let characters: Set<Unicode.Scalar>
    /// The values (`field: value`-free, in field order) when they carry no offending character.
    package let values: [String]

    /// The signature of `cause` in `flowCase`, or `nil` when the cause names no input field.
    package init?(_ cause: FailureCause, in flowCase: FlowCase) {
        let fields = cause.fields.compactMap(ReportField.init(name:))
        guard !fields.isEmpty else { return nil }
        var characters: Set<Unicode.Scalar> = []
        var values: [String] = []
        for field in fields {
            guard let value = flowCase.inputs[field] else {
                values.append("(empty)")
                continue
            }
            if case .text(let text) = value {
                characters.formUnion(text.unicodeScalars.filter(Self.isOffending))
                values.append(text)
            } else {
                values.append(value.description)
            }
        }
        self.characters = characters
        self.values = characters.isEmpty ? values : []
    }

    /// Whether `scalar` is out of the ordinary in a typed value: anything but an ASCII letter,
    /// digit or punctuation mark (so spaces, controls and every non-ASCII scalar).
    static func isOffending(_ scalar: Unicode.Scalar) -> Bool {
        !(0x21...0x7E).contains(scalar.value)
    }

    /// How a failure names it: `U+FEFF`, `U+0020 and U+00A0`, or the value in quotes.
    package var text: String {
        if !characters.isEmpty {
            return characters.sorted { $0.value < $1.value }.map(Self.codePoint).joined(separator: " and ")
        }
        return values.map { "\"\(VisibleText.escaped($0.count > 40 ? String($0.prefix(40)) + "…" : $0))\"" }.joined(separator: ", ")
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
