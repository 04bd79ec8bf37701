import Foundation
import PetSpotGenerators
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
        let perZone = timeZones.map { zone in
            Gen.date(in: zone, around: reference, dayOffsets: -400...400).map { ReportContext(timeZone: zone, now: $0) }
        }
        return .oneOf(perZone)
    }

    /// Raw inputs for `flow` in `mood`, for a user whose clock shows `context`.
    ///
    /// Fields of the other flow are left empty.
    public static func inputs(_ flow: ReportFlowKind, _ mood: InputMood, context: ReportContext) -> Gen<ReportInputs> {
        let missing = flow == .missing
        let texts = zip(
            FieldGenerators.chipNumber(mood).optional(nilProbability: 0.2),
            FieldGenerators.freeText(mood, cap: nil),  // breed
            FieldGenerators.freeText(mood, cap: TextLimit.description.maxCharacters),
            missing ? FieldGenerators.freeText(mood, cap: nil) : .constant(nil),  // pet name
            missing ? FieldGenerators.age(mood) : .constant(nil),
            missing ? FieldGenerators.freeText(mood, cap: TextLimit.reward.maxCharacters) : .constant(nil))
        let contact = zip(
            FieldGenerators.phone(mood),
            FieldGenerators.email(mood),
            missing ? .constant(nil) : FieldGenerators.phone(mood == .valid ? .valid : .hostile).optional(nilProbability: 0.5),
            missing ? .constant(nil) : FieldGenerators.freeText(mood, cap: TextLimit.currentAddress.maxCharacters))
        let place = zip(
            FieldGenerators.coordinate(.latitude, mood),
            FieldGenerators.coordinate(.longitude, mood),
            FieldGenerators.date(mood, today: context.today),
            FieldGenerators.species(mood),
            FieldGenerators.sex(mood),
            FieldGenerators.photo(mood))
        return zip(texts, contact, place).map { texts, contact, place in
            var inputs = ReportInputs()
            (inputs.chipNumber, inputs.breed, inputs.description, inputs.petName, inputs.age, inputs.reward) = texts
            (inputs.phone, inputs.email, inputs.caregiverPhone, inputs.currentAddress) = (contact.0, contact.1, contact.2, contact.3)
            (inputs.latitude, inputs.longitude, inputs.lastSeenDate, inputs.species, inputs.sex, inputs.photo) = place
            return inputs
        }
    }

    /// A whole case: either flow, a context, and inputs in `mood`.
    public static func flowCase(_ mood: InputMood) -> Gen<FlowCase> {
        zip(flow, context()).flatMap { flow, context in
            inputs(flow, mood, context: context).map { FlowCase(flow: flow, inputs: $0, context: context) }
        }
    }

    /// A case of one given flow.
    public static func flowCase(_ flow: ReportFlowKind, _ mood: InputMood) -> Gen<FlowCase> {
        context().flatMap { context in
            inputs(flow, mood, context: context).map { FlowCase(flow: flow, inputs: $0, context: context) }
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
