import Foundation

/// The one date path of Notepress: an instant as a date and time of the proleptic Gregorian
/// calendar in UTC, as ISO 8601 (ISO 8601-1:2019 §4.3.2, "Gregorian calendar") and RFC 3339
/// define it, and the parser of front matter's `created` values. Every reader and writer goes
/// through it; nothing formats dates with Foundation's `Calendar`, `DateFormatter` or
/// `ISO8601DateFormatter`, whose Gregorian calendar switches to the Julian one before
/// 1582-10-15 (so `1500-03-01` came out as `1500-02-20`).
///
/// Arithmetic, no tables: days since 1970-01-01 and back with Howard Hinnant's `days_from_civil`
/// and `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms", 2013), exact for every
/// year an `Int` can hold.
///
/// Precision: milliseconds. An instant is rounded to the nearest millisecond once, when it is
/// split (``init(_:)``); fractional seconds are written with one to three digits, trailing zeros
/// dropped, and not at all when zero (`10:20:30.25Z`, `10:20:30Z`). A `Date` holds a millisecond
/// exactly over the years 0000–9999 (a `Double` of seconds has about 8 µs resolution at year 1).
package struct CivilDateTime: Sendable, Equatable, Hashable {
    /// The proleptic Gregorian year (astronomical numbering: year 0 is 1 BC).
    package var year: Int
    /// 1–12.
    package var month: Int
    /// 1–31.
    package var day: Int
    /// 0–23.
    package var hour: Int
    /// 0–59.
    package var minute: Int
    /// 0–59 (no leap seconds: `Date` has none).
    package var second: Int
    /// 0–999.
    package var millisecond: Int

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.millisecond = millisecond
    }

    /// `date` in UTC, rounded to the nearest millisecond. Instants beyond ±2.8 × 10¹¹ years (and
    /// non-finite ones) are clamped there.
    package init(_ date: Date) {
        let t = date.timeIntervalSince1970 * 1000
        let ms = t.isFinite ? Int64(max(min(t.rounded(), 9.0e18), -9.0e18)) : 0
        var days = Int(ms / 86_400_000)
        var rest = Int(ms % 86_400_000)
        if rest < 0 { rest += 86_400_000; days -= 1 }
        (year, month, day) = Self.civil(fromDays: days)
        hour = rest / 3_600_000
        minute = rest / 60_000 % 60
        second = rest / 1000 % 60
        millisecond = rest % 1000
    }

    /// The instant (UTC).
    package var date: Date {
        let seconds = Self.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
    }

    // MARK: Text

    /// `YYYY-MM-DD` (ISO 8601 calendar date, extended format). Years outside 0000–9999 take a
    /// sign and at least four digits (ISO 8601 expanded representation): `-0001-12-31`, `+10000-01-01`.
    package var isoDate: String {
        let y = year >= 0 && year <= 9999 ? Self.pad(year, 4) : (year < 0 ? "-" : "+") + Self.pad(abs(year), 4)
        return y + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
    }

    /// `HH:MM:SS` with the milliseconds when not zero (`.25`, `.125`; trailing zeros dropped).
    package var isoTime: String {
        var s = Self.pad(hour, 2) + ":" + Self.pad(minute, 2) + ":" + Self.pad(second, 2)
        if millisecond != 0 {
            var f = Self.pad(millisecond, 3)
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`: RFC 3339 `date-time` in UTC (also an HTML "valid global date
    /// and time string" and an `xsd:dateTime`).
    package var iso8601: String { isoDate + "T" + isoTime + "Z" }

    /// English month names, January first (the text of date badges and man page dates).
    package static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]

    /// `29 November 2026`: day, English month name, year (the RTF date badge, TEI `date` content).
    package var longDate: String { "\(day) \(Self.monthNames[month - 1]) \(year)" }

    /// ``monthNames`` shortened to three letters (`Jan` … `Dec`).
    package static let monthAbbreviations = monthNames.map { String($0.prefix(3)) }

    /// `n` in decimal with leading zeros to `width` digits (`n` ≥ 0).
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    // MARK: Calendar arithmetic

    /// Whether `year` is a leap year of the Gregorian calendar: divisible by 4, except centuries
    /// not divisible by 400.
    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days of `month` (1–12) in `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (negative before it), proleptic Gregorian
    /// (Hinnant's `days_from_civil`). `month` 1–12, `day` 1–31.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400                                  // [0, 399]
        let mp = (month + 9) % 12                                // March = 0
        let doy = (153 * mp + 2) / 5 + day - 1                   // [0, 365]
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy          // [0, 146096]
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01, proleptic Gregorian (Hinnant's `civil_from_days`).
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097                                          // [0, 146096]
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365    // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)                    // [0, 365]
        let mp = (5 * doy + 2) / 153                                         // [0, 11]
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: Parsing

    /// Parses the `created` forms front matter accepts (a profile of ISO 8601 / RFC 3339 and
    /// YAML 1.1's timestamp): `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH[:]MM]` or the
    /// same with a space for `T` (and an optional space before the zone); `t`/`z` in lower case
    /// too. No zone means UTC. Surrounding spaces are ignored.
    ///
    /// Rejects what is not a real date or time: month 13, `2024-02-30`, `1900-02-29` (1900 is no
    /// leap year), hour 24, minute or second 60, zone hours above 23. Returns `nil` then.
    /// The instant must also fall in ``acceptedYears`` (in UTC): `0000-01-01` is refused in every
    /// format alike, as XML Schema (TEI's `@when`) has no year 0.
    /// Fractions beyond milliseconds are kept in the `Date` but written rounded (see the type).
    package static func parse(_ string: String) -> Date? {
        let b = Array(string.trimmingHorizontalWhitespace().utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func eat(_ c: UInt8) -> Bool {
            if i < b.count && b[i] == c { i += 1; return true }
            return false
        }
        guard let year = digits(4), eat(UInt8(ascii: "-")), let month = digits(2), eat(UInt8(ascii: "-")),
              let day = digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 0x20 else { return nil }
            i += 1
            guard let h = digits(2), eat(UInt8(ascii: ":")), let m = digits(2) else { return nil }
            hour = h; minute = m
            if eat(UInt8(ascii: ":")) {
                guard let s = digits(2) else { return nil }
                second = s
                if eat(UInt8(ascii: ".")) {
                    // Up to nine digits as an integer over a power of ten (0.25 is 25/100, exact).
                    var numerator = 0, denominator = 1
                    let start = i
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                        if denominator < 1_000_000_000 { numerator = numerator * 10 + Int(b[i] - 0x30); denominator *= 10 }
                        i += 1
                    }
                    if i == start { return nil }
                    fraction = Double(numerator) / Double(denominator)
                }
            }
            guard hour <= 23, minute <= 59, second <= 59 else { return nil }
            if i < b.count {
                if b[i] == 0x20 { i += 1 }  // YAML allows a space before the zone
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                    i += 1
                } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                    let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard let zh = digits(2), zh <= 23 else { return nil }
                    var zm = 0
                    if eat(UInt8(ascii: ":")) {
                        guard let m = digits(2) else { return nil }
                        zm = m
                    } else if i < b.count {
                        guard let m = digits(2) else { return nil }
                        zm = m
                    }
                    guard zm <= 59 else { return nil }
                    offset = sign * (zh * 3600 + zm * 60)
                } else {
                    return nil
                }
                guard i == b.count else { return nil }
            }
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return accepted(Date(timeIntervalSince1970: Double(seconds) + fraction))
    }

    /// The years (UTC) a parsed date may fall in: 0001–9999, the four-digit years of XML
    /// Schema 1.0's `xs:dateTime` (no year 0000) that every writer can put down the same way.
    package static let acceptedYears = 1...9999

    /// `date` when its UTC year is in ``acceptedYears``, else `nil`: the one rule for every
    /// format (a date TEI cannot write is refused for HTML, man, JSON and ANSI too).
    static func accepted(_ date: Date) -> Date? {
        acceptedYears.contains(CivilDateTime(date).year) ? date : nil
    }

    /// Parses TiddlyWiki's date fields (`created`, `modified` of `.tid` files): `YYYYMMDDhhmmssSSS`
    /// in UTC, as TiddlyWiki writes them (`$tw.utils.stringifyDate`, 17 digits) and reads them
    /// (`$tw.utils.parseDate`, boot/boot.js: the time parts may be left off, and the milliseconds
    /// after the seconds are an integer of one to three digits, so `…5` is 5 ms). Accepts 8, 10,
    /// 12, 14, 15, 16 or 17 digits, surrounding spaces ignored.
    ///
    /// Stricter than TiddlyWiki, whose JavaScript `Date.UTC` rolls `20240230` over into March:
    /// a date or time that does not exist (month 13, `20240230`, hour 24) returns `nil`, as
    /// ``parse(_:)`` does; so does year 0000 (``acceptedYears``).
    package static func parseTiddlyWiki(_ string: String) -> Date? {
        let b = Array(string.trimmingHorizontalWhitespace().utf8)
        guard [8, 10, 12, 14, 15, 16, 17].contains(b.count), b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func number(_ range: Range<Int>) -> Int {
            range.clamped(to: 0..<b.count).reduce(0) { $0 * 10 + Int(b[$1] - 0x30) }
        }
        let year = number(0..<4), month = number(4..<6), day = number(6..<8)
        let hour = number(8..<10), minute = number(10..<12), second = number(12..<14)
        let millisecond = number(14..<17)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        return accepted(CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                      millisecond: millisecond).date)
    }
}
