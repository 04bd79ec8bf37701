import Foundation
import PetSpotJSON
import PetSpotModel

/// What a backend's rules can tell apart in a payload: `record` keeps a payload when it shows
/// something no payload kept before it shows (a trait), so a release file holds every kind of
/// value a build sends for every key, every set of keys it sends together, in each flow, and no
/// payload that adds nothing a rule could tell apart. A backend's rules judge each key on its
/// own (backend-contract.md's table), and the set of keys (required ones, the contact rule,
/// unknown keys): every one of those is met by a kept payload; a combination of values no rule
/// looks at together is not multiplied out (a build that sends a few hundred distinct payloads
/// keeps a few dozen).
///
/// The traits of a payload are its flow with its set of keys, for every key it holds the key with
/// the class of its value, and the location's two classes together (one value on the screen):
/// - any value: its JSON type (a `null`, a string where a number belongs);
/// - `status` and the picked fields (species, sex): the value itself;
/// - texts: empty, blank, padded (trimming changes it), ASCII or not, made of multi-scalar
///   characters or not, and the length against every limit the field table and
///   backend-contract.md set for the key (below, at, above: 14, 15 and 16 microchip digits are
///   three classes), or the length's order of magnitude where there is none (1-9, 10-99, ...);
/// - the phone: its ASCII digit count against the app's 7...11 and whether it has a `+`; the email:
///   whether the backend's pattern matches and its length against 254;
/// - numbers: integer or not, and where the value lies against the rule's bounds and zero
///   (-90, 0, 90 for a latitude; 1 and 40 for an age: each bound is a class of its own, so is
///   each interval between them);
/// - the date: its day against the UTC day of the report's own clock (today, yesterday,
///   earlier, later), and whether it is a real calendar date.
///
/// The bounds come from the field table's rules (``FieldTable/specs``), so a changed limit
/// changes the classes with no edit here; a candidate backend that moves a bound inside an
/// interval (an age cap of 30) is still met by the interval's extremes, which the boundary
/// catalogue plants.
public enum PayloadClass {
    /// The traits of `payload`, made in `flow` with the report's clock `clock`: `missing keys=a,b`,
    /// and `missing age=int:1-40` for each key (the flow first: a rule may hold for one status only).
    public static func traits(of payload: JSONObject, flow: ReportFlowKind, clock: Date) -> Set<String> {
        let keys = payload.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var traits: Set<String> = ["\(flow.rawValue) keys=\(keys.joined(separator: ","))"]
        for member in payload.members { traits.insert("\(flow.rawValue) \(member.key)=\(valueClass(member.value, key: member.key, clock: clock))") }
        // The location is one value on the screen ("Use current location" fills both): a rule may
        // look at the pair (the list's distance, a refused 0,0).
        if let latitude = payload["locationLatitude"], let longitude = payload["locationLongitude"] {
            traits.insert("\(flow.rawValue) location=\(valueClass(latitude, key: "locationLatitude", clock: clock)) \(valueClass(longitude, key: "locationLongitude", clock: clock))")
        }
        return traits
    }

    /// The class of one value of `key`.
    static func valueClass(_ value: JSONValue, key: String, clock: Date) -> String {
        let spec = FieldTable.specs.first { $0.payloadKey == key }
        switch value {
        case .string(let text):
            if key == "status" { return "'\(text)'" }
            switch spec?.kind {
            case .choice: return "'\(text)'"
            case .phone(let rule): return textClass(text, limits: []) + "/digits:" + bucket(text.unicodeScalars.filter { ("0"..."9").contains($0) }.count, bounds: [rule.digitCount.lowerBound, rule.digitCount.upperBound]) + (text.contains("+") ? "/plus" : "")
            case .email(let rule): return textClass(text, limits: [rule.maxLength]) + (backendEmailMatches(Trimming.trim(text)) ? "/pattern" : "/not-pattern")
            case .digits(let formatter): return textClass(text, limits: [formatter.maxDigits])
            case .freeText(let limit): return textClass(text, limits: limit.map { [$0.maxCharacters] } ?? [])
            case .date: return dateClass(text, clock: clock)
            default: return textClass(text, limits: [])
            }
        case .number(let number):
            let form = number.isInteger ? "int" : "fraction"
            switch spec?.kind {
            case .coordinate(let axis): return form + ":" + numberBucket(number.doubleValue, bounds: [-axis.limit, 0, axis.limit])
            case .wholeNumber(let rule): return form + ":" + numberBucket(number.doubleValue, bounds: [Double(rule.range.lowerBound), Double(rule.range.upperBound)])
            default: return form + ":" + numberBucket(number.doubleValue, bounds: [0])
            }
        default:
            return value.typeName
        }
    }

    /// A text's shape and its length (in Characters) against `limits`.
    static func textClass(_ text: String, limits: [Int]) -> String {
        if text.isEmpty { return "empty" }
        if Trimming.isBlank(text) { return "blank" }
        var parts: [String] = []
        if Trimming.trim(text) != text { parts.append("padded") }
        parts.append(text.unicodeScalars.allSatisfy(\.isASCII) ? "ascii" : "unicode")
        if text.contains(where: { $0.unicodeScalars.count > 1 }) { parts.append("multi-scalar") }
        let length = text.count
        parts.append("length:" + (limits.isEmpty ? magnitude(length) : bucket(length, bounds: limits)))
        return parts.joined(separator: "/")
    }

    /// `<7`, `7`, `7-11`, `11`, `>11` for bounds [7, 11]: each bound and each interval between.
    static func bucket(_ value: Int, bounds: [Int]) -> String {
        let sorted = Array(Set(bounds)).sorted()
        if let bound = sorted.first(where: { $0 == value }) { return String(bound) }
        guard let upper = sorted.firstIndex(where: { value < $0 }) else { return ">\(sorted.last!)" }
        return upper == 0 ? "<\(sorted[0])" : "\(sorted[upper - 1])-\(sorted[upper])"
    }

    /// ``bucket(_:bounds:)`` for real numbers.
    static func numberBucket(_ value: Double, bounds: [Double]) -> String {
        let sorted = Array(Set(bounds)).sorted()
        func name(_ bound: Double) -> String { bound == bound.rounded() ? String(Int(bound)) : String(bound) }
        if let bound = sorted.first(where: { $0 == value }) { return name(bound) }
        guard let upper = sorted.firstIndex(where: { value < $0 }) else { return ">\(name(sorted.last!))" }
        return upper == 0 ? "<\(name(sorted[0]))" : "\(name(sorted[upper - 1]))-\(name(sorted[upper]))"
    }

    /// `1-9`, `10-99`, ...: the order of magnitude of a length no rule limits.
    static func magnitude(_ length: Int) -> String {
        var low = 1
        while length >= low * 10 { low *= 10 }
        return "\(low)-\(low * 10 - 1)"
    }

    /// The date's day against the UTC day of `clock`, or why it is no date.
    static func dateClass(_ text: String, clock: Date) -> String {
        guard let date = CalendarDate(iso: text) else { return text.count == 10 ? "not-a-date" : "not-yyyy-mm-dd" }
        let today = CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: clock)
        switch date.daysSinceUnixEpoch - today.daysSinceUnixEpoch {
        case 0: return "utc-today"
        case -1: return "utc-yesterday"
        case ..<(-1): return "earlier"
        default: return "after-utc-today"
        }
    }

    /// backend-contract.md's email pattern `^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$`, on the
    /// trimmed text (JavaScript's `\s` is Unicode White_Space and U+FEFF; `.` counts UTF-16 units).
    static func backendEmailMatches(_ text: String) -> Bool {
        guard (1...254).contains(text.utf16.count), !text.unicodeScalars.contains(where: Trimming.isTrimmed) else { return false }
        let halves = text.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty else { return false }
        let domain = halves[1]
        return domain.indices.contains { domain[$0] == "." && $0 != domain.startIndex && domain.index(after: $0) != domain.endIndex }
    }
}
