import Foundation
import PetSpotJSON

extension ContractReport {
    /// The `--report-json` document: versioned, keys in a fixed order.
    ///
    /// ```json
    /// {"reportVersion": 2, "tool": "petspot-contracts", "toolVersion": "1.0.0", "command": "check",
    ///  "arguments": [...], "target": "...", "seed": "123", "replay": "...", "startedAt": "...", "durationSeconds": 1.5,
    ///  "summary": {"contracts", "passed", "failed", "skipped", "casesRun", "casesFailed"},
    ///  "groups": [{"name", "durationSeconds", "contracts": [{"name", "status", "casesRun",
    ///     "casesFailed", "durationSeconds", "skipReason", "failures": [...]}]}],
    ///  "leftovers": [{"id", "microchipNumber", "reason"}], "notes": [...],
    ///  "distinctFailures": [{"group", "contract", "fields", "kind", "cases", "shrunk"}],
    ///  "coverage": {"cases", "met", "verdict", "entries": [{"field", "rule", "class", "detail",
    ///     "hits", "requiredPercent", "met"}]}}
    /// ```
    /// `distinctFailures` and `coverage` are present when flow cases were checked, and a
    /// failure's `cause` (`{"fields", "kind", "cases", "shrunk"}`) on failures of generated flow
    /// cases.
    /// The seed is a string (a 64-bit number does not fit every JSON reader's numbers).
    /// `docs/report.schema.json` is the format's JSON Schema.
    public var json: JSONValue {
        let totals = summary
        var members: [JSONObject.Element] = [
            ("reportVersion", .number(JSONNumber(Self.reportVersion))),
            ("tool", .string(Self.tool)),
            ("toolVersion", .string(Self.toolVersion)),
            ("command", .string(command)),
            ("arguments", .array(arguments.map { .string($0) })),
            ("target", .string(target)),
            ("seed", seed.map { .string(String($0)) } ?? .null),
            ("replay", replay.map { .string($0) } ?? .null),
            ("startedAt", .string(Self.iso8601(startedAt))),
            ("durationSeconds", Self.number(durationSeconds)),
            ("summary", .object(JSONObject([
                ("contracts", .number(JSONNumber(totals.contracts))),
                ("passed", .number(JSONNumber(totals.passed))),
                ("failed", .number(JSONNumber(totals.failed))),
                ("skipped", .number(JSONNumber(totals.skipped))),
                ("casesRun", .number(JSONNumber(totals.casesRun))),
                ("casesFailed", .number(JSONNumber(totals.casesFailed))),
            ]))),
            ("groups", .array(groups.map(Self.groupJSON))),
            ("leftovers", .array(leftovers.map { leftover in
                .object(JSONObject([
                    ("id", .string(leftover.id)),
                    ("microchipNumber", leftover.microchipNumber.map { .string($0) } ?? .null),
                    ("reason", .string(leftover.reason)),
                ]))
            })),
            ("notes", .array(notes.map { .string($0) })),
            ("findings", .array(findings.map { finding in
                .object(JSONObject([
                    ("group", .string(finding.group)),
                    ("property", .string(finding.property)),
                    ("message", .string(finding.message)),
                    ("consequence", .string(finding.consequence)),
                    ("steps", .array(finding.steps.map(Self.stepJSON))),
                    ("replay", finding.replay.map { .string($0) } ?? .null),
                ]))
            })),
            ("releases", .array(releases.map(Self.releaseJSON))),
        ]
        // Present when flow cases were checked.
        if let coverage {
            members.append(("distinctFailures", .array(distinctFailures.map { entry in
                .object(JSONObject([
                    ("group", .string(entry.group)),
                    ("contract", .string(entry.contract)),
                    ("fields", .array((entry.failure.cause?.fields ?? []).map { .string($0) })),
                    ("kind", .string(entry.failure.cause?.kind ?? "")),
                    ("cases", .number(JSONNumber(entry.failure.cause?.cases ?? 0))),
                    ("shrunk", .bool(entry.failure.cause?.shrunk ?? false)),
                ]))
            })))
            members.append(("coverage", Self.coverageJSON(coverage)))
        }
        return .object(JSONObject(members))
    }

    private static func groupJSON(_ group: GroupOutcome) -> JSONValue {
        .object(JSONObject([
            ("name", .string(group.name)),
            ("summary", group.summary.map { .string($0) } ?? .null),
            ("durationSeconds", number(group.durationSeconds)),
            ("contracts", .array(group.contracts.map { contract in
                .object(JSONObject([
                    ("name", .string(contract.name)),
                    ("status", .string(contract.status.rawValue)),
                    ("casesRun", .number(JSONNumber(contract.casesRun))),
                    ("casesFailed", .number(JSONNumber(contract.casesFailed))),
                    ("durationSeconds", number(contract.durationSeconds)),
                    ("skipReason", contract.skipReason.map { .string($0) } ?? .null),
                    ("failures", .array(contract.failures.map(failureJSON))),
                ]))
            })),
        ]))
    }

    private static func coverageJSON(_ coverage: BoundaryCoverage) -> JSONValue {
        .object(JSONObject([
            ("cases", .number(JSONNumber(coverage.cases))),
            ("met", .bool(coverage.isMet)),
            ("verdict", .string(coverage.verdict)),
            ("entries", .array(coverage.rows.map { row in
                .object(JSONObject([
                    ("field", .string(row.field)),
                    ("rule", .string(row.rule)),
                    ("class", .string(row.boundaryClass)),
                    ("detail", .string(row.detail)),
                    ("hits", .number(JSONNumber(row.hits))),
                    ("requiredPercent", number(row.requiredPercent)),
                    ("met", .bool(row.met)),
                ]))
            })),
        ]))
    }

    private static func requestJSON(_ request: ReportedRequest?) -> JSONValue {
        request.map { request in
            .object(JSONObject([
                ("method", .string(request.method)),
                ("path", .string(request.path)),
                ("headers", .array(request.headers.map { .object(JSONObject([("name", .string($0.name)), ("value", .string($0.value))])) })),
                ("body", .string(request.body)),
            ]))
        } ?? .null
    }

    private static func stepJSON(_ step: FailureStep) -> JSONValue {
        .object(JSONObject([
            ("lane", step.lane.map { .string($0) } ?? .null),
            ("action", .string(step.action)),
            ("outcome", .string(step.outcome)),
            ("request", requestJSON(step.request)),
            ("reproduce", step.reproduce.map { .string($0) } ?? .null),
        ]))
    }

    private static func failureJSON(_ failure: ContractFailure) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        let request = requestJSON(failure.request)
        return .object(JSONObject([
            ("message", .string(failure.message)),
            ("caseId", text(failure.caseId)),
            ("request", request),
            ("expected", text(failure.expected)),
            ("actual", text(failure.actual)),
            ("shrunkInput", failure.shrunkInput ?? .null),
            ("originalInput", failure.originalInput ?? .null),
            ("seed", failure.seed.map { .string(String($0)) } ?? .null),
            ("replay", text(failure.replay)),
            ("reproduce", text(failure.reproduce)),
            ("steps", .array(failure.steps.map(Self.stepJSON))),
        ] + (failure.cause.map { cause in
            [("cause", .object(JSONObject([
                ("fields", .array(cause.fields.map { .string($0) })),
                ("kind", .string(cause.kind)),
                ("cases", .number(JSONNumber(cause.cases))),
                ("shrunk", .bool(cause.shrunk)),
            ])))]
        } ?? [])))
    }

    /// A JUnit XML document: one `<testsuite>` per group (its `<properties>`: seed, replay,
    /// target, group), one `<testcase>` per contract with its time and a classname without dots
    /// or paths (``junitClassName(command:group:)``), a `<failure>` per failing contract (message
    /// and details, and `<properties>` with the first failure's seed, replay and case),
    /// `<skipped>` for skipped ones. Findings against the specification fail nothing and skip
    /// nothing: the `spec findings` testsuite holds one passing testcase per finding, with the
    /// finding in `<properties>` (`finding`, `consequence`, `replay`) and in full in `<system-out>`.
    public var junitXML: String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totals = summary
        xml += "<testsuites name=\"\(Self.xml(Self.tool + " " + command))\" tests=\"\(totals.contracts + findings.count)\" "
            + "failures=\"\(totals.failed)\" errors=\"0\" skipped=\"\(totals.skipped)\" time=\"\(Self.seconds(durationSeconds))\">\n"
        for group in groups {
            let failed = group.contracts.filter { $0.status == .failed }.count
            let skipped = group.contracts.filter { $0.status == .skipped }.count
            xml += "  <testsuite name=\"\(Self.xml(group.name))\" tests=\"\(group.contracts.count)\" failures=\"\(failed)\" "
                + "errors=\"0\" skipped=\"\(skipped)\" time=\"\(Self.seconds(group.durationSeconds))\" "
                + "timestamp=\"\(Self.iso8601(startedAt).replacingOccurrences(of: "Z", with: ""))\">\n"
            let suiteProperties = Self.junitProperties(
                [("seed", seed.map { String($0) }), ("replay", replayLine), ("target", target), ("group", group.name), ("summary", group.summary)],
                indent: "    ")
            if !suiteProperties.isEmpty { xml += suiteProperties + "\n" }
            for contract in group.contracts {
                xml += "    <testcase classname=\"\(Self.xml(Self.junitClassName(command: command, group: group.name)))\" name=\"\(Self.xml(contract.name))\" "
                    + "time=\"\(Self.seconds(contract.durationSeconds))\""
                switch contract.status {
                case .passed:
                    xml += "/>\n"
                case .skipped:
                    xml += ">\n      <skipped message=\"\(Self.xml(contract.skipReason ?? "no case ran"))\"/>\n    </testcase>\n"
                case .failed:
                    let first = contract.failures.first?.message ?? "failed"
                    let message = "\(contract.casesFailed) of \(contract.casesRun) cases failed: \(first)"
                    var details: [String] = []
                    for (index, failure) in contract.failures.enumerated() {
                        details += Self.failureLines(number: index + 1, group: group.name, contract: contract.name, failure)
                    }
                    // A contract whose cause of failure is shown under another one keeps no failure
                    // of its own: its testcase still names the run's seed and replay line.
                    let shown = contract.failures.first
                    let caseProperties = Self.junitProperties(
                        [("seed", (shown?.seed ?? seed).map { String($0) }), ("replay", shown?.replay ?? replayLine), ("case", shown?.caseId),
                         ("reproduce", shown?.reproduce)],
                        indent: "      ")
                    xml += ">\n" + (caseProperties.isEmpty ? "" : caseProperties + "\n")
                        + "      <failure message=\"\(Self.xml(message))\" type=\"ContractFailure\">"
                        + Self.xml(details.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        if !findings.isEmpty {
            // Findings against the specification are not failures, and nothing was skipped: each
            // is a passing testcase carrying the finding, so CI shows it on a green run.
            xml += "  <testsuite name=\"spec findings\" tests=\"\(findings.count)\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
            for (index, finding) in findings.enumerated() {
                let properties = Self.junitProperties(
                    [("finding", finding.message), ("consequence", finding.consequence), ("replay", finding.replay)], indent: "      ")
                xml += "    <testcase classname=\"\(Self.xml(Self.junitClassName(command: command, group: "spec findings")))\" "
                    + "name=\"\(Self.xml("[\(finding.group)] \(finding.property)"))\" time=\"0.000\">\n"
                    + properties + "\n"
                    + "      <system-out>\(Self.xml(Self.findingLines(number: index + 1, finding).joined(separator: "\n")))</system-out>\n"
                    + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        // CI tools print these texts: no workflow command in them (the markup has no `::` or `##[`).
        return WorkflowCommands.visible(xml)
    }

    /// The text of the `--report-json` file: ``json`` pretty-printed, with `##[` and `::` written
    /// as JSON escapes (``WorkflowCommands/jsonEscaped(_:)``: the same values, and no workflow
    /// command if a CI step prints the file).
    public var jsonText: String {
        WorkflowCommands.jsonEscaped(json.serialized(options: [.prettyPrinted])) + "\n"
    }

    /// Text escaped for XML attributes and content; characters XML 1.0 forbids are dropped.
    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            default:
                let value = scalar.value
                let allowed = (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
                if allowed { result.unicodeScalars.append(scalar) } else { result += "\u{FFFD}" }
            }
        }
        return result
    }

    static func number(_ value: Double) -> JSONValue {
        .number(JSONNumber((value * 1000).rounded() / 1000))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension ContractReport {
    /// One release of `can-i-deploy`'s matrix in the JSON report.
    static func releaseJSON(_ release: ReleaseOutcome) -> JSONValue {
        .object(JSONObject([
            ("name", .string(release.name)),
            ("recordedOn", .string(release.recordedOn)),
            ("protocolVersion", .number(JSONNumber(release.protocolVersion))),
            ("verdict", .string(release.verdict.rawValue)),
            ("tried", .number(JSONNumber(release.tried))),
            ("accepted", .number(JSONNumber(release.accepted))),
            ("refused", .number(JSONNumber(release.refused))),
            ("knownRefused", .number(JSONNumber(release.knownRefused))),
            ("nowAccepted", .number(JSONNumber(release.nowAccepted))),
            ("notChecked", .number(JSONNumber(release.notChecked))),
            ("unavailableFlows", .array(release.unavailableFlows.map { .string($0) })),
            ("refusals", .array(release.refusals.map { refusal in
                .object(JSONObject([
                    ("status", .number(JSONNumber(refusal.status))),
                    ("code", refusal.code.map { .string($0) } ?? .null),
                    ("field", refusal.field.map { .string($0) } ?? .null),
                    ("count", .number(JSONNumber(refusal.count))),
                    ("known", .bool(refusal.known)),
                    ("examplePayload", .string(refusal.examplePayload)),
                    ("exampleAnswer", .string(refusal.exampleAnswer)),
                    ("reproduce", refusal.reproduce.map { .string($0) } ?? .null),
                ]))
            })),
        ]))
    }
}
