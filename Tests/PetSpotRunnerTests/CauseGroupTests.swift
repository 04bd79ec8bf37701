import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
@testable import PetSpotReport
import Testing

@Suite("causes grouped by what they share")
struct CauseGroupTests {
    static func member(_ field: ReportField, _ value: String, kind: String = FlowAnswerChecks.Kind.valueDiffers) -> CauseGroup.Member {
        var inputs = ReportInputs()
        inputs[text: field] = value
        let flowCase = FlowCase(flow: .missing, inputs: inputs, context: ReportContext(timeZone: TimeZone(identifier: "UTC")!, now: Date()))
        let cause = FailureCause(contract: FlowAnswerChecks.sameAsReferenceContract, fields: [field.name], kind: kind)
        return CauseGroup.Member(cause: cause, record: FlowContracts.CauseRecord(order: 0, firstCase: flowCase, index: 0, cases: [1, 2]), shown: flowCase)
    }

    static func group(_ first: CauseGroup.Member) -> CauseGroup {
        CauseGroup(first, failure: ContractFailure(message: "m"))
    }

    @Test("the same offending character in other fields joins one group; the same field, another character or ASCII punctuation does not")
    func admission() {
        let bom = Self.group(Self.member(.petName, "\u{FEFF}a"))
        #expect(bom.admits(Self.member(.email, "a@a.aa\u{FEFF}", kind: FlowAnswerChecks.Kind.refused)), "any kind, another field")
        #expect(!bom.admits(Self.member(.petName, "\u{FEFF}")), "the same field is another defect of that field")
        #expect(!bom.admits(Self.member(.breed, "\u{200B}a")))
        #expect(!bom.admits(Self.member(.breed, "a")))
        let value = Self.group(Self.member(.phone, "000000000000", kind: FlowAnswerChecks.Kind.accepted))
        #expect(value.admits(Self.member(.caregiverPhone, "000000000000", kind: FlowAnswerChecks.Kind.accepted)))
        #expect(!value.admits(Self.member(.caregiverPhone, "000000000000", kind: FlowAnswerChecks.Kind.refused)), "a value must fail the same way")
        #expect(!value.admits(Self.member(.caregiverPhone, "00000000000", kind: FlowAnswerChecks.Kind.accepted)))
        #expect(CauseSignature(Self.member(.email, "a.b@c.dd").cause, in: Self.member(.email, "a.b@c.dd").shown)?.characters.isEmpty == true)
        var grouped = bom
        grouped.add(Self.member(.email, "a@a.aa\u{FEFF}", kind: FlowAnswerChecks.Kind.refused))
        let failure = grouped.groupedFailure
        #expect(failure.cause?.fields == ["email", "petName"])
        #expect(failure.cause?.kind.contains("with U+FEFF in each field") == true)
        #expect(failure.message.contains(#"shrunk to email "a@a.aa\u{FEFF}""#), "\(failure.message)")
        #expect(failure.cause?.cases == 2, "cases counted once across members")
    }

    /// Issue 28: a cause grouped over 8 fields was labelled with the first member's kind only.
    @Test("a group whose members fail in different ways names each way with its fields, so the label is true of each field")
    func labelTrueOfEachField() {
        let accepted = FlowAnswerChecks.Kind.accepted, refused = FlowAnswerChecks.Kind.refused
        var mixed = Self.group(Self.member(.petName, "\u{FEFF}a", kind: accepted))
        mixed.add(Self.member(.email, "a@a.aa\u{FEFF}", kind: refused))
        mixed.add(Self.member(.breed, "b\u{FEFF}", kind: accepted))
        mixed.add(Self.member(.phone, "\u{FEFF}0000000", kind: refused))
        let failure = mixed.groupedFailure
        #expect(failure.cause?.fields == ["breed", "email", "petName", "phone"])
        #expect(
            failure.cause?.kind == "accepts a value the rules refuse (breed, petName); refuses a value the rules accept (email, phone); "
                + "with U+FEFF in each field", "\(failure.cause?.kind ?? "nil")")
        #expect(failure.message.hasPrefix("breed, email, petName, phone: one cause in 4 fields"), "\(failure.message)")
        var same = Self.group(Self.member(.petName, "\u{FEFF}a", kind: accepted))
        same.add(Self.member(.breed, "b\u{FEFF}", kind: accepted))
        #expect(same.groupedFailure.cause?.kind == "accepts a value the rules refuse, with U+FEFF in each field")
    }

    /// The issue's acceptance run: a dozen defective fields, one default `check --sut` (the mock
    /// left out to keep the suite short), every field named. Eleven are the example adapter's
    /// `--break` defects, one field each; the twelfth is a trimming helper that keeps U+FEFF,
    /// shared by every text field (planted by the filter around the adapter). The distinct
    /// causes exceed --max-failures 10: the first ones are shrunk, the rest listed unshrunk, and
    /// the U+FEFF failures of several fields are one cause.
    @Test("one default check names every defective field of an app with a dozen defects", .timeLimit(.minutes(30)))
    func dozenDefects() async throws {
        let adapter = try #require(ExampleAdapter.path)
        let filter = try #require(AdapterFilter.path)
        let planted = [
            "chip-keeps-16": "chipNumber", "phone-max-12": "phone", "email-tld-1": "email", "latitude-exclusive": "latitude",
            "age-min-0": "age", "description-cap-501": "description", "reward-cap-119": "reward", "photo-cap-plus-one": "photo",
            "date-local-today": "lastSeenDate", "species-optional": "species", "leak-current-address": "currentAddress",
        ]
        let sut = "'\(filter)' --questions --keep-bom | '\(adapter)' --break \(planted.keys.sorted().joined(separator: ","))"
            + " | '\(filter)' --keep-bom --form plain"
        let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("dozen-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let result = await runTool(["check", "--sut", sut, "--seed", "1", "--no-mock", "--no-progress", "--report-json", reportPath])
        #expect(result.status == 1)
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: reportPath)))
        let causes = distinctCauses(report)
        for (defect, field) in planted {
            #expect(causes.contains { $0.fields.contains(field) }, "\(defect) not named by a cause: \(causes)")
        }
        let bom = causes.filter { $0.kind.contains("U+FEFF") }
        #expect(bom.count == 1 && (bom.first?.fields.count ?? 0) >= 3, "the shared trimming helper is one cause: \(bom)")
        let shrunk = (report["distinctFailures"]?.arrayValue ?? []).filter { $0["shrunk"] == true }
        #expect(shrunk.count == 10, "--max-failures counts causes after grouping")
        #expect(causes.count > 10, "every cause is listed, also those not shrunk")
        #expect(!result.out.contains("more distinct cause(s) of failure, not shrunk"))
    }

    @Test("past --max-failures every cause is still listed, unshrunk, in the console and the JSON report")
    func unshrunkCausesListed() async throws {
        let planted = ["chip-keeps-16": "chipNumber", "phone-max-12": "phone", "email-tld-1": "email", "age-min-0": "age"]
        let result = try await checkAdapter("--break " + planted.keys.sorted().joined(separator: ","), seed: 3, options: ["--max-failures", "2"])
        let causes = distinctCauses(result.report)
        #expect(Set(causes.flatMap(\.fields)) == Set(planted.values))
        let entries = result.report["distinctFailures"]?.arrayValue ?? []
        #expect(entries.filter { $0["shrunk"] == true }.count == 2)
        #expect(entries.filter { $0["shrunk"] == false }.count == 2)
        #expect(result.out.contains("4 distinct causes of failure (each shown once below, 2 shrunk):"))
        #expect(result.out.contains("cases, not shrunk)"))
        #expect(result.out.contains("not shrunk: --max-failures 2 causes were shown first (raise it to shrink this one)"))
    }
}

@Suite("date failures")
struct DateFailureTests {
    /// 00:30 on the 22nd in Kiritimati (UTC+14) is 10:30 on the 21st in UTC: report-flows.md's
    /// "today" is the 22nd, the rule allows the 21st at most (report-flows.md, the backend's UTC
    /// midnight); the dates are literals, not read from the rule.
    @Test("a date failure names the latest allowed date the rule computed, and both todays it came from")
    func latestAllowedDate() throws {
        let context = try ReportContext(json: ["timeZone": "Pacific/Kiritimati", "now": "2026-11-21T10:30:00Z"])
        let note = "the latest allowed date is 2026-11-21, the earlier of the user's today (2026-11-22 in Pacific/Kiritimati) and today in UTC (2026-11-21)"
        #expect(FlowAnswerChecks.latestAllowedDateNote(context) == note)
        var inputs = ReportInputs()
        inputs[text: .phone] = "0000000"
        let flowCase = FlowCase(flow: .found, inputs: inputs, context: context)
        let exchange = FlowExchange(
            question: "", id: 1, result: .success(.submitted(payload: ["lastSeenDate": "2026-11-22"])), answerLine: nil)
        let causes = FlowAnswerChecks.causes(
            exchange, flowCase: flowCase, validators: [], reference: .blocked(step: "petDetails", fields: ["lastSeenDate"]))
        let date = causes.filter { $0.cause.fields == ["lastSeenDate"] }
        #expect(!date.isEmpty && date.allSatisfy { $0.message.hasSuffix("(" + note + ")") }, "\(causes.map(\.message))")
        #expect(causes.filter { !$0.cause.fields.contains("lastSeenDate") }.allSatisfy { !$0.message.contains("latest allowed date") })
    }
}
