import Foundation
import Testing
@testable import PetSpotModel

@Suite("Calendar dates")
struct CalendarDateTests {
    @Test("parses and formats YYYY-MM-DD strictly")
    func isoRoundTrip() {
        #expect(CalendarDate(iso: "2026-11-21")?.isoString == "2026-11-21")
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2025-02-29") == nil)
        #expect(CalendarDate(iso: "2025-13-01") == nil)
        #expect(CalendarDate(iso: "2025-00-10") == nil)
        #expect(CalendarDate(iso: "2025/01/01") == nil)
        #expect(CalendarDate(iso: "25-01-01") == nil)
        #expect(CalendarDate(year: 5, month: 1, day: 2)?.isoString == "0005-01-02")
    }

    @Test("day arithmetic round-trips across eras")
    func dayArithmetic() {
        for days in stride(from: -800_000, through: 2_900_000, by: 9_973) {
            #expect(CalendarDate(daysSinceUnixEpoch: days).daysSinceUnixEpoch == days)
        }
        #expect(CalendarDate(daysSinceUnixEpoch: 0).isoString == "1970-01-01")
        #expect(CalendarDate(iso: "2024-03-01")!.adding(days: -1).isoString == "2024-02-29")
    }

    @Test("today is the wall-clock date in the user's zone, near midnight")
    func todayAcrossZones() throws {
        // 2026-11-21T23:30:00Z
        let instant = try #require(ReportContext.parseInstant("2026-11-21T23:30:00Z"))
        #expect(CalendarDate.today(in: TimeZone(identifier: "UTC")!, now: instant).isoString == "2026-11-21")
        #expect(CalendarDate.today(in: TimeZone(identifier: "Europe/Warsaw")!, now: instant).isoString == "2026-11-22")
        #expect(CalendarDate.today(in: TimeZone(identifier: "Pacific/Kiritimati")!, now: instant).isoString == "2026-11-22")
        #expect(CalendarDate.today(in: TimeZone(identifier: "Pacific/Pago_Pago")!, now: instant).isoString == "2026-11-21")
        let justAfter = try #require(ReportContext.parseInstant("2026-11-22T00:00:00Z"))
        #expect(CalendarDate.today(in: TimeZone(identifier: "America/Los_Angeles")!, now: justAfter).isoString == "2026-11-21")
        #expect(CalendarDate.today(in: TimeZone(identifier: "Asia/Kolkata")!, now: justAfter).isoString == "2026-11-22")
    }

    @Test("date rule: today allowed, tomorrow refused, in the user's zone")
    func dateRule() throws {
        let rule = ReportDateRule()
        let noon = try #require(ReportContext.parseInstant("2026-11-21T12:00:00Z"))
        let nearMidnight = try #require(ReportContext.parseInstant("2026-11-21T23:30:00Z"))
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let newYork = TimeZone(identifier: "America/New_York")!
        let nov20 = CalendarDate(iso: "2026-11-20")!
        let nov21 = CalendarDate(iso: "2026-11-21")!
        let nov22 = CalendarDate(iso: "2026-11-22")!
        // At noon UTC every zone near Europe/America agrees on the date.
        #expect(rule.isAllowed(nov21, now: noon, timeZone: warsaw))
        #expect(!rule.isAllowed(nov22, now: noon, timeZone: warsaw))
        // West of UTC before midnight: today (the 21st) is allowed, tomorrow is not.
        #expect(rule.isAllowed(nov21, now: nearMidnight, timeZone: newYork))
        #expect(!rule.isAllowed(nov22, now: nearMidnight, timeZone: newYork))
        // After UTC midnight, New York is still on the 21st: the 22nd is refused in the user's zone.
        let afterUTCMidnight = try #require(ReportContext.parseInstant("2026-11-22T03:00:00Z"))
        #expect(rule.isAllowed(nov21, now: afterUTCMidnight, timeZone: newYork))
        #expect(!rule.isAllowed(nov22, now: afterUTCMidnight, timeZone: newYork))
        #expect(rule.isAllowed(nov20, now: nearMidnight, timeZone: warsaw))
    }

    @Test("east of UTC after local midnight, the user's today is tomorrow for the backend: refused")
    func dateRuleEastOfUTC() throws {
        let rule = ReportDateRule()
        // 00:30 on the 22nd in Warsaw and 13:30 on the 22nd in Kiritimati are still the 21st in UTC.
        let nearMidnight = try #require(ReportContext.parseInstant("2026-11-21T23:30:00Z"))
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!
        let nov21 = CalendarDate(iso: "2026-11-21")!
        let nov22 = CalendarDate(iso: "2026-11-22")!
        #expect(CalendarDate.today(in: warsaw, now: nearMidnight) == nov22)
        #expect(!rule.isAllowed(nov22, now: nearMidnight, timeZone: warsaw))
        #expect(rule.isAllowed(nov21, now: nearMidnight, timeZone: warsaw))
        #expect(!rule.isAllowed(nov22, now: nearMidnight, timeZone: kiritimati))
        #expect(ReportDateRule.latestAllowedDate(now: nearMidnight, timeZone: kiritimati) == nov21)
        // Once UTC reaches the 22nd, the 22nd is allowed everywhere it is today.
        let afterUTCMidnight = try #require(ReportContext.parseInstant("2026-11-22T00:00:00Z"))
        #expect(rule.isAllowed(nov22, now: afterUTCMidnight, timeZone: warsaw))
    }

    @Test("instants parse with offsets and fractions; format in UTC")
    func instants() throws {
        let a = try #require(ReportContext.parseInstant("2026-11-21T22:30:00Z"))
        let b = try #require(ReportContext.parseInstant("2026-11-21T23:30:00.000+01:00"))
        #expect(a == b)
        #expect(ReportContext.formatInstant(a) == "2026-11-21T22:30:00Z")
        #expect(ReportContext.parseInstant("2026-11-21 22:30:00Z") == nil)
        #expect(ReportContext.parseInstant("2026-11-21T22:30:00") == nil)
        #expect(ReportContext.parseInstant("2026-11-21T25:30:00Z") == nil)
    }
}
