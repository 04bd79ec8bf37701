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
        let instant = try #require(ReportContext.parseInstant("2026-11-21T23:30:00Z"))
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let newYork = TimeZone(identifier: "America/New_York")!
        let nov21 = CalendarDate(iso: "2026-11-21")!
        let nov22 = CalendarDate(iso: "2026-11-22")!
        let nov23 = CalendarDate(iso: "2026-11-23")!
        #expect(rule.isAllowed(nov22, now: instant, timeZone: warsaw))
        #expect(!rule.isAllowed(nov23, now: instant, timeZone: warsaw))
        #expect(rule.isAllowed(nov21, now: instant, timeZone: newYork))
        #expect(!rule.isAllowed(nov22, now: instant, timeZone: newYork))
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
