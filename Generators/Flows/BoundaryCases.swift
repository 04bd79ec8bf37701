import Foundation
import PetSpotConcurrency
import PetSpotModel
import PetSpotPropertyEngine

extension FlowGenerators {
    /// The names of the clocks near midnight that date boundaries are checked at, in the order of
    /// ``boundaryContext(_:)``.
    public static let boundaryContextNames: [String] = [
        "UTC+14 just after local midnight",
        "UTC-12 just after UTC midnight",
        "one second before local midnight",
        "at local midnight",
        "UTC, one second before midnight",
        "UTC, at midnight",
    ]

    /// A clock of the kind ``boundaryContextNames``[`index`] names, on a day within 400 days of
    /// the reference instant: Kiritimati (UTC+14) in the hour after its midnight, when its today
    /// is still tomorrow in UTC; `Etc/GMT+12` (UTC-12) in the hour after UTC midnight, when UTC's
    /// today is its tomorrow; a zone of ``timeZones`` at 23:59:59 or 00:00:00; UTC at the same.
    public static func boundaryContext(_ index: Int) -> Gen<ReportContext> {
        boundaryContextGenerators[index]
    }

    static let boundaryContextGenerators: [Gen<ReportContext>] = {
        let referenceDays = Int((referenceInstant.timeIntervalSince1970 / 86_400).rounded(.down))
        let day = Gen.int(in: -400...400).map { referenceDays + $0 }
        let utc = TimeZone(secondsFromGMT: 0)!
        let kiritimati = TimeZone(identifier: "Pacific/Kiritimati") ?? TimeZone(secondsFromGMT: 14 * 3600)!
        let minusTwelve = TimeZone(identifier: "Etc/GMT+12") ?? TimeZone(secondsFromGMT: -12 * 3600)!
        let anyZone = Gen<TimeZone>.element(of: timeZones)
        func local(_ zone: Gen<TimeZone>, seconds: Gen<Int>) -> Gen<ReportContext> {
            PetSpotPropertyEngine.zip(zone, day, seconds).map { zone, day, second in
                ReportContext(timeZone: zone, now: instant(zone: zone, localDay: day, second: second))
            }
        }
        return [
            local(.constant(kiritimati), seconds: Gen.int(in: 0...3599)),
            PetSpotPropertyEngine.zip(day, Gen.int(in: 0...3599)).map { day, second in
                ReportContext(timeZone: minusTwelve, now: Date(timeIntervalSince1970: Double(day * 86_400 + second)))
            },
            local(anyZone, seconds: .constant(86_399)),
            local(anyZone, seconds: .constant(0)),
            local(.constant(utc), seconds: .constant(86_399)),
            local(.constant(utc), seconds: .constant(0)),
        ]
    }()

    /// The instant the wall clock of `zone` shows `second` seconds into the day `localDay` (days
    /// since 1970-01-01); one correction step handles a DST change.
    static func instant(zone: TimeZone, localDay: Int, second: Int) -> Date {
        let guess = Date(timeIntervalSince1970: Double(localDay * 86_400 + second))
        let offset = zone.secondsFromGMT(for: guess.addingTimeInterval(-Double(zone.secondsFromGMT(for: guess))))
        return guess.addingTimeInterval(-Double(offset))
    }

    /// The generator of `check`: valid reports with one or two fields replaced by a hostile
    /// value, most of them a value of the boundary catalogue, so that every step's rules see
    /// every edge (swarm testing, Groce et al., ISSTA 2012).
    ///
    /// Each case is planned when it is drawn fresh: 70% plant the next catalogue entry of a
    /// shuffled cycle through ``BoundaryCatalogue/entries`` (a quarter of them with a second
    /// faulty field), 15% replace one or two random fields by hostile values, 10% make every
    /// field hostile, 5% are valid throughout. Every catalogue entry is thus planted once per
    /// cycle (`entries / 0.7` cases), which ``scheduledShare`` states for coverage requirements.
    ///
    /// The choices of a case are laid out so that each part shrinks on its own: the flow, the
    /// clock (0: an ordinary one, then ``boundaryContext(_:)``), then for each field of the flow
    /// a valid value, a fault flag, which hostile value (catalogue entries first, then the
    /// field's hostile generator) and that value. Both values are always drawn, so zeroing a
    /// fault flag leaves the other fields' choices in place: a field that plays no part in a
    /// failure shrinks back to its simplest valid value.
    ///
    /// The cycle is state of the returned generator: make a new one for every run that must see
    /// the same cases from the same seed.
    public static func boundaryCases() -> Gen<FlowCase> {
        let schedule = BoundarySchedule()
        let entries = BoundaryCatalogue.byField
        let valid = ReportField.allCases.map { FieldGenerators.input($0.spec, .valid) }
        let hostile = ReportField.allCases.map { FieldGenerators.input($0.spec, .hostile) }
        let ordinary = context()
        let contexts = boundaryContextGenerators
        return Gen { testCase in
            let plan = testCase.planning { random in schedule.plan(&random) }
            let flow = ReportFlowKind.allCases[Int(try testCase.choice(upTo: 1, preferring: plan?.flow))]
            let contextChoice = Int(try testCase.choice(upTo: UInt64(contexts.count), preferring: plan?.context))
            let context = try contextChoice == 0 ? ordinary.draw(&testCase) : contexts[contextChoice - 1].draw(&testCase)
            let today = context.latestReportDate
            var inputs = ReportInputs()
            var planted: [Int] = []
            for field in flow.fields {
                let validValue = try valid[field.rawValue].draw(&testCase).resolved(today: today)
                let faulty = try testCase.choice(upTo: 1, preferring: plan.map { $0.faulty.contains(field) ? 1 : 0 }) == 1
                let fieldEntries = entries[field.rawValue]
                let planned: UInt64? = plan.flatMap { plan in
                    guard let entry = plan.entry, entry.field == field,
                        let position = fieldEntries.firstIndex(where: { $0.boundary.index == entry.index })
                    else { return nil }
                    return UInt64(position)
                }
                let pick = Int(try testCase.choice(upTo: UInt64(fieldEntries.count), preferring: planned))
                let hostileValue: FieldValue?
                if pick < fieldEntries.count {
                    let entry = fieldEntries[pick]
                    hostileValue = try entry.value.draw(&testCase).resolved(today: today)
                    if faulty && (entry.context == nil || entry.context == contextChoice - 1) { planted.append(entry.boundary.index) }
                } else {
                    hostileValue = try hostile[field.rawValue].draw(&testCase).resolved(today: today)
                }
                inputs[field] = faulty ? hostileValue : validValue
            }
            return FlowCase(flow: flow, inputs: inputs, context: context, boundaries: planted)
        }
    }

    /// The share of cases in which ``boundaryCases()`` plants each catalogue entry, in percent:
    /// 70% of cases plant one entry of a cycle through all of them.
    public static var scheduledShare: Double { 70 / Double(BoundaryCatalogue.planted.count) }
}

/// What one fresh case of ``FlowGenerators/boundaryCases()`` is planned to carry.
struct CasePlan: Sendable {
    /// The flow's choice (0 Missing, 1 Found).
    var flow: UInt64
    /// The clock's choice (0 ordinary, k the boundary context k - 1).
    var context: UInt64
    /// The fields given a hostile value.
    var faulty: Set<ReportField>
    /// The catalogue entry planted, if any.
    var entry: Boundary?
}

/// The shuffled cycle through the catalogue that plans the cases of one generator.
final class BoundarySchedule: Sendable {
    private struct State {
        var order: [Int] = []
        var position = 0
    }

    private let state = Locked(State())

    /// The plan of the next fresh case, drawn with `random`.
    func plan(_ random: inout Xoshiro256StarStar) -> CasePlan {
        let catalogue = BoundaryCatalogue.planted
        let roll = random.bounded(by: 99)
        var plan = CasePlan(flow: random.bounded(by: 1), context: 0, faulty: [], entry: nil)
        if random.bounded(by: 9) == 0 {
            plan.context = 1 + random.bounded(by: UInt64(FlowGenerators.boundaryContextNames.count - 1))
        }
        func randomFields(_ count: Int, flow: ReportFlowKind) -> Set<ReportField> {
            var fields: Set<ReportField> = []
            let all = flow.fields
            while fields.count < count { fields.insert(all[Int(random.bounded(by: UInt64(all.count - 1)))]) }
            return fields
        }
        let flow = ReportFlowKind.allCases[Int(plan.flow)]
        switch roll {
        case 0..<70:
            let index = state.withLock { state -> Int in
                if state.position == state.order.count {
                    state.order = Array(0..<catalogue.count)
                    for i in stride(from: state.order.count - 1, to: 0, by: -1) {
                        state.order.swapAt(i, Int(random.bounded(by: UInt64(i))))
                    }
                    state.position = 0
                }
                defer { state.position += 1 }
                return state.order[state.position]
            }
            let entry = catalogue[index]
            let field = entry.boundary.field
            if field.isMissingOnly { plan.flow = 0 } else if field.isFoundOnly { plan.flow = 1 }
            if let context = entry.context { plan.context = UInt64(context + 1) }
            plan.entry = entry.boundary
            plan.faulty = [field]
            if random.bounded(by: 3) == 0 {
                plan.faulty.formUnion(randomFields(1, flow: ReportFlowKind.allCases[Int(plan.flow)]))
            }
        case 70..<85:
            plan.faulty = randomFields(1 + Int(random.bounded(by: 1)), flow: flow)
        case 85..<95:
            plan.faulty = Set(flow.fields)
        default:
            break
        }
        return plan
    }
}
