import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotModel

/// A recorded payload as `can-i-deploy` sends it today: the same report, with what a backend
/// keeps from one request to the next made fresh.
///
/// - The date keeps its distance from the UTC day of the report's own clock: a report made "today"
///   is sent with today's date, one made yesterday with yesterday's (a backend reads the date as
///   UTC midnight and refuses one in its future; days later, the recorded date would be a
///   different class). A text that is no date is sent as recorded.
/// - A microchip number made of ASCII digits (padding kept) is replaced by one of the same length
///   no one else uses (``ReplayMicrochips``): a backend keeps microchip numbers unique, and
///   the recorded one may be taken by the recording, by another release, or by anyone on a staging
///   backend.
/// Every other member is sent exactly as recorded, in its order, numbers as written.
public enum ReplayedPayload {
    /// `payload`, recorded at `clock`, as sent on `today` (a UTC day) with `microchips`.
    public static func make(_ payload: JSONObject, recordedAt clock: Date, today: CalendarDate, microchips: ReplayMicrochips) -> JSONObject {
        var sent = payload
        if let text = payload["lastSeenDate"]?.stringValue, let date = CalendarDate(iso: text) {
            let recordedToday = CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: clock)
            sent["lastSeenDate"] = .string(today.adding(days: date.daysSinceUnixEpoch - recordedToday.daysSinceUnixEpoch).isoString)
        }
        if let chip = payload["microchipNumber"]?.stringValue, let fresh = freshMicrochip(in: chip, microchips) {
            sent["microchipNumber"] = .string(fresh)
        }
        return sent
    }

    /// `chip` with its run of ASCII digits (the whole text between optional padding) replaced by a
    /// fresh number of the same length, or `nil` when it is not such a text.
    static func freshMicrochip(in chip: String, _ microchips: ReplayMicrochips) -> String? {
        let scalars = Array(chip.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !Trimming.isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !Trimming.isTrimmed($0) })
        else { return nil }
        let digits = scalars[first...last]
        guard digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        var result = String.UnicodeScalarView(scalars[..<first])
        result.append(contentsOf: microchips.next(length: digits.count).unicodeScalars)
        result.append(contentsOf: scalars[(last + 1)...])
        return String(result)
    }
}

/// Microchip numbers for one replay, of any length, unlikely to be anyone else's: a number of 7
/// digits or more is a random prefix of the replay (up to 9 digits) and a 6-digit counter; a
/// shorter one is random, not the same twice in a replay until every number of its length has
/// been used. A short number can still be taken on a shared backend (there are only so many):
/// the replay sends another one when a create answers 409 on it.
public final class ReplayMicrochips: Sendable {
    private struct State {
        var counter = 0
        var used: Set<String> = []
        var random: SystemRandomNumberGenerator = SystemRandomNumberGenerator()
    }

    private let prefix: String
    private let state = Locked(State())

    /// Numbers with a random prefix.
    public init() {
        var prefix = String(UInt64.random(in: 100_000_000...999_999_999))
        if prefix == "123456789" { prefix = "987654321" }  // production's sample row
        self.prefix = prefix
    }

    /// A fresh number of `length` ASCII digits (once all 10^length are used, numbers repeat).
    public func next(length: Int) -> String {
        state.withLock { state in
            if length >= 7 {
                // The replay's prefix (as much of it as fits before a 6-digit counter), then the counter.
                state.counter += 1
                let counter = String(state.counter % 1_000_000)
                let head = String(prefix.prefix(length - 6))
                return head + String(repeating: "0", count: length - head.count - counter.count) + counter
            }
            let space = (0..<length).reduce(1) { value, _ in value * 10 }
            func padded(_ number: Int) -> String {
                let digits = String(number)
                return String(repeating: "0", count: length - digits.count) + digits
            }
            for _ in 0..<64 {
                let candidate = padded(Int.random(in: 0..<space, using: &state.random))
                if state.used.insert(candidate).inserted { return candidate }
            }
            // Nearly every number of the length is used: the first one left; once none is left, the
            // numbers of the length start over (the replay deletes each announcement once judged,
            // so a number used earlier is free again unless someone else took it: then a 409 asks
            // for another).
            for number in 0..<space where state.used.insert(padded(number)).inserted { return padded(number) }
            state.used = state.used.filter { $0.count != length }
            let fresh = padded(Int.random(in: 0..<space, using: &state.random))
            state.used.insert(fresh)
            return fresh
        }
    }
}
