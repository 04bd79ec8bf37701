import PetSpotJSON
import PetSpotPropertyEngine

/// A program: operations run one after another (`prefix`), then, when there are `lanes`, the
/// operations of each lane sent by its own client at the same time as the other lanes'.
struct SequenceProgram: Hashable, Sendable {
    /// The operations run one after another.
    var prefix: [SequenceOperation]
    /// Parallel branches (none, or two or more), each run in order by one client.
    var lanes: [[SequenceOperation]]

    /// Every operation, prefix first, then lane by lane.
    var operations: [SequenceOperation] { prefix + lanes.flatMap { $0 } }
    /// Operations in all.
    var operationCount: Int { prefix.count + lanes.reduce(0) { $0 + $1.count } }
    /// Requests the program may send, the deletes that end it included.
    var requestCost: Int { operations.reduce(0) { $0 + $1.requestCount + $1.createCount } }
    /// Whether it has parallel branches.
    var isConcurrent: Bool { !lanes.isEmpty }
    /// Whether it creates many announcements near one point.
    var isScale: Bool { operations.contains { if case .fill(let count) = $0 { return count >= 10 } else { return false } } }

    /// The slots in the order the program first names them (their labels `#1`, `#2`, ...).
    var slotOrder: [Int] {
        var seen: [Int] = []
        for operation in operations { if let slot = operation.slot, !seen.contains(slot) { seen.append(slot) } }
        return seen
    }

    /// The chips in the order the program first names them (their labels `A`, `B`, ...).
    var chipOrder: [Int] {
        var seen: [Int] = []
        for case .create(_, let chip) in operations { if let index = chip.index, !seen.contains(index) { seen.append(index) } }
        return seen
    }

    /// The labels of slots (`#1`, `#2`, ...) and chips (`A`, `B`, ...), in the order first named.
    var labels: (slots: [Int: String], chips: [Int: String]) {
        var slots: [Int: String] = [:]
        for (position, slot) in slotOrder.enumerated() { slots[slot] = "#\(position + 1)" }
        var chips: [Int: String] = [:]
        for (position, chip) in chipOrder.enumerated() {
            chips[chip] = position < 26 ? String(UnicodeScalar(UInt8(65 + position))) : "chip \(position + 1)"
        }
        return (slots, chips)
    }

    /// How `operation` reads, with the program's labels and without any state.
    func text(of operation: SequenceOperation) -> String {
        let (slots, chips) = labels
        func label(_ slot: Int) -> String { slots[slot] ?? "#?" }
        switch operation {
        case .create(let slot, let chip):
            return "create \(label(slot))" + (chip.index.map { " with microchip \(chips[$0] ?? "?")" } ?? " without a microchip")
        case .upload(let slot, let kind): return "upload a \(kind.rawValue.uppercased()) to \(label(slot))"
        case .details(let slot): return "details of \(label(slot))"
        case .photo(let slot, let kind): return "GET the \(kind.rawValue.uppercased()) of \(label(slot))"
        case .list(let near): return near ? "list around the centre" : "list, unfiltered"
        case .delete(let slot): return "delete \(label(slot))"
        case .fill(let count): return "create \(count) announcements with a photo at one point"
        }
    }

    /// The program as JSON for a report: `{"steps": [...]}`, plus `"clients": [[...], ...]` for
    /// parallel branches.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "steps", value: .array(prefix.map { .string(text(of: $0)) }))]
        if isConcurrent {
            members.append((key: "clients", value: .array(lanes.map { lane in .array(lane.map { .string(text(of: $0)) }) })))
        }
        return .object(JSONObject(members))
    }
}
