import Foundation
import PetSpotFlowGenerators
import PetSpotModel
import PetSpotPropertyEngine

/// The reports of the submission scenarios: valid reports of either flow whose text fields are
/// spelled the ways the payload mapping treats apart (left empty, padded, blank, grouped, past
/// the cap, an exponent), each from a few readable values, read off the field table.
///
/// A report drawn this way shrinks field by field to its plainest spelling and simplest value,
/// so a failure keeps only what it needs (a padded breed, say), not a random phone number.
package enum ReportSpelling {
    /// How one text field is typed.
    package enum Spelling: Sendable, Hashable {
        /// Left empty.
        case absent
        /// The value as it is.
        case plain
        /// The value with blanks around it: `"  Beagle "` (sent trimmed).
        case padded
        /// Blanks only: `"   "` (an optional text left out).
        case blank
        /// A phone number with its separators: `"(202) 555-0143"` (only digits and `+` sent).
        case grouped
        /// The value repeated past the field's cap (cut at the cap).
        case overlong
        /// A coordinate with an exponent: `"5.22297e1"` (sent as the number).
        case exponent
    }

    /// The spellings of text field `field`, the plainest first (none for a field that is not
    /// typed, or the microchip, which the executor types).
    package static func spellings(of field: ReportField) -> [Spelling] {
        let spec = field.spec
        let optional: [Spelling] = spec.presence == .optional ? [.absent] : []
        switch spec.kind {
        case .freeText(let limit): return [.absent, .plain, .padded, .blank] + (limit == nil ? [] : [.overlong])
        case .wholeNumber: return [.absent, .plain, .padded, .blank]
        case .phone: return optional + [.plain, .grouped, .padded]
        case .email: return optional + [.plain, .padded]
        case .coordinate: return optional + [.plain, .padded, .exponent]
        case .digits, .photo, .date, .choice: return []
        }
    }

    /// The fields of `flow` that can be spelled `spelling`.
    static func fields(of flow: ReportFlowKind, spelled spelling: Spelling) -> [ReportField] {
        flow.fields.filter { spellings(of: $0).contains(spelling) }
    }

    /// Whether `field` is sent as text (trimmed), not read as a number.
    static func sendsText(_ field: ReportField) -> Bool {
        guard field.spec.payloadKey != nil else { return false }
        switch field.spec.kind {
        case .freeText, .email: return true
        default: return false
        }
    }

    /// The optional fields of `flow` that the payload carries (the microchip among them).
    static func optionalPayloadFields(of flow: ReportFlowKind) -> [ReportField] {
        flow.fields.filter { $0.spec.presence == .optional && $0.spec.payloadKey != nil }
    }

    /// The values `field` takes, the simplest first: each a plain spelling and, for a phone or a
    /// coordinate, the same value grouped or with an exponent.
    static func values(of field: ReportField) -> [(plain: String, alternate: String?)] {
        switch field {
        case .petName: return [("Rex", nil), ("Luna", nil), ("Żaba", nil)]
        case .breed: return [("Beagle", nil), ("Maine Coon", nil), ("Border collie", nil)]
        case .age: return [("3", nil), ("12", nil), ("07", nil)]
        case .latitude: return [("52.2297", "5.22297e1"), ("-33.8688", "-3.38688e1"), ("0", "0e0")]
        case .longitude: return [("21.0122", "2.10122e1"), ("151.2093", "1.512093e2"), ("-0.5", "-5e-1")]
        case .description: return [("Red collar", nil), ("Shy, comes to a whistle", nil), ("Biała łatka na oku 🐾", nil)]
        case .phone: return [("600700800", "600-700-800"), ("2025550143", "(202) 555-0143"), ("48221234567", "+48 22 123 45 67")]
        case .email: return [("owner@example.com", nil), ("pet.finder+tag@mail.example.org", nil)]
        case .reward: return [("$50", nil), ("100 zł", nil), ("A big hug", nil)]
        case .caregiverPhone: return [("600700801", "600 700 801"), ("2025550199", "(202) 555-0199")]
        case .currentAddress: return [("1 Main St", nil), ("ul. Prosta 5, Warszawa", nil)]
        default:
            switch field.spec.kind {
            case .phone: return [("600700800", "600-700-800")]
            case .email: return [("owner@example.com", nil)]
            case .coordinate: return [("0", "0e0")]
            case .wholeNumber: return [("1", nil)]
            default: return [("text", nil)]
            }
        }
    }

    /// The text typed for `value` of `field` spelled `spelling` (`nil`: left empty).
    static func typed(_ spelling: Spelling, _ value: (plain: String, alternate: String?), field: ReportField) -> String? {
        switch spelling {
        case .absent: return nil
        case .plain: return value.plain
        case .padded: return "  " + value.plain + " "
        case .blank: return "   "
        case .grouped, .exponent: return value.alternate ?? value.plain
        case .overlong:
            guard case .freeText(let limit?) = field.spec.kind else { return value.plain }
            let word = value.plain + " "
            return String(repeating: word, count: limit.maxCharacters / word.count + 2)
        }
    }

    /// The text typed in `field`: its spelling (`planned` when drawing fresh), then its value.
    static func text(of field: ReportField, preferring planned: Spelling?, _ testCase: inout TestCase) throws -> String? {
        let spellings = spellings(of: field)
        let plannedIndex = planned.flatMap { spellings.firstIndex(of: $0) }.map { UInt64($0) }
        let spelling = spellings[Int(try testCase.choice(upTo: UInt64(spellings.count - 1), preferring: plannedIndex))]
        let values = values(of: field)
        let value = values[Int(try testCase.choice(upTo: UInt64(values.count - 1)))]
        return typed(spelling, value, field: field)
    }

    /// A report made at `now`, drawn from `testCase` as the scenario generator lays it out: the
    /// flow, the user's time zone, then each field in screen order (the photo's type, the date's
    /// days before the latest allowed one, the option picked, or a text's spelling and value).
    /// The microchip is left empty. `plan` prefers the flow and spellings it decides.
    static func report(now: Date, plan: ScenarioPlan?, _ testCase: inout TestCase) throws -> FlowCase {
        let flow = ReportFlowKind.allCases[Int(try testCase.choice(upTo: 1, preferring: plan?.flow))]
        let zones = FlowGenerators.timeZones
        let context = ReportContext(timeZone: zones[Int(try testCase.choice(upTo: UInt64(zones.count - 1)))], now: now)
        var inputs = ReportInputs()
        for field in flow.fields {
            switch field.spec.kind {
            case .photo:
                let png = try testCase.choice(upTo: 1) == 1
                inputs.photo = PhotoAttachment(fileName: png ? "pet.png" : "pet.jpg", mimeType: png ? "image/png" : "image/jpeg", byteCount: 2048)
            case .date:
                inputs[field] = .date(context.latestReportDate.adding(days: -Int(try testCase.choice(upTo: 30))))
            case .choice(let options):
                inputs[field] = .choice(options[Int(try testCase.choice(upTo: UInt64(options.count - 1)))])
            case .digits:
                continue
            case .freeText, .wholeNumber, .phone, .email, .coordinate:
                // One span per field: the shrinker tries it left empty (or plain) in one replay.
                let planned = plan?.spellings[field]
                inputs[text: field] = try Gen<String?>.deferred(maxDepth: 8) { Gen { testCase in try text(of: field, preferring: planned, &testCase) } }
                    .draw(&testCase)
            }
        }
        return FlowCase(flow: flow, inputs: inputs, context: context)
    }
}
