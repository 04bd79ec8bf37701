import Foundation
import PetSpotJSON

extension ContractReport {
    /// The report as every rendering may show it: each string passed through `redactor` (every
    /// secret the run learnt, see ``Redactor``) and then ``DisplayText`` (control characters and
    /// escape codes escaped, each text cut at ``DisplayText/maxBytes`` with its full length
    /// stated).
    ///
    /// ``ContractRecorder/report(command:arguments:target:seed:startedAt:)`` applies it to every
    /// report it makes, so the console, JSON and JUnit renderings, and any later one, read a
    /// report that is already safe. Flow inputs (``ContractFailure/shrunkInput``,
    /// ``ContractFailure/originalInput``) are data for replaying a case: their secrets are masked
    /// but their characters are kept (JSON serialization escapes them).
    ///
    /// When a field is added to ``ContractFailure`` (or another part of the report), add it
    /// here: the test "the final pass covers every field of the report" fails until it is.
    package func sanitized(by redactor: Redactor) -> ContractReport {
        // Long texts are cut anyway: only their start (with a margin) is scrubbed.
        let window = redactor.prefixWindow(maxBytes: DisplayText.maxBytes)
        func text(_ value: String) -> String {
            let length = value.utf8.count
            return DisplayText.sanitized(redactor.scrubbedPrefix(value, maxBytes: DisplayText.maxBytes), fullLength: length > window ? length : nil)
        }
        func optional(_ value: String?) -> String? { value.map(text) }
        func request(_ request: ReportedRequest) -> ReportedRequest {
            ReportedRequest(
                method: text(request.method), path: text(request.path),
                headers: request.headers.map { header in
                    ReportedHeader(name: text(header.name), value: DisplayText.sanitized(redactor.header(name: header.name, value: header.value)))
                },
                body: text(request.body))
        }
        func step(_ step: FailureStep) -> FailureStep {
            FailureStep(
                lane: optional(step.lane), action: text(step.action), outcome: text(step.outcome), request: step.request.map(request),
                // Never cut: a shortened command would send another request.
                reproduce: step.reproduce.map { DisplayText.sanitized(redactor.scrub($0), maxBytes: .max) })
        }
        var report = self
        report.command = text(command)
        report.arguments = redactor.arguments(arguments).map { DisplayText.sanitized($0) }
        report.target = text(target)
        report.replay = optional(replay)
        report.groups = groups.map { group in
            var group = group
            group.name = text(group.name)
            group.summary = optional(group.summary)
            group.contracts = group.contracts.map { contract in
                var contract = contract
                contract.name = text(contract.name)
                contract.skipReason = optional(contract.skipReason)
                contract.failures = contract.failures.map { failure in
                    var failure = failure
                    failure.message = text(failure.message)
                    failure.caseId = optional(failure.caseId)
                    failure.request = failure.request.map(request)
                    failure.expected = optional(failure.expected)
                    failure.actual = optional(failure.actual)
                    failure.shrunkInput = failure.shrunkInput.map(redactor.json)
                    failure.originalInput = failure.originalInput.map(redactor.json)
                    failure.replay = optional(failure.replay)
                    // Never cut: a shortened command would send another request.
                    failure.reproduce = failure.reproduce.map { DisplayText.sanitized(redactor.scrub($0), maxBytes: .max) }
                    failure.steps = failure.steps.map(step)
                    failure.cause = failure.cause.map { cause in
                        var cause = cause
                        cause.fields = cause.fields.map(text)
                        cause.kind = text(cause.kind)
                        return cause
                    }
                    return failure
                }
                return contract
            }
            return group
        }
        report.releases = releases.map { release in
            var release = release
            release.name = text(release.name)
            release.recordedOn = text(release.recordedOn)
            release.unavailableFlows = release.unavailableFlows.map(text)
            release.refusals = release.refusals.map { refusal in
                var refusal = refusal
                refusal.code = optional(refusal.code)
                refusal.field = optional(refusal.field)
                refusal.examplePayload = text(refusal.examplePayload)
                refusal.exampleAnswer = text(refusal.exampleAnswer)
                // Never cut: a shortened command would send another request.
                refusal.reproduce = refusal.reproduce.map { DisplayText.sanitized(redactor.scrub($0), maxBytes: .max) }
                return refusal
            }
            return release
        }
        report.leftovers = leftovers.map { leftover in
            Leftover(id: text(leftover.id), microchipNumber: optional(leftover.microchipNumber), reason: text(leftover.reason))
        }
        report.notes = notes.map(text)
        report.findings = findings.map { finding in
            SpecFinding(
                group: text(finding.group), property: text(finding.property), message: text(finding.message),
                consequence: text(finding.consequence), steps: finding.steps.map(step), replay: optional(finding.replay))
        }
        report.coverage = coverage.map { coverage in
            var coverage = coverage
            coverage.verdict = text(coverage.verdict)
            coverage.rows = coverage.rows.map { row in
                var row = row
                row.field = text(row.field)
                row.rule = text(row.rule)
                row.boundaryClass = text(row.boundaryClass)
                row.detail = text(row.detail)
                return row
            }
            return coverage
        }
        return report
    }
}
