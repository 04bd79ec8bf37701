import Foundation

/// What `can-i-deploy` found for one release in the field: how many of its requests a candidate
/// backend accepted, which it refused (grouped by answer), and the verdict.
///
/// A refusal is known when the captured contract refused the same request when the release was
/// recorded (the build's own defect: it fails on users' phones today, whatever is deployed); only
/// new refusals, of requests the contract accepted then, break the release.
public struct ReleaseOutcome: Sendable, Hashable {
    /// Whether the candidate can be deployed as far as this release is concerned.
    public enum Verdict: String, Sendable, Hashable {
        /// Every request the contract accepted at recording is accepted.
        case compatible
        /// The candidate refuses a request the contract accepted at recording.
        case breaks
        /// Not every request could be replayed (the budget, the deadline, no answer): no verdict.
        case notChecked = "not checked"
        /// The release's support ended: listed, not checked.
        case supportEnded = "support ended"
    }

    /// The requests a candidate refused with one answer.
    public struct Refusal: Sendable, Hashable {
        /// The HTTP status (400, 409, 500).
        public var status: Int
        /// The error envelope's code, if any.
        public var code: String?
        /// The field the refusal blames, if any.
        public var field: String?
        /// How many requests were refused so.
        public var count: Int
        /// Whether the contract refused them when the release was recorded (the build's own defect).
        public var known: Bool
        /// One refused request's body, as sent.
        public var examplePayload: String
        /// What the candidate answered to it.
        public var exampleAnswer: String
        /// A command that sends it again, when the candidate was reached over HTTP.
        public var reproduce: String?

        /// A refusal group.
        public init(
            status: Int, code: String?, field: String?, count: Int, known: Bool, examplePayload: String, exampleAnswer: String,
            reproduce: String?
        ) {
            self.status = status
            self.code = code
            self.field = field
            self.count = count
            self.known = known
            self.examplePayload = examplePayload
            self.exampleAnswer = exampleAnswer
            self.reproduce = reproduce
        }

        /// `400 INVALID_FIELD field=breed`.
        public var answer: String { [String(status), code, field.map { "field=\($0)" }].compactMap { $0 }.joined(separator: " ") }
    }

    /// The release's name.
    public var name: String
    /// The day it was recorded.
    public var recordedOn: String
    /// The adapter protocol version it was recorded with.
    public var protocolVersion: Int
    /// The verdict.
    public var verdict: Verdict
    /// Requests replayed.
    public var tried: Int
    /// Requests the candidate accepted.
    public var accepted: Int
    /// Requests the candidate refused, by answer: new refusals first, then known ones.
    public var refusals: [Refusal]
    /// Requests the contract refused at recording that the candidate accepts.
    public var nowAccepted: Int
    /// Requests of the release not replayed, or not answered.
    public var notChecked: Int
    /// The flows the build does not have.
    public var unavailableFlows: [String]

    /// An outcome.
    public init(
        name: String, recordedOn: String, protocolVersion: Int, verdict: Verdict, tried: Int = 0, accepted: Int = 0, refusals: [Refusal] = [],
        nowAccepted: Int = 0, notChecked: Int = 0, unavailableFlows: [String] = []
    ) {
        self.name = name
        self.recordedOn = recordedOn
        self.protocolVersion = protocolVersion
        self.verdict = verdict
        self.tried = tried
        self.accepted = accepted
        self.refusals = refusals
        self.nowAccepted = nowAccepted
        self.notChecked = notChecked
        self.unavailableFlows = unavailableFlows
    }

    /// Requests newly refused (they break the release).
    public var refused: Int { refusals.filter { !$0.known }.reduce(0) { $0 + $1.count } }
    /// Requests refused as the contract refused them at recording.
    public var knownRefused: Int { refusals.filter(\.known).reduce(0) { $0 + $1.count } }
}

extension ContractReport {
    /// The matrix of releases, one line each, under a heading: what `can-i-deploy` prints above
    /// the failures.
    package var releaseLines: [String] {
        guard !releases.isEmpty else { return [] }
        let rows = releases.map { release -> [String] in
            var verdict = release.verdict.rawValue
            if release.verdict == .breaks, let first = release.refusals.first(where: { !$0.known }) {
                verdict += " (\(first.answer)\(release.refusals.filter { !$0.known }.count > 1 ? ", ..." : ""))"
            }
            return [
                release.name, release.recordedOn, "v\(release.protocolVersion)", String(release.tried), String(release.accepted),
                String(release.refused), String(release.knownRefused), verdict,
            ]
        }
        let header = ["release", "recorded", "protocol", "tried", "accepted", "refused", "known", "verdict"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let numeric: Set<Int> = [3, 4, 5, 6]
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                if column == cells.count - 1 { return cell }
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
        var lines = ["releases (can-i-deploy): \(releases.filter { $0.verdict != .supportEnded }.count) checked, "
            + "\(releases.filter { $0.verdict == .breaks }.count) break"]
        lines.append("  " + line(header))
        lines += rows.map { "  " + line($0) }
        for release in releases {
            for refusal in release.refusals {
                lines.append("  \(release.name): \(refusal.count) refused \(refusal.answer)\(refusal.known ? " (known: refused when recorded too)" : "")")
            }
            if !release.unavailableFlows.isEmpty { lines.append("  \(release.name): has no \(release.unavailableFlows.joined(separator: " or ")) flow") }
        }
        return lines
    }
}
