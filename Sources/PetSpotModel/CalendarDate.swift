import Foundation

/// A day on the Gregorian calendar, without a time or a time zone.
///
/// The report date is picked as a calendar date in the user's time zone and sent as that same
/// `YYYY-MM-DD`: keeping it as plain year/month/day rather than a `Date` instant rules out the
/// classic off-by-one where midnight in Warsaw becomes the previous day in UTC.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    // Stored compactly (six bytes) so that a date fits inline in a field value.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// The year, 1...9999 for dates made by the failable initializer.
    public var year: Int { Int(storedYear) }
    /// The month, 1...12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, 1...31.
    public var day: Int { Int(storedDay) }

    /// A date, if `year`-`month`-`day` exists on the Gregorian calendar (years 1-9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CalendarDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.init(unchecked: year, month, day)
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        storedYear = Int32(clamping: year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Parses exactly `YYYY-MM-DD` (ASCII digits) naming an existing date.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`, zero-padded.
    public var isoString: String {
        var bytes: [UInt8] = [0, 0, 0, 0, 0x2D, 0, 0, 0x2D, 0, 0]
        var value = year
        for index in stride(from: 3, through: 0, by: -1) {
            bytes[index] = UInt8(0x30 + value % 10)
            value /= 10
        }
        bytes[5] = UInt8(0x30 + month / 10)
        bytes[6] = UInt8(0x30 + month % 10)
        bytes[8] = UInt8(0x30 + day / 10)
        bytes[9] = UInt8(0x30 + day % 10)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { isoString }

    /// The calendar date that the wall clock shows at `now` in `timeZone`.
    public static func today(in timeZone: TimeZone, now: Date) -> CalendarDate {
        let offset = timeZone.secondsFromGMT(for: now)
        let localSeconds = Int((now.timeIntervalSince1970).rounded(.down)) + offset
        let days = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
        return CalendarDate(daysSinceUnixEpoch: days)
    }

    /// The date `days` after 1970-01-01 (negative: before).
    public init(daysSinceUnixEpoch days: Int) {
        // Howard Hinnant's civil-from-days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        self.init(unchecked: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceUnixEpoch: Int {
        Self.daysSinceUnixEpoch(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` on the proleptic Gregorian calendar, for any
    /// year and any day number (a day past the month's end counts on into the next month, as
    /// JavaScript's `Date` does); `month` must be 1...12.
    public static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDate {
        CalendarDate(daysSinceUnixEpoch: daysSinceUnixEpoch + count)
    }

    /// Days in `month` of `year` on the proleptic Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(isoString)
    }
}

/// The photo a user attached: its name, declared type and size, and its bytes when they are at
/// hand (the adapter protocol sends only the metadata; a submission needs the bytes).
public struct PhotoAttachment: Sendable, Hashable {
    /// The file's name.
    public var fileName: String
    /// The declared MIME type, e.g. `image/jpeg`.
    public var mimeType: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// The file's bytes; `nil` when only the metadata is known.
    public var contents: Data?

    /// An attachment described by its metadata only.
    public init(fileName: String, mimeType: String, byteCount: Int) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.contents = nil
    }

    /// An attachment with its bytes; `byteCount` is their count.
    public init(fileName: String, mimeType: String, contents: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.byteCount = contents.count
        self.contents = contents
    }
}
