import Foundation

extension ContractReport {
    /// Fills what the groups did not record themselves, so that every rendering shows the same
    /// facts: a contract whose group measured no time gets the wall-clock time charged to it by
    /// the recorder (`attributedSeconds`, by group and contract), and a failure that carries a
    /// replay line but no seed gets the run's seed (the replay line replays the run's seed).
    mutating func completeTimesAndSeeds(attributedSeconds: [String: [String: Double]]) {
        for g in groups.indices {
            let charged = attributedSeconds[groups[g].name] ?? [:]
            for c in groups[g].contracts.indices {
                if groups[g].contracts[c].durationSeconds == 0, let seconds = charged[groups[g].contracts[c].name] {
                    groups[g].contracts[c].durationSeconds = seconds
                }
                guard let seed else { continue }
                for f in groups[g].contracts[c].failures.indices
                where groups[g].contracts[c].failures[f].seed == nil && groups[g].contracts[c].failures[f].replay != nil {
                    groups[g].contracts[c].failures[f].seed = seed
                }
            }
        }
    }

    /// The JUnit `classname` of a group: `check: regressions` for the group
    /// `regressions (Contracts/catalog/regressions.json)`.
    ///
    /// Jenkins reads the text after a classname's last dot as the class and the rest as a
    /// package, and test-report actions take a classname with slashes for a file path, so the
    /// name has no dots and no path: a parenthesised remark is dropped and any remaining `.`,
    /// `/` or `\` becomes `-`. The command prefix keeps `check` and `run` apart when a CI job
    /// publishes both.
    static func junitClassName(command: String, group: String) -> String {
        var name = group
        if let open = name.range(of: " ("), name.hasSuffix(")") { name = String(name[..<open.lowerBound]) }
        let cleaned = String(name.map { "./\\".contains($0) ? "-" : $0 }).trimmingCharacters(in: .whitespaces)
        return "\(command): \(cleaned.isEmpty ? "contracts" : cleaned)"
    }

    /// `<properties>` lines (without a trailing newline) at `indent` for `pairs`, skipping empty values.
    static func junitProperties(_ pairs: [(String, String?)], indent: String) -> String {
        let present = pairs.compactMap { pair in pair.1.map { (pair.0, $0) } }
        guard !present.isEmpty else { return "" }
        var lines = ["\(indent)<properties>"]
        for (name, value) in present {
            lines.append("\(indent)  <property name=\"\(xml(name))\" value=\"\(xml(value))\"/>")
        }
        lines.append("\(indent)</properties>")
        return lines.joined(separator: "\n")
    }

    /// The replay line of the run: the report's own, else the first failure's.
    var replayLine: String? {
        replay ?? groups.lazy.flatMap(\.contracts).flatMap(\.failures).compactMap(\.replay).first
    }
}
