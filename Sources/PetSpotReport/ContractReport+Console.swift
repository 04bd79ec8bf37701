import Foundation
import PetSpotJSON

extension ContractReport {
    /// The console form: a header, a summary per group, the coverage table, every failure in
    /// full, the notes, and the verdict (`OK: ...` or `FAILED: ...`) as the last line.
    public var consoleText: String {
        consoleText(quiet: false)
    }

    /// The console form; `quiet` keeps only the failures (and what was left on the target) and
    /// the verdict, which is always the last line.
    ///
    /// No line can issue a GitHub Actions workflow command: `##[` and `::` are shown escaped
    /// (``WorkflowCommands/visible(_:)``).
    package func consoleText(quiet: Bool) -> String {
        WorkflowCommands.visible((consoleBody(quiet: quiet) + [verdictLine]).joined(separator: "\n"))
    }

    /// The verdict: `OK` or `FAILED`, the counts and the duration, in one line.
    package var verdictLine: String {
        let totals = summary
        return "\(totals.failed == 0 ? "OK" : "FAILED"): \(totals.contracts) contracts, \(totals.passed) passed, "
            + "\(totals.failed) failed, \(totals.skipped) skipped; \(totals.casesRun) cases, "
            + "\(totals.casesFailed) failed, in \(Self.seconds(durationSeconds)) s"
            + (findings.isEmpty ? "" : "; \(findings.count) finding\(findings.count == 1 ? "" : "s") against the specification (above, not failures)")
    }

    /// Every line of the console form before the verdict.
    package func consoleBody(quiet: Bool) -> [String] {
        var lines: [String] = []
        if !quiet {
            var header = "petspot-contracts \(command): target \(target)"
            if let seed { header += ", seed \(seed)" }
            lines.append(header)
            for group in groups {
                lines.append("")
                lines.append("\(group.name)")
                if let summary = group.summary { lines.append("  \(VisibleText.escaped(summary))") }
                let width = (group.contracts.map(\.name.count).max() ?? 0) + 2
                for contract in group.contracts {
                    let mark: String
                    switch contract.status {
                    case .passed: mark = "PASS"
                    case .failed: mark = "FAIL"
                    case .skipped: mark = "SKIP"
                    }
                    var detail = "\(contract.casesRun) case\(contract.casesRun == 1 ? "" : "s")"
                    if contract.casesFailed > 0 { detail += ", \(contract.casesFailed) failed" }
                    if let reason = contract.skipReason { detail += " (skipped: \(reason))" }
                    lines.append("  \(mark)  " + contract.name.padding(toLength: width, withPad: " ", startingAt: 0) + detail)
                }
            }
            if let coverage { lines.append(""); lines.append(contentsOf: Self.coverageLines(coverage)) }
        }
        if !releaseLines.isEmpty {
            lines.append("")
            lines.append(contentsOf: releaseLines)
        }
        let distinct = distinctFailures
        if !distinct.isEmpty {
            lines.append("")
            let unshrunk = distinct.filter { $0.failure.cause?.shrunk == false }.count
            lines.append("\(distinct.count) distinct cause\(distinct.count == 1 ? "" : "s") of failure (each shown once below, "
                + (unshrunk == 0 ? "shrunk" : "\(distinct.count - unshrunk) shrunk") + "):")
            for (index, entry) in distinct.enumerated() {
                guard let cause = entry.failure.cause else { continue }
                lines.append("  \(index + 1). [\(entry.contract)] \(cause.summary) (\(cause.cases) case\(cause.cases == 1 ? "" : "s")"
                    + (cause.shrunk ? "" : ", not shrunk") + ")")
            }
        }
        var number = 0
        for group in groups {
            for contract in group.contracts {
                for failure in contract.failures {
                    number += 1
                    lines.append("")
                    lines.append(contentsOf: Self.failureLines(number: number, group: group.name, contract: contract.name, failure))
                }
                if contract.casesFailed > contract.failures.count {
                    lines.append("  (\(contract.casesFailed - contract.failures.count) more failing cases of \"\(contract.name)\" not shown)")
                }
            }
        }
        if !quiet {
            for (index, finding) in findings.enumerated() {
                lines.append("")
                lines.append(contentsOf: Self.findingLines(number: index + 1, finding))
            }
        }
        lines.append("")
        if !quiet {
            for note in notes { lines.append("note: \(note)") }
        }
        for leftover in leftovers {
            lines.append("left on target: announcement \(leftover.id)\(leftover.microchipNumber.map { " (microchip \($0))" } ?? ""): \(leftover.reason)")
        }
        if quiet { lines = Array(lines.drop { $0.isEmpty }) }
        return lines
    }

    static func failureLines(number: Int, group: String, contract: String, _ failure: ContractFailure) -> [String] {
        let visible = VisibleText.escaped
        var lines = ["FAILURE \(number): [\(group)] \(contract)", "  \(visible(failure.message))"]
        if let caseId = failure.caseId { lines.append("  case: \(caseId)") }
        if let request = failure.request {
            lines.append("  request: \(request.method) \(request.path)")
            for header in request.headers { lines.append("    \(header.name): \(header.value)") }
            if !request.body.isEmpty { lines.append("    \(visible(request.body))") }
        }
        if let expected = failure.expected { lines.append("  expected: \(visible(expected))") }
        if let actual = failure.actual { lines.append("  actual:   \(visible(actual))") }
        if !failure.steps.isEmpty {
            lines.append("  steps:")
            lines += stepLines(failure.steps, indent: "    ")
        }
        if let shrunk = failure.shrunkInput { lines.append("  shrunk input:   \(visible(shrunk.serialized()))") }
        if let original = failure.originalInput {
            lines.append((failure.shrunkInput == nil ? "  input: " : "  original input: ") + visible(original.serialized()))
        }
        if let seed = failure.seed { lines.append("  seed: \(seed)") }
        if let replay = failure.replay { lines.append("  replay: \(replay)") }
        if let reproduce = failure.reproduce { lines.append("  reproduce: \(reproduce)") }
        return lines
    }

    /// A scenario's steps, numbered, each with its request and reproduce line.
    static func stepLines(_ steps: [FailureStep], indent: String) -> [String] {
        let visible = VisibleText.escaped
        var lines: [String] = []
        for (index, step) in steps.enumerated() {
            lines.append(indent + visible(step.line(number: index + 1)))
            if let request = step.request, !step.action.contains("\(request.method) \(request.path.split(separator: "?").first ?? "")") {
                lines.append(indent + "   \(request.method) \(request.path)")
            }
            if let reproduce = step.reproduce { lines.append(indent + "   reproduce: \(reproduce)") }
        }
        return lines
    }

    /// A finding against the specification, as the console shows it.
    static func findingLines(number: Int, _ finding: SpecFinding) -> [String] {
        let visible = VisibleText.escaped
        var lines = [
            "SPEC FINDING \(number): [\(finding.group)] \(finding.property)",
            "  \(visible(finding.message))",
            "  what it does to the user: \(visible(finding.consequence))",
            "  the reference model, following the same rule, breaks it too: the rule itself cannot meet the property (not counted as a failure)",
        ]
        if !finding.steps.isEmpty {
            lines.append("  steps:")
            lines += stepLines(finding.steps, indent: "    ")
        }
        if let replay = finding.replay { lines.append("  replay: \(replay)") }
        return lines
    }

    /// The coverage table, compact: one line per rule with the hits of each boundary class, and
    /// every entry that missed its requirement in full.
    static func coverageLines(_ coverage: BoundaryCoverage) -> [String] {
        let met = coverage.rows.filter(\.met).count
        var lines = ["boundary coverage: \(met) of \(coverage.rows.count) catalogue entries met (\(coverage.verdict))"]
        var rules: [(field: String, rule: String)] = []
        for row in coverage.rows where !rules.contains(where: { $0.field == row.field && $0.rule == row.rule }) {
            rules.append((row.field, row.rule))
        }
        let width = (rules.map(\.field.count).max() ?? 0) + 2
        for (field, rule) in rules {
            var classes: [(name: String, hits: Int)] = []
            for row in coverage.rows where row.field == field && row.rule == rule {
                if let index = classes.firstIndex(where: { $0.name == row.boundaryClass }) {
                    classes[index].hits += row.hits
                } else {
                    classes.append((row.boundaryClass, row.hits))
                }
            }
            lines.append("  " + field.padding(toLength: width, withPad: " ", startingAt: 0) + rule + ": "
                + classes.map { "\($0.name) \($0.hits)" }.joined(separator: ", "))
        }
        for row in coverage.rows where !row.met {
            lines.append("  NOT MET  \(row.field): \(row.detail) (\(row.boundaryClass)): \(row.hits) hits")
        }
        return lines
    }

    /// Seconds with three decimals.
    package static func seconds(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// A number without a trailing `.0`.
    package static func plainNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A share in percent, to three decimals (`0.065`).
    package static func percent(_ value: Double) -> String {
        plainNumber((value * 1000).rounded() / 1000)
    }
}
