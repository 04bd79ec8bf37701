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
struct CauseSignature: Hashable, Sendable {
    /// The offending characters, when the values carry any.
    let characters: Set<Unicode.Scalar>
    /// The values (`field: value`-free, in field order) when they carry no offending character.
    let values: [String]

    /// The signature of `cause` in `flowCase`, or `nil` when the cause names no input field.
    init?(_ cause: FailureCause, in flowCase: FlowCase) {
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
    var text: String {
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

/// Distinct causes shown as one failure: the first one found (shrunk, its failure shown in full)
/// and those that joined it, each in fields of its own with the same ``CauseSignature``.
struct CauseGroup: Sendable {
    /// A member: the cause, its record, and its shrunk case.
    struct Member: Sendable {
        let cause: FailureCause
        let record: FlowContracts.CauseRecord
        let shown: FlowCase
    }

    /// The members, the first (whose failure is shown) first.
    private(set) var members: [Member]
    /// What they share, when the first has a signature.
    let signature: CauseSignature?
    /// The first member's failure, as shrunk.
    let failure: ContractFailure

    init(_ first: Member, failure: ContractFailure) {
        members = [first]
        signature = CauseSignature(first.cause, in: first.shown)
        self.failure = failure
    }

    /// Every field of every member, sorted.
    var fields: [String] { Array(Set(members.flatMap(\.cause.fields))).sorted() }

    /// Whether `member` is the same defect seen in other fields: the same signature, in fields
    /// none of the members has; a value (not characters) must also fail the same way.
    func admits(_ member: Member) -> Bool {
        guard let signature, let theirs = CauseSignature(member.cause, in: member.shown), theirs == signature else { return false }
        guard Set(member.cause.fields).isDisjoint(with: fields) else { return false }
        return !signature.characters.isEmpty || members[0].cause.kind == member.cause.kind
    }

    mutating func add(_ member: Member) { members.append(member) }

    /// The failure shown for the group: the first member's, naming every field and what the
    /// others showed.
    var groupedFailure: ContractFailure {
        guard members.count > 1, let signature else { return failure }
        var grouped = failure
        let first = members[0]
        let cases = members.reduce(into: Set<Int>()) { $0.formUnion($1.record.cases) }.count
        let what = signature.characters.isEmpty ? "the value \(signature.text)" : signature.text
        let others = members.dropFirst().map { member in
            let values = member.cause.fields.compactMap { name -> String? in
                guard let field = ReportField(name: name), let value = member.shown.inputs[field] else { return nil }
                return "\(name) \(value.text.map { "\"\(VisibleText.escaped($0))\"" } ?? value.description)"
            }
            return "[\(member.cause.contract)] \(member.cause) (\(member.record.count) case\(member.record.count == 1 ? "" : "s")"
                + (values.isEmpty ? "" : "; shrunk to " + values.joined(separator: ", ")) + ")"
        }
        grouped.message = "\(fields.joined(separator: ", ")): one cause in \(members.count) fields, each failing with \(what) "
            + "(likely code they share); shown: \(grouped.message); the others: " + others.joined(separator: "; ")
        grouped.cause = ContractFailure.Cause(
            fields: fields, kind: "\(first.cause.kind), with \(what) in each field", cases: cases, shrunk: true)
        return grouped
    }
}
