import Foundation
import PetSpotBackendGroups
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPlantedDefects
import PetSpotRunner
import PetSpotSequences
import Testing

/// The contracts each planted defect must fail (`group: contract`): together they cover every
/// contract of the backend groups `run` added, so each is shown to fail against a backend that
/// breaks it.
let contractsEachDefectFails: [MockDefect: [String]] = {
    func list(_ contract: String) -> String { "\(ListContracts().name): \(contract)" }
    func depth(_ contract: String) -> String { "\(ListDepthContracts().name): \(contract)" }
    func parameter(_ prefix: String) -> String {
        list(ListContracts.parameterCases.first { $0.contract.hasPrefix(prefix) }?.contract ?? "missing \(prefix)")
    }
    func details(_ contract: String) -> String { "\(DetailsContracts().name): \(contract)" }
    func photo(_ contract: String) -> String { "\(PhotoContracts().name): \(contract)" }
    func admin(_ contract: String) -> String { "\(AdminDeleteContracts().name): \(contract)" }
    func echo(_ contract: String) -> String { "\(EchoContracts().name): \(contract)" }
    func accepted(_ contract: String) -> String { "\(AcceptanceContracts().name): \(contract)" }
    func routing(_ contract: String) -> String { "\(RoutingContracts().name): \(contract)" }
    func message(_ contract: String) -> String { "\(MessagesContracts().name): \(contract)" }
    func sequences(_ contract: SequenceContract) -> String { "\(SequenceContracts().name): \(contract.rawValue)" }
    let everyMessage = (MessagesContracts.createCases + MessagesContracts.photoCases).map { message($0.contract) }
        + [message(MessagesContracts.duplicate)]
    return [
        .listShowsPhotoless: [list(ListContracts.onlyWithPhoto)],
        .listDefaultRange10km: [list(ListContracts.defaultRange)],
        .listRangeRoundedInclusive: [list(ListContracts.defaultRange)],
        .listEarthRadiusMiles: [list(ListContracts.ranges), list(ListContracts.defaultRange)],
        .listLatitudeUnchecked: [parameter("lat=91"), parameter("lat=-90.5")],
        .listPartnerOptional: [parameter("lat without lng"), parameter("lng without lat")],
        .listRangeZeroAccepted: [parameter("range=0")],
        .listRangeNegativeAccepted: [parameter("a negative range")],
        .listRangeFractionAccepted: [parameter("range=1.5")],
        .listStrictNumberParsing: [list(ListContracts.parseFloat)],
        .listEmptyParameterRejected: [list(ListContracts.emptyAbsent)],
        .listPage50: [depth(ListDepthContracts.everyMatch)],
        .listPage100: [depth(ListDepthContracts.everyMatch)],
        .detailsLeaksPassword: [details(DetailsContracts.sameAsCreate)],
        .detailsUnknownID200: [details(DetailsContracts.unknown)],
        .detailsMalformedID500: [details(DetailsContracts.malformed)],
        .photoURLDeclaredType: [photo(PhotoContracts.detectedExtension)],
        .imagesWrongContentType: [photo(PhotoContracts.serves)],
        .imagesStaleBytes: [photo(PhotoContracts.replaces)],
        .imagesAnyExtension: [photo(PhotoContracts.otherExtension)],
        .photoSecondUploadIgnored: [photo(PhotoContracts.replaces)],
        .photoKeptAfterDelete: [photo(PhotoContracts.deleteRemoves)],
        .photoAPNGAccepted: [photo(PhotoContracts.animated)],
        .deleteNoTokenAccepted: [admin(AdminDeleteContracts.noToken), admin(AdminDeleteContracts.alias)],
        .deleteAnyTokenAccepted: [admin(AdminDeleteContracts.wrongToken)],
        .deleteBearerAccepted: [admin(AdminDeleteContracts.scheme)],
        .deleteKeepsAnnouncement: [admin(AdminDeleteContracts.deletes)],
        .deleteUnknown204: [admin(AdminDeleteContracts.unknown)],
        .echoHTMLKept: [echo(EchoContracts.stripped)],
        .echoTrimmed: [echo(EchoContracts.untrimmed)],
        .echoEmptyStringKept: [accepted(AcceptanceContracts.emptyOptional)],
        .echoNumbersAsStrings: [echo(EchoContracts.numbers)],
        .routingHTML404: [routing(RoutingContracts.unknownRoute), routing(RoutingContracts.unknownMethod)],
        .routingNoCORS: [routing(RoutingContracts.cors)],
        .routingHead404: [routing(RoutingContracts.head)],
        .routingOptions404: [routing(RoutingContracts.preflight)],
        .routingErrorsTextPlain: [routing(RoutingContracts.contentType)],
        .routingGzipIgnored: [routing(RoutingContracts.gzip), routing(RoutingContracts.deflate)],
        .routingBadEscape404: [routing(RoutingContracts.badEscape)],
        .createMicrochipMax15: [accepted(AcceptanceContracts.longMicrochip)],
        .createDateNoRollover: [accepted(AcceptanceContracts.rolledDate)],
        .createEmptyOptionalRefused: [accepted(AcceptanceContracts.emptyOptional)],
        .messagesGeneric: everyMessage + ["lat that", "lng that", "range that", "lng=180.5"].map(parameter),
        .sequenceMicrochipKeptAfterDelete: [sequences(.microchip)],
        .sequenceIdsReusedAfterDelete: [sequences(.freshIds)],
        .sequenceDetailsCacheStaleAfterUpload: [sequences(.visible)],
        .sequenceSoftDeleteListed: [sequences(.deleted)],
        .sequenceUploadAfterDelete201: [sequences(.deleted)],
        .sequencePasswordRehashedOnUpload: [sequences(.password)],
        .sequenceListLimit20: [sequences(.scale)],
        .sequenceListBucket10: [sequences(.scale)],
        .concurrencyDuplicateMicrochipBoth201: [sequences(.concurrent)],
        .concurrencyLostInsert: [sequences(.concurrent)],
        .concurrencyUploadsCrossed: [sequences(.concurrent)],
        .concurrencyDeleteTwice204: [sequences(.concurrent)],
    ]
}()

@Suite("planted backend defects", .serialized)
struct PlantedDefectTests {
    @Test("run catches each planted backend defect in a group of its surface", arguments: PlantedDefectRuns.pairs.map { "\($0.0.name) \($0.1.rawValue)" })
    func caught(pair: String) async throws {
        let words = pair.split(separator: " ")
        let defect = try #require(MockDefect(rawValue: String(words[0])))
        let profile = try #require(BackendProfile(rawValue: String(words[1])))
        // The stateful group runs for the defects of its surfaces and those mapped to its contracts
        // (it is the slowest group; the others cannot make a defect harder to catch).
        let stateful = SequenceContracts()
        let concernsStateful = stateful.surfaces.contains(defect.surface)
            || (contractsEachDefectFails[defect] ?? []).contains { $0.hasPrefix(stateful.name + ": ") }
        let outcome = try await PlantedDefectRuns.outcome(defect, profile: profile, skippingGroups: concernsStateful ? [] : [stateful.name])
        #expect(outcome.caught, "\(defect.name) (\(profile.rawValue)) failed only \(outcome.failedGroups.sorted())")
        if concernsStateful {
            let shortest = try await Self.firstRun(from: outcome, where: \.hasShortSequence)
            #expect(shortest.hasShortSequence, "\(defect.name) (\(profile.rawValue)): sequences of \(shortest.sequenceOperations) operations")
        }
        let expected = Set(contractsEachDefectFails[defect] ?? [])
        let failing = try await Self.firstRun(from: outcome) { expected.isSubset(of: $0.failedContracts) }
        for contract in expected.sorted() {
            #expect(failing.failedContracts.contains(contract), "\(defect.name) (\(profile.rawValue)) did not fail \(contract)")
        }
        #expect(outcome.requestsSent <= 2000)
    }

    /// `outcome` when it `shows` what the test expects; else, for a concurrency defect, the first
    /// run with the next seeds that does (up to 2 more runs), or the last of them.
    ///
    /// A race shows on a run only when the two clients' requests meet inside the mock's race
    /// window (``MockDefect/raceWindow``). On a loaded machine they can miss it: on each of a
    /// shrinking candidate's runs, so the shrinker keeps a longer program (7 operations, seen
    /// once under a CPU hog), or on each race the run's programs drew, so the contract of
    /// requests sent at once passes (seen once beside a busy `swift test`). A sequence defect's
    /// runs do not depend on timing: its one run counts.
    static func firstRun(
        from outcome: PlantedDefectRuns.Outcome, where shows: (PlantedDefectRuns.Outcome) -> Bool
    ) async throws -> PlantedDefectRuns.Outcome {
        var latest = outcome
        var seed: UInt64 = 1
        while outcome.defect.surface == .concurrency, !shows(latest), seed < 3 {
            seed += 1
            latest = try await PlantedDefectRuns.outcome(outcome.defect, profile: outcome.profile, seed: seed)
        }
        return latest
    }

    @Test("the unbroken mock passes every contract in both profiles", arguments: BackendProfile.allCases)
    func unbroken(profile: BackendProfile) async throws {
        let (report, sent) = try await PlantedDefectRuns.run([], profile: profile)
        let failed = report.groups.flatMap { group in group.contracts.filter { $0.status == .failed }.map { "\(group.name): \($0.name)" } }
        #expect(failed.isEmpty, "\(failed)")
        let skipped = report.groups.filter { $0.name != SubmissionContracts().name }.flatMap { $0.contracts.filter { $0.status == .skipped } }
        #expect(skipped.isEmpty, "skipped: \(skipped.map(\.name))")
        // The stateful group spends its allowances; the others about 400.
        #expect(sent <= 2000 - SequenceContracts.reserve)
        #expect(sent > SequenceContracts.exploringAllowance)
        #expect(!report.notes.contains { $0.contains("rerun with --profile") })
        let present = report.notes.filter { $0.hasPrefix("known backend defect still present") }
        #expect(present.count == (profile == .production ? 1 : 0), "\(report.notes)")
    }

    @Test("every contract of the backend groups is failed by some planted defect")
    func everyContractCanFail() async throws {
        let (report, _) = try await PlantedDefectRuns.run([], profile: .production)
        let groups = Set(ContractRegistry.groups.compactMap { $0 as? any BackendContractGroup }.filter(\.plantedDefectsCoverEveryContract).map(\.name))
        #expect(groups.count >= 8, "\(groups.sorted())")
        let declared = report.groups.filter { groups.contains($0.name) }.flatMap { group in group.contracts.map { "\(group.name): \($0.name)" } }
        let shown = Set(contractsEachDefectFails.values.joined())
        #expect(declared.count > 60)
        #expect(shown.isSuperset(of: declared), "no defect fails \(Set(declared).subtracting(shown).sorted())")
        #expect(Set(declared).isSuperset(of: shown), "mapping names contracts no group declares: \(shown.subtracting(declared).sorted())")
    }
}
