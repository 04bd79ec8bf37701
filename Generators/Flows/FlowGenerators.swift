import Foundation
import PetSpotPropertyEngine
import PetSpotModel

/// Generators of whole reports: flows, contexts and every field's raw input.
public enum FlowGenerators {
    /// Time zones far apart, with the odd offsets (+14, -11, +12:45, +5:45, -3:30) where
    /// date bugs live.
    public static let timeZones: [TimeZone] = [
        "UTC", "Europe/Warsaw", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham", "Asia/Kathmandu",
        "America/St_Johns", "America/Los_Angeles", "Asia/Tokyo", "Australia/Lord_Howe", "America/Sao_Paulo",
    ].compactMap(TimeZone.init(identifier:))

    /// The instant generated contexts are drawn around: 2026-11-21T12:00:00Z.
    public static let referenceInstant = Date(timeIntervalSince1970: 1_795_262_400)

    /// Either flow.
    public static let flow: Gen<ReportFlowKind> = .element(of: ReportFlowKind.allCases)

    /// A user's zone and a submission instant near `reference`, biased to wall-clock times
    /// around midnight in that zone.
    public static func context(around reference: Date = referenceInstant) -> Gen<ReportContext> {
        if reference == referenceInstant { return defaultContexts }
        return contexts(around: reference)
    }

    static let defaultContexts = contexts(around: referenceInstant)

    /// A zone, then a wall-clock day (within 400 days of `reference`'s day) and a second of
    /// that day, biased to the seconds around midnight, resolved to the instant without
    /// `Calendar` (which costs more than the rest of a case).
    static func contexts(around reference: Date) -> Gen<ReportContext> {
        let zones = timeZones
        let zone = Gen<Int>.int(in: 0...(zones.count - 1))
        let dayOffset = Gen.int(in: -400...400)
        let nearMidnight = Gen.frequency(
            (1, Gen<Int>.element(of: [0, 1, 86_399, 86_398, 43_200])),
            (1, Gen.int(in: 0...1800)), (1, Gen.int(in: 84_600...86_399)),
            (2, Gen.int(in: 0...86_399)))
        let referenceDays = Int((reference.timeIntervalSince1970 / 86_400).rounded(.down))
        return Gen { testCase in
            let timeZone = zones[try zone.draw(&testCase)]
            let localDay = referenceDays + (try dayOffset.draw(&testCase))
            let second = try nearMidnight.draw(&testCase)
            // The UTC offset at that wall time: one correction step handles DST changes.
            let guess = Date(timeIntervalSince1970: Double(localDay * 86_400 + second))
            let offset = timeZone.secondsFromGMT(for: guess.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess))))
            return ReportContext(timeZone: timeZone, now: guess.addingTimeInterval(-Double(offset)))
        }
    }

    /// Raw inputs for `flow` in `mood`, for a user whose clock shows `context`.
    ///
    /// Fields of the other flow are left empty.
    public static func inputs(_ flow: ReportFlowKind, _ mood: InputMood, context: ReportContext) -> Gen<ReportInputs> {
        let today = context.latestReportDate
        return inputTemplates[InputTemplateKey(flow: flow, mood: mood)]!.map { $0.inputs(today: today) }
    }

    /// A whole case: either flow, a context, and inputs in `mood`.
    public static func flowCase(_ mood: InputMood) -> Gen<FlowCase> {
        let missing = inputTemplates[InputTemplateKey(flow: .missing, mood: mood)]!
        let found = inputTemplates[InputTemplateKey(flow: .found, mood: mood)]!
        let contexts = context()
        return Gen { testCase in
            let flow = try flow.draw(&testCase)
            let context = try contexts.draw(&testCase)
            let template = try (flow == .missing ? missing : found).draw(&testCase)
            return FlowCase(flow: flow, inputs: template.inputs(today: context.latestReportDate), context: context)
        }
    }

    /// A case of one given flow.
    public static func flowCase(_ flow: ReportFlowKind, _ mood: InputMood) -> Gen<FlowCase> {
        let template = inputTemplates[InputTemplateKey(flow: flow, mood: mood)]!
        return PetSpotPropertyEngine.zip(context(), template).map { context, template in
            FlowCase(flow: flow, inputs: template.inputs(today: context.latestReportDate), context: context)
        }
    }

    /// Inputs whose dates are still relative to the user's latest allowed date.
    struct InputTemplate: Sendable {
        var inputs: ReportInputs
        var relativeDates: [RelativeDate]

        /// A date field drawn relative to today: `daysAfterToday` (`nil` for no date).
        struct RelativeDate: Sendable {
            let field: ReportField
            let daysAfterToday: Int?
        }

        /// The inputs with every relative date resolved against `today` (in place: the template
        /// is used once, so its storage is not copied).
        consuming func inputs(today: CalendarDate) -> ReportInputs {
            for date in relativeDates { inputs[date.field] = date.daysAfterToday.map { .date(today.adding(days: $0)) } }
            return inputs
        }
    }

    struct InputTemplateKey: Hashable, Sendable {
        let flow: ReportFlowKind
        let mood: InputMood
    }

    /// The input generators, built once: building a generator costs far more than drawing.
    static let inputTemplates: [InputTemplateKey: Gen<InputTemplate>] = {
        var templates: [InputTemplateKey: Gen<InputTemplate>] = [:]
        for flow in ReportFlowKind.allCases {
            for mood in InputMood.allCases {
                templates[InputTemplateKey(flow: flow, mood: mood)] = inputTemplate(flow, mood)
            }
        }
        return templates
    }()

    /// Every field of `flow`, drawn in screen order from its row's generator; fields of the
    /// other flow are left empty.
    static func inputTemplate(_ flow: ReportFlowKind, _ mood: InputMood) -> Gen<InputTemplate> {
        // Two arrays rather than one of tuples: a tuple of a generator (a closure) makes the
        // runtime look its metadata up on every draw.
        let fields = flow.fields
        let generators = fields.map { FieldGenerators.input($0.spec, mood) }
        return Gen { testCase in
            var template = InputTemplate(inputs: ReportInputs(), relativeDates: [])
            for index in fields.indices {
                switch try generators[index].draw(&testCase) {
                case .value(let value): template.inputs[fields[index]] = value
                case .date(let days): template.relativeDates.append(InputTemplate.RelativeDate(field: fields[index], daysAfterToday: days))
                }
            }
            return template
        }
    }
}

/// Bytes for a photo attachment known by its metadata: the magic bytes of its declared type
/// (PNG or JPEG; anything else gets bytes that are no image), padded to its size.
///
/// The backend recognises an image by its magic bytes, so a declared PNG shorter than the
/// 8-byte signature is no image to it, although the app's rule (type and size only) accepts
/// it: the valid generators never make photos smaller than
/// ``FieldGenerators/smallestImageBytes``.
public enum PhotoContents {
    /// `photo` with ``PhotoAttachment/contents`` filled in, `byteCount` bytes long.
    public static func materialized(_ photo: PhotoAttachment) -> PhotoAttachment {
        var copy = photo
        copy.contents = bytes(mimeType: photo.mimeType, count: photo.byteCount)
        return copy
    }

    /// `count` bytes that start like a file of `mimeType`.
    public static func bytes(mimeType: String, count: Int) -> Data {
        let signature: [UInt8]
        switch mimeType.lowercased() {
        case "image/png": signature = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case "image/jpeg": signature = [0xFF, 0xD8, 0xFF, 0xE0]
        default: signature = Array("not an image".utf8)
        }
        var data = Data(signature.prefix(max(0, count)))
        if count > data.count { data.append(Data(count: count - data.count)) }
        return data
    }
}
