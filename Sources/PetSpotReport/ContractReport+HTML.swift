import Foundation
import PetSpotJSON

extension ContractReport {
    /// The `--report-html` document: one self-contained page (inline CSS and script, no fonts,
    /// images or requests: its Content-Security-Policy forbids any) with the run's verdict and
    /// replay command, a chart of every group's contracts, each group's table, and every failure
    /// with its request, the expected and actual answers as a highlighted line diff, the shrunk
    /// and original input, the seed and the replay command.
    ///
    /// Everything taken from the run is escaped: text through ``htmlEscaped(_:)``, and the
    /// chart's data as JSON with `<`, `>` and `&` written as `\u003c` escapes, read by the script
    /// with `JSON.parse` and drawn with `textContent` only. A backend's hostile body is shown, never
    /// run; and as a second wall, the page's policy runs no script but its own (a per-page nonce).
    public var htmlDocument: String {
        htmlDocument(nonce: Self.randomNonce())
    }

    /// The document with a given script nonce (tests pass a fixed one).
    func htmlDocument(nonce: String) -> String {
        let totals = summary
        let verdict = totals.failed == 0 ? "passed" : "failed"
        var page = HTMLPage()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-\(nonce)'\">\n")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        page.raw("<title>")
        page.text("\(Self.tool) \(command): \(verdict == "passed" ? "OK" : "FAILED") (\(totals.failed) of \(totals.contracts) contracts failed)")
        page.raw("</title>\n<style>\n\(Self.stylesheet)</style>\n</head>\n")
        page.raw("<body data-status=\"\(verdict)\" data-rendered=\"false\">\n")
        renderHeader(into: &page, verdict: verdict)
        let failures = failureEntries
        renderSummary(into: &page, failures: failures)
        renderReleases(into: &page)
        renderGroups(into: &page, failures: failures)
        renderCoverage(into: &page)
        renderFailures(into: &page, failures: failures)
        renderFindings(into: &page)
        renderNotes(into: &page)
        page.raw("<footer>Written by \(Self.tool) \(Self.toolVersion), report format \(Self.reportVersion).</footer>\n")
        page.raw("<script type=\"application/json\" id=\"report-data\">")
        page.raw(Self.scriptSafeJSON(chartData))
        page.raw("</script>\n<script nonce=\"\(nonce)\">\n\(Self.script)</script>\n</body>\n</html>\n")
        // No workflow command if a CI step prints the page: references outside the script data
        // (the style sheet and the script hold no `::` or `##[`), JSON escapes inside it.
        return WorkflowCommands.markupEscaped(page.html)
    }

    // MARK: Sections

    private func renderHeader(into page: inout HTMLPage, verdict: String) {
        page.raw("<header>\n<h1>")
        page.text("\(Self.tool) \(command)")
        page.raw(" <span class=\"badge \(verdict)\">\(verdict == "passed" ? "OK" : "FAILED")</span></h1>\n<dl class=\"meta\">\n")
        page.fact("target", target)
        if let seed { page.fact("seed", String(seed)) }
        page.fact("started", Self.iso8601(startedAt))
        page.fact("duration", "\(Self.seconds(durationSeconds)) s")
        if !arguments.isEmpty { page.fact("arguments", arguments.joined(separator: " ")) }
        page.raw("</dl>\n")
        if let replay = replayLine {
            page.raw("<div class=\"replay\"><span class=\"label\">replay</span><code>")
            page.text(replay)
            page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>\n")
        }
        page.raw("</header>\n")
    }

    private func renderSummary(into page: inout HTMLPage, failures: [FailureEntry]) {
        let totals = summary
        page.raw("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">\n")
        for (label, value, kind) in [
            ("contracts", totals.contracts, "total"), ("passed", totals.passed, "passed"),
            ("failed", totals.failed, totals.failed > 0 ? "failed" : "total"), ("skipped", totals.skipped, "skipped"),
            ("cases run", totals.casesRun, "total"), ("cases failed", totals.casesFailed, totals.casesFailed > 0 ? "failed" : "total"),
        ] {
            // Only a count of failures above zero is red.
            page.raw("<div class=\"card \(kind)\"><span class=\"value\">\(value)</span><span class=\"label\">\(label)</span></div>\n")
        }
        page.raw("</div>\n<figure>\n<figcaption>Contracts per group: passed, failed, skipped</figcaption>\n")
        page.raw("<div id=\"group-chart\" class=\"chart\" role=\"img\" aria-label=\"contracts per group\"></div>\n")
        page.raw("<noscript>The chart needs JavaScript; the tables below have the same numbers.</noscript>\n</figure>\n")
        if !failures.isEmpty {
            page.raw("<h3>Failures</h3>\n<ol class=\"failure-index\">\n")
            for entry in failures {
                page.raw("<li><a href=\"#failure-\(entry.number)\">")
                page.text("[\(entry.group)] \(entry.contract)")
                page.raw("</a>: ")
                page.text(entry.failure.message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? "")
                page.raw("</li>\n")
            }
            page.raw("</ol>\n")
        }
        page.raw("</section>\n")
    }

    private func renderGroups(into page: inout HTMLPage, failures: [FailureEntry]) {
        page.raw("<section id=\"groups\">\n<h2>Contract groups</h2>\n")
        page.raw("<label class=\"filter\"><input type=\"checkbox\" id=\"only-failed\"> only groups with failures</label>\n")
        let numbers = Dictionary(failures.map { ("\($0.group)\u{0}\($0.contract)", $0.number) }, uniquingKeysWith: { first, _ in first })
        for (index, group) in groups.enumerated() {
            let failed = group.contracts.filter { $0.status == .failed }.count
            let passed = group.contracts.filter { $0.status == .passed }.count
            let skipped = group.contracts.count - failed - passed
            // A group with a failure starts open; the others start folded to their summary line.
            page.raw("<details class=\"group\" id=\"group-\(index + 1)\" data-status=\"\(failed > 0 ? "failed" : "passed")\"\(failed > 0 ? " open" : "")>\n")
            page.raw("<summary><span class=\"badge \(failed > 0 ? "failed" : passed > 0 ? "passed" : "skipped")\">\(failed > 0 ? "FAIL" : passed > 0 ? "PASS" : "SKIP")</span> <strong>")
            page.text(group.name)
            page.raw("</strong> <span class=\"counts\">\(passed) passed, \(failed) failed, \(skipped) skipped, \(Self.seconds(group.durationSeconds)) s</span></summary>\n")
            if let summary = group.summary {
                page.raw("<p class=\"group-summary\">")
                page.text(summary)
                page.raw("</p>\n")
            }
            page.raw("<table>\n<thead><tr><th>status</th><th>contract</th><th class=\"number\">cases</th><th class=\"number\">failed</th><th class=\"number\">seconds</th></tr></thead>\n<tbody>\n")
            for contract in group.contracts {
                let status = contract.status.rawValue
                let mark = contract.status == .passed ? "PASS" : contract.status == .failed ? "FAIL" : "SKIP"
                page.raw("<tr class=\"\(status)\"><td><span class=\"badge \(status)\">\(mark)</span></td><td>")
                if let number = numbers["\(group.name)\u{0}\(contract.name)"] {
                    page.raw("<a href=\"#failure-\(number)\">")
                    page.text(contract.name)
                    page.raw("</a>")
                } else {
                    page.text(contract.name)
                }
                if let reason = contract.skipReason {
                    page.raw(" <span class=\"why\">(skipped: ")
                    page.text(reason)
                    page.raw(")</span>")
                }
                if contract.casesFailed > contract.failures.count {
                    page.raw(" <span class=\"why\">(\(contract.casesFailed - contract.failures.count) more failing cases not shown)</span>")
                }
                page.raw("</td><td class=\"number\">\(contract.casesRun)</td><td class=\"number\">\(contract.casesFailed)</td>")
                page.raw("<td class=\"number\">\(Self.seconds(contract.durationSeconds))</td></tr>\n")
            }
            page.raw("</tbody>\n</table>\n</details>\n")
        }
        page.raw("</section>\n")
    }

    /// The boundary catalogue's coverage: one row per entry with its hits as a bar (scaled to
    /// the most hits), entries not met first; drawn without script.
    private func renderCoverage(into page: inout HTMLPage) {
        guard let coverage else { return }
        let met = coverage.rows.filter(\.met).count
        let most = max(1, coverage.rows.map(\.hits).max() ?? 1)
        page.raw("<section id=\"coverage\">\n<h2>Boundary coverage</h2>\n<p class=\"coverage-verdict\" data-met=\"\(coverage.isMet)\">")
        page.text("\(met) of \(coverage.rows.count) catalogue entries reached their rule often enough: \(coverage.verdict).")
        page.raw("</p>\n<details class=\"group\" data-status=\"\(coverage.isMet ? "passed" : "failed")\"\(coverage.isMet ? "" : " open")>\n")
        page.raw("<summary><strong>Catalogue entries</strong> <span class=\"counts\">")
        page.text("\(coverage.cases) cases; each entry must reach its rule in \(Self.percent(coverage.rows.first?.requiredPercent ?? 0))% of them")
        page.raw("</span></summary>\n<table class=\"coverage\">\n<thead><tr><th>status</th><th>field</th><th>rule</th><th>class</th><th>value</th>")
        page.raw("<th class=\"number\">hits</th><th><span class=\"why\">hits, to scale</span></th></tr></thead>\n<tbody>\n")
        for row in coverage.rows.filter({ !$0.met }) + coverage.rows.filter(\.met) {
            let status = row.met ? "passed" : "failed"
            page.raw("<tr class=\"\(status)\"><td><span class=\"badge \(status)\">\(row.met ? "MET" : "NOT MET")</span></td><td>")
            page.text(row.field)
            page.raw("</td><td>")
            page.text(row.rule)
            page.raw("</td><td>")
            page.text(row.boundaryClass)
            page.raw("</td><td>")
            page.text(row.detail)
            page.raw("</td><td class=\"number\">\(row.hits)</td>")
            let width = (Double(row.hits) * 100 / Double(most) * 10).rounded() / 10
            page.raw("<td class=\"hits\"><span class=\"hit-bar \(status)\" style=\"width: \(Self.plainNumber(width))%\"></span></td></tr>\n")
        }
        page.raw("</tbody>\n</table>\n</details>\n</section>\n")
    }

    private func renderFailures(into page: inout HTMLPage, failures entries: [FailureEntry]) {
        guard !entries.isEmpty else { return }
        page.raw("<section id=\"failures\">\n<h2>Failures</h2>\n")
        for entry in entries {
            let failure = entry.failure
            page.raw("<article class=\"failure\" id=\"failure-\(entry.number)\">\n<h3><span class=\"number\">\(entry.number)</span> ")
            page.raw("<span class=\"group\">")
            page.text("[\(entry.group)]")
            page.raw("</span> ")
            page.text(entry.contract)
            page.raw("</h3>\n<p class=\"message\">")
            page.text(failure.message)
            page.raw("</p>\n<dl class=\"meta\">\n")
            if let cause = failure.cause {
                page.fact("cause", cause.summary + " (\(cause.cases) failing case\(cause.cases == 1 ? "" : "s")\(cause.shrunk ? "; the case shown is shrunk" : ""))")
            }
            if let caseId = failure.caseId { page.fact("case", caseId) }
            if let seed = failure.seed { page.fact("seed", String(seed)) }
            page.raw("</dl>\n")
            if let request = failure.request {
                page.raw("<h4>Request</h4>\n<pre class=\"request\">")
                page.text("\(request.method) \(request.path)")
                for header in request.headers { page.text("\n\(header.name): \(header.value)") }
                if !request.body.isEmpty {
                    page.text("\n\n" + LineDiff.lines(of: request.body, sortingKeys: false).joined(separator: "\n"))
                }
                page.raw("</pre>\n")
            }
            renderAnswers(failure, into: &page)
            renderSteps(failure.steps, into: &page)
            if let shrunk = failure.shrunkInput {
                page.raw("<h4>Shrunk input</h4>\n<pre class=\"input shrunk\">")
                page.text(shrunk.serialized(options: [.prettyPrinted]))
                page.raw("</pre>\n")
            }
            if let original = failure.originalInput {
                if failure.shrunkInput == nil {
                    page.raw("<h4>Input</h4>\n<pre class=\"input\">")
                } else {
                    page.raw("<details><summary>Original input (before shrinking)</summary>\n<pre class=\"input original\">")
                }
                page.text(original.serialized(options: [.prettyPrinted]))
                page.raw(failure.shrunkInput == nil ? "</pre>\n" : "</pre>\n</details>\n")
            }
            if let replay = failure.replay {
                page.raw("<h4>Replay</h4>\n<div class=\"replay\"><code>")
                page.text(replay)
                page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>\n")
            }
            if let reproduce = failure.reproduce {
                page.raw("<h4>The request alone</h4>\n<div class=\"replay\"><code>")
                page.text(reproduce)
                page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>\n")
            }
            page.raw("</article>\n")
        }
        page.raw("</section>\n")
    }

    /// A scenario's steps as a numbered list: what each did, what came of it, its request alone.
    private func renderSteps(_ steps: [FailureStep], into page: inout HTMLPage) {
        guard !steps.isEmpty else { return }
        page.raw("<h4>Steps</h4>\n<ol class=\"steps\">\n")
        for step in steps {
            page.raw("<li>")
            if let lane = step.lane {
                page.raw("<span class=\"lane\">")
                page.text("[\(lane)]")
                page.raw("</span> ")
            }
            page.text(step.action)
            page.raw(" &rarr; <span class=\"outcome\">")
            page.text(step.outcome)
            page.raw("</span>")
            if let reproduce = step.reproduce {
                page.raw("<div class=\"replay\"><code>")
                page.text(reproduce)
                page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>")
            }
            page.raw("</li>\n")
        }
        page.raw("</ol>\n")
    }

    /// `can-i-deploy`'s matrix at a glance: one row per release, its verdict coloured, its counts,
    /// and each refusal with its answer, an example payload and the command that sends it again.
    private func renderReleases(into page: inout HTMLPage) {
        guard !releases.isEmpty else { return }
        page.raw("<section id=\"releases\">\n<h2>Releases in the field</h2>\n<table class=\"releases\">\n<thead><tr>")
        for heading in ["release", "recorded", "protocol", "tried", "accepted", "refused", "known", "verdict"] {
            page.raw("<th>")
            page.text(heading)
            page.raw("</th>")
        }
        page.raw("</tr></thead>\n<tbody>\n")
        for release in releases {
            let status = release.verdict == .compatible ? "passed" : release.verdict == .breaks ? "failed" : "skipped"
            page.raw("<tr data-status=\"\(status)\">")
            for cell in [
                release.name, release.recordedOn, "v\(release.protocolVersion)", String(release.tried), String(release.accepted),
                String(release.refused), String(release.knownRefused),
            ] {
                page.raw("<td>")
                page.text(cell)
                page.raw("</td>")
            }
            page.raw("<td class=\"verdict\">")
            page.text(release.verdict.rawValue)
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody>\n</table>\n")
        for release in releases where !release.refusals.isEmpty {
            for refusal in release.refusals {
                page.raw("<details class=\"refusal\" data-status=\"\(refusal.known ? "skipped" : "failed")\"><summary>")
                page.text("\(release.name): \(refusal.count) refused \(refusal.answer)\(refusal.known ? " (known: refused when recorded too)" : "")")
                page.raw("</summary>\n<pre class=\"payload\">")
                page.text(refusal.examplePayload)
                page.raw("</pre>\n<pre class=\"answer\">")
                page.text(refusal.exampleAnswer)
                page.raw("</pre>\n")
                if let reproduce = refusal.reproduce {
                    page.raw("<div class=\"replay\"><code>")
                    page.text(reproduce)
                    page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>\n")
                }
                page.raw("</details>\n")
            }
        }
        page.raw("</section>\n")
    }

    /// The findings against the specification: not failures, each with its scenario.
    private func renderFindings(into page: inout HTMLPage) {
        guard !findings.isEmpty else { return }
        page.raw("<section id=\"findings\">\n<h2>Findings against the specification</h2>\n")
        page.raw("<p>The reference model, following the rule each finding names, breaks these too: they are what that rule does to users, not failures of the app.</p>\n")
        for finding in findings {
            page.raw("<article class=\"finding\">\n<h3><span class=\"group\">")
            page.text("[\(finding.group)]")
            page.raw("</span> ")
            page.text(finding.property)
            page.raw("</h3>\n<p class=\"message\">")
            page.text(finding.message)
            page.raw("</p>\n<p class=\"consequence\"><strong>What it does to the user:</strong> ")
            page.text(finding.consequence)
            page.raw("</p>\n")
            renderSteps(finding.steps, into: &page)
            if let replay = finding.replay {
                page.raw("<div class=\"replay\"><code>")
                page.text(replay)
                page.raw("</code><button type=\"button\" class=\"copy\">Copy</button></div>\n")
            }
            page.raw("</article>\n")
        }
        page.raw("</section>\n")
    }

    private func renderAnswers(_ failure: ContractFailure, into page: inout HTMLPage) {
        switch (failure.expected, failure.actual) {
        case (let expected?, let actual?):
            page.raw("<h4>Expected vs actual</h4>\n<div class=\"diff\">\n")
            page.raw("<div class=\"legend\"><span class=\"removed\">&minus; expected</span> <span class=\"added\">+ actual</span></div>\n<pre>")
            for line in LineDiff.diff(expected: expected, actual: actual) {
                let (kind, sign) = switch line.kind {
                case .same: ("same", " ")
                case .removed: ("removed", "-")
                case .added: ("added", "+")
                }
                page.raw("<span class=\"line \(kind)\">\(sign) ")
                if let changed = line.changed, !changed.isEmpty {
                    let characters = Array(line.text)
                    page.text(String(characters[..<changed.lowerBound]))
                    page.raw("<mark>")
                    page.text(String(characters[changed]))
                    page.raw("</mark>")
                    page.text(String(characters[changed.upperBound...]))
                } else {
                    page.text(line.text)
                }
                page.raw("</span>")
            }
            page.raw("</pre>\n</div>\n")
        case (let expected?, nil):
            page.raw("<h4>Expected</h4>\n<pre class=\"expected\">")
            page.text(LineDiff.lines(of: expected).joined(separator: "\n"))
            page.raw("</pre>\n")
        case (nil, let actual?):
            page.raw("<h4>Actual</h4>\n<pre class=\"actual\">")
            page.text(LineDiff.lines(of: actual).joined(separator: "\n"))
            page.raw("</pre>\n")
        case (nil, nil):
            break
        }
    }

    private func renderNotes(into page: inout HTMLPage) {
        guard !notes.isEmpty || !leftovers.isEmpty else { return }
        page.raw("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n")
        for note in notes {
            page.raw("<li>")
            page.text(note)
            page.raw("</li>\n")
        }
        for leftover in leftovers {
            page.raw("<li class=\"leftover\">left on target: announcement ")
            page.text(leftover.id + (leftover.microchipNumber.map { " (microchip \($0))" } ?? "") + ": " + leftover.reason)
            page.raw("</li>\n")
        }
        page.raw("</ul>\n</section>\n")
    }

    // MARK: Data

    /// One failure of the report, numbered as the console numbers it.
    private typealias FailureEntry = (number: Int, group: String, contract: String, failure: ContractFailure)

    /// Every failure kept, numbered as the console numbers them (computed once per page).
    private var failureEntries: [FailureEntry] {
        var entries: [FailureEntry] = []
        for group in groups {
            for contract in group.contracts {
                for failure in contract.failures { entries.append((entries.count + 1, group.name, contract.name, failure)) }
            }
        }
        return entries
    }

    /// What the script draws: `{"groups": [{"name", "passed", "failed", "skipped", "cases", "casesFailed"}]}`.
    var chartData: JSONValue {
        .object(JSONObject([
            ("groups", .array(groups.map { group in
                let failed = group.contracts.filter { $0.status == .failed }.count
                let passed = group.contracts.filter { $0.status == .passed }.count
                return .object(JSONObject([
                    ("name", .string(group.name)),
                    ("passed", .number(JSONNumber(passed))),
                    ("failed", .number(JSONNumber(failed))),
                    ("skipped", .number(JSONNumber(group.contracts.count - passed - failed))),
                    ("cases", .number(JSONNumber(group.contracts.reduce(0) { $0 + $1.casesRun }))),
                    ("casesFailed", .number(JSONNumber(group.contracts.reduce(0) { $0 + $1.casesFailed }))),
                ]))
            })),
        ]))
    }

    /// `value` as JSON text that cannot end the `<script>` element it sits in: `<`, `>`, `&`
    /// and the two JavaScript line terminators become `\u` escapes (they occur only inside
    /// strings, where the escape means the same character).
    static func scriptSafeJSON(_ value: JSONValue) -> String {
        var result = ""
        for scalar in WorkflowCommands.jsonEscaped(value.serialized()).unicodeScalars {
            switch scalar {
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text for HTML content and attribute values: `&`, `<`, `>`, `"` and `'` as references;
    /// control, bidirectional and invisible characters shown as a visible `U+XXXX` marker
    /// (they are what hostile inputs are made of, and a bidirectional override would reorder
    /// the text around it).
    static func htmlEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if isInvisible(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "<span class=\"ctl\">U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)</span>"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: true
        case 0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// 128 random bits in hexadecimal: the page's script nonce.
    static func randomNonce() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt64.random(in: .min ... .max), radix: 16)
    }
}

/// An HTML document being written: raw markup, and text that is always escaped.
struct HTMLPage {
    private(set) var html = ""

    /// Appends markup written by the renderer itself (never data from the run).
    mutating func raw(_ markup: String) { html += markup }

    /// Appends `text` escaped.
    mutating func text(_ text: String) { html += ContractReport.htmlEscaped(text) }

    /// Appends a `<dt>`/`<dd>` pair.
    mutating func fact(_ term: String, _ value: String) {
        raw("<dt>")
        text(term)
        raw("</dt><dd>")
        text(value)
        raw("</dd>\n")
    }
}

extension ContractReport {
    static let stylesheet = """
        :root { --passed: #1a7f37; --failed: #cf222e; --skipped: #8c959f; --ink: #1f2328; --muted: #59636e;
          --line: #d1d9e0; --paper: #ffffff; --wash: #f6f8fa; }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1180px; padding: 24px; color: var(--ink); background: var(--paper);
          font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        h1 { font-size: 24px; margin: 0 0 8px; } h2 { font-size: 19px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        h3 { font-size: 16px; margin: 18px 0 8px; } h4 { font-size: 13px; margin: 14px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        code, pre, .replay code { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
        pre { background: var(--wash); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow-x: auto;
          white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
        .badge { display: inline-block; border-radius: 999px; padding: 1px 10px; font-size: 12px; font-weight: 600; color: #fff; vertical-align: middle; }
        .badge.passed { background: var(--passed); } .badge.failed { background: var(--failed); } .badge.skipped { background: var(--skipped); }
        dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
        dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
        .replay { display: flex; gap: 8px; align-items: center; background: var(--wash); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
        .replay code { flex: 1; overflow-wrap: anywhere; } .replay .label { color: var(--muted); }
        button.copy { border: 1px solid var(--line); background: var(--paper); border-radius: 6px; padding: 2px 10px; cursor: pointer; }
        .cards { display: flex; flex-wrap: wrap; gap: 10px; }
        .card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 110px; border-top: 4px solid var(--muted); }
        .card.passed { border-top-color: var(--passed); } .card.failed { border-top-color: var(--failed); } .card.skipped { border-top-color: var(--skipped); }
        .card .value { display: block; font-size: 22px; font-weight: 600; } .card .label { color: var(--muted); }
        figure { margin: 16px 0; } figcaption { color: var(--muted); margin-bottom: 6px; }
        .chart svg { width: 100%; height: auto; } .chart text { font: 12px system-ui, sans-serif; fill: var(--ink); }
        .chart .bar.passed { fill: var(--passed); } .chart .bar.failed { fill: var(--failed); } .chart .bar.skipped { fill: var(--skipped); }
        .chart .track { fill: var(--wash); }
        table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-weight: 600; } .number { text-align: right; font-variant-numeric: tabular-nums; }
        tr.failed td { background: #ffebe9; } .why { color: var(--muted); }
        details.group { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 0 12px; }
        details.group > summary { cursor: pointer; padding: 8px 0; color: var(--ink); margin: 0; font-size: 15px; }
        details.group[open] > summary { border-bottom: 1px solid var(--line); margin-bottom: 6px; }
        details.group table { margin-bottom: 10px; }
        .group .counts { color: var(--muted); font-weight: normal; font-size: 13px; }
        body.only-failed .group[data-status="passed"] { display: none; }
        .filter { color: var(--muted); }
        article.failure { border: 1px solid var(--line); border-left: 4px solid var(--failed); border-radius: 6px; padding: 4px 16px 14px; margin: 16px 0; }
        article.failure .number { display: inline-block; min-width: 26px; text-align: center; border-radius: 999px; background: var(--failed); color: #fff; font-size: 12px; padding: 1px 6px; }
        article.failure .group { color: var(--muted); } .message { font-weight: 600; white-space: pre-wrap; overflow-wrap: anywhere; }
        .diff pre { padding: 6px 0; } .diff .line { display: block; padding: 0 12px; }
        .diff .removed { background: #ffebe9; } .diff .added { background: #dafbe1; }
        .diff .line.removed mark { background: #ffb8b0; color: inherit; } .diff .line.added mark { background: #8fe0a2; color: inherit; }
        .legend { margin-bottom: 4px; } .legend span { padding: 1px 8px; border-radius: 4px; font-size: 12px; }
        .ctl { font-size: 10px; border: 1px solid var(--skipped); border-radius: 3px; padding: 0 2px; color: var(--muted); background: var(--paper); }
        details summary { cursor: pointer; color: var(--muted); margin: 10px 0 4px; }
        table.releases td.verdict { font-weight: 600; } table.releases tr[data-status="failed"] td.verdict { color: var(--failed); }
        table.releases tr[data-status="passed"] td.verdict { color: var(--passed); } table.releases tr[data-status="skipped"] td.verdict { color: var(--skipped); }
        details.refusal { border-left: 4px solid var(--failed); padding: 2px 10px; margin: 6px 0; } details.refusal[data-status="skipped"] { border-left-color: var(--skipped); }
        table.coverage td.hits { width: 22%; } .hit-bar { display: block; height: 10px; border-radius: 3px; min-width: 2px; }
        .hit-bar.passed { background: var(--passed); } .hit-bar.failed { background: var(--failed); }
        footer { margin-top: 32px; color: var(--muted); font-size: 12px; }

        """

    static let script = """
        "use strict";
        (function () {
          var data = JSON.parse(document.getElementById("report-data").textContent);
          var svgNS = "http://www.w3.org/2000/svg";
          function el(name, attributes, text) {
            var node = document.createElementNS(svgNS, name);
            Object.keys(attributes).forEach(function (key) { node.setAttribute(key, String(attributes[key])); });
            if (text !== undefined) { node.textContent = text; }
            return node;
          }
          function groupChart(target, groups) {
            // The label column fits the longest group name (about 7 px a character at 12 px), so
            // names are shown whole; only a name past 80 characters is cut (its title has it all).
            var longest = Math.max.apply(null, [10].concat(groups.map(function (g) { return Math.min(g.name.length, 80); })));
            var labelWidth = Math.ceil(longest * 7) + 16, barWidth = 560, rowHeight = 26, width = labelWidth + barWidth + 240;
            var most = Math.max.apply(null, [1].concat(groups.map(function (g) { return g.passed + g.failed + g.skipped; })));
            var svg = el("svg", { id: "group-chart-svg", viewBox: "0 0 " + width + " " + Math.max(rowHeight, groups.length * rowHeight),
              xmlns: svgNS });
            groups.forEach(function (group, row) {
              var y = row * rowHeight, x = labelWidth;
              var name = group.name.length > 80 ? group.name.slice(0, 79) + "\\u2026" : group.name;
              var label = el("text", { x: labelWidth - 8, y: y + 17, "text-anchor": "end" }, name);
              label.appendChild(el("title", {}, group.name));
              svg.appendChild(label);
              svg.appendChild(el("rect", { class: "track", x: labelWidth, y: y + 4, width: barWidth, height: rowHeight - 8, rx: 3 }));
              ["passed", "failed", "skipped"].forEach(function (status) {
                if (group[status] === 0) { return; }
                var w = barWidth * group[status] / most;
                var bar = el("rect", { class: "bar " + status, x: x, y: y + 4, width: w, height: rowHeight - 8,
                  "data-group": group.name, "data-count": group[status] });
                bar.appendChild(el("title", {}, group.name + ": " + group[status] + " " + status));
                svg.appendChild(bar);
                x += w;
              });
              var counts = group.passed + " passed" + (group.failed ? ", " + group.failed + " failed" : "")
                + (group.skipped ? ", " + group.skipped + " skipped" : "");
              svg.appendChild(el("text", { x: x + 8, y: y + 17 }, counts));
            });
            target.appendChild(svg);
          }
          groupChart(document.getElementById("group-chart"), data.groups);
          var filter = document.getElementById("only-failed");
          filter.addEventListener("change", function () { document.body.classList.toggle("only-failed", filter.checked); });
          Array.prototype.forEach.call(document.querySelectorAll("button.copy"), function (button) {
            button.addEventListener("click", function () {
              var text = button.parentNode.querySelector("code").textContent;
              var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
              if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done, function () {}); }
            });
          });
          document.body.setAttribute("data-rendered", "true");
        })();

        """
}
