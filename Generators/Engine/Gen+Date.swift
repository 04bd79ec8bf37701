import Foundation

extension Gen where Value == Date {
    /// A generator of instants as wall-clock dates and times in `timeZone`, shrinking toward `reference`.
    ///
    /// A value is recorded as a calendar-day offset from the reference's day (in
    /// `dayOffsets`, shrinking toward `0`) and a time of day in seconds (shrinking toward the
    /// reference's time of day), then resolved in `timeZone` with the Gregorian calendar. Wall
    /// times skipped by a daylight-saving change resolve as the calendar does (moved forward).
    /// The time of day is biased toward midnight, one second before midnight and noon,
    /// where date bugs live.
    /// - Parameters:
    ///   - timeZone: The zone whose calendar days and clock times are drawn.
    ///   - reference: The simplest instant; shrinking ends at its day and time of day.
    ///   - dayOffsets: The calendar days allowed, relative to the reference's day.
    public static func date(
        in timeZone: TimeZone, around reference: Date = Date(timeIntervalSince1970: 1_704_067_200),
        dayOffsets: ClosedRange<Int> = -3650...3650
    ) -> Gen<Date> {
        let calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar
        }()
        let referenceDay = calendar.startOfDay(for: reference)
        let referenceSecond = Swift.min(86_399, Swift.max(0, Int(reference.timeIntervalSince(referenceDay))))
        let days = Gen<Int>.integer(in: dayOffsets)
        let seconds = Gen<Int>.integer(in: 0...86_399, shrinkingToward: referenceSecond)
        return Gen { testCase in
            let offset = try days.draw(&testCase)
            let second = try seconds.draw(&testCase)
            let day = calendar.date(byAdding: .day, value: offset, to: referenceDay) ?? referenceDay
            var components = calendar.dateComponents([.era, .year, .month, .day], from: day)
            components.hour = second / 3600
            components.minute = second / 60 % 60
            components.second = second % 60
            return calendar.date(from: components) ?? day.addingTimeInterval(TimeInterval(second))
        }
    }
}
