import Foundation

/// The moment and place a report is made: the user's time zone and the current instant.
public struct ReportContext: Sendable, Hashable {
    /// The user's time zone (the device's).
    public var timeZone: TimeZone
    /// The instant of the check or submission.
    public var now: Date

    /// A context for a user in `timeZone` at the instant `now`.
    public init(timeZone: TimeZone, now: Date) {
        self.timeZone = timeZone
        self.now = now
    }

    /// The calendar date in the user's time zone at `now`.
    public var today: CalendarDate { CalendarDate.today(in: timeZone, now: now) }

    /// The latest date a report may carry now (see ``ReportDateRule``): the user's today, or
    /// yesterday in the hours east of UTC when their today is still tomorrow in UTC.
    public var latestReportDate: CalendarDate { ReportDateRule.latestAllowedDate(now: now, timeZone: timeZone) }
}
