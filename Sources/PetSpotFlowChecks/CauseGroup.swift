import PetSpotFlowGenerators
import PetSpotModel
import PetSpotReport

/// Distinct causes shown as one failure: the first one found (shrunk, its failure shown in full)
/// and those that joined it, each in fields of its own with the same ``CauseSignature``.
package struct CauseGroup: Sendable {
    /// A member: the cause, its record, and its shrunk case.
    package struct Member: Sendable {
        /// The cause.
        package let cause: FailureCause
        /// Its first case and the cases that showed it.
        package let record: FlowContracts.CauseRecord
        /// Its first case, shrunk.
        package let shown: FlowCase

        /// A member.
        package init(cause: FailureCause, record: FlowContracts.CauseRecord, shown: FlowCase) {
            self.cause = cause
            self.record = record
            self.shown = shown
        }
    }

    /// The members, the first (whose failure is shown) first.
    package private(set) var members: [Member]
    /// What they share, when the first has a signature.
    package let signature: CauseSignature?
    /// The first member's failure, as shrunk.
    package let failure: ContractFailure

    /// A group of `first`, whose failure, as shrunk, is `failure`.
    package init(_ first: Member, failure: ContractFailure) {
        members = [first]
        signature = CauseSignature(first.cause, in: first.shown)
        self.failure = failure
    }

    /// Every field of every member, sorted.
    package var fields: [String] { Array(Set(members.flatMap(\.cause.fields))).sorted() }

    /// Whether `member` is the same defect seen in other fields: the same signature, in fields
    /// none of the members has; a value (not characters) must also fail the same way.
    package func admits(_ member: Member) -> Bool {
        guard let signature, let theirs = CauseSignature(member.cause, in: member.shown), theirs == signature else { return false }
        guard Set(member.cause.fields).isDisjoint(with: fields) else { return false }
        return !signature.characters.isEmpty || members[0].cause.kind == member.cause.kind
    }

    /// Adds `member` (one it ``admits(_:)``).
    package mutating func add(_ member: Member) { members.append(member) }

    /// The failure shown for the group: the first member's, naming every field and what the
    /// others showed; its cause's kind names each way the members fail with its fields
    /// (``kindsByField``), so it is true of every field it names.
    package var groupedFailure: ContractFailure {
        guard members.count > 1, let signature else { return failure }
        var grouped = failure
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
        grouped.message = "\(fields.joined(separator: ", ")): one cause in \(fields.count) fields, each failing with \(what) "
            + "(likely code they share); shown: \(grouped.message); the others: " + others.joined(separator: "; ")
        let kinds = kindsByField
        let kind = kinds.count == 1
            ? "\(kinds[0].kind), with \(what) in each field"
            : kinds.map { "\($0.kind) (\($0.fields.joined(separator: ", ")))" }.joined(separator: "; ") + "; with \(what) in each field"
        grouped.cause = ContractFailure.Cause(fields: fields, kind: kind, cases: cases, shrunk: true)
        return grouped
    }

    /// Each way the members fail, in the order first seen, with the fields (sorted) that fail
    /// that way: a label true of every field it names. A member of another contract than the
    /// first's carries its contract (`[contract] kind`).
    package var kindsByField: [(kind: String, fields: [String])] {
        var kinds: [(kind: String, fields: Set<String>)] = []
        for member in members {
            let contract = member.cause.contract == members[0].cause.contract ? "" : "[\(member.cause.contract)] "
            let kind = contract + member.cause.kind
            if let index = kinds.firstIndex(where: { $0.kind == kind }) {
                kinds[index].fields.formUnion(member.cause.fields)
            } else {
                kinds.append((kind, Set(member.cause.fields)))
            }
        }
        return kinds.map { ($0.kind, $0.fields.sorted()) }
    }
}
