//! `Retry-After` (RFC 9110 § 10.2.3): `delay-seconds` or an `HTTP-date` (§ 5.6.7, all three
//! formats a recipient must accept). The core reads no clock: an HTTP-date is measured against the
//! response's own `Date` header when it has one, else against the wall-clock time the driver
//! passed in ([`super::Session::set_wall_clock`]).

use crate::proto::http::{self, names, ResponseHead};

/// The delay a response's `Retry-After` asks for, in milliseconds; `None` when it has none, it
/// cannot be read, or an HTTP-date has nothing to be measured against. A past date is 0 ms.
/// `wall_ms` is the current Unix time in milliseconds, when known.
pub(super) fn delay_ms(head: &ResponseHead, wall_ms: Option<u64>) -> Option<u64> {
    if let Some(ms) = http::retry_after_ms(head) {
        return Some(ms);
    }
    let at = http_date_ms(head.header(names::RETRY_AFTER)?)?;
    let now = head
        .header(names::DATE)
        .and_then(http_date_ms)
        .or(wall_ms)?;
    Some(at.saturating_sub(now))
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// An HTTP-date as Unix milliseconds: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete
/// RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`).
pub(super) fn http_date_ms(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some((day, rest)) = s.split_once(", ") {
        let parts: Vec<&str> = rest.split(' ').collect();
        return match parts.as_slice() {
            // IMF-fixdate: day-name "," SP day SP month SP year SP time-of-day SP "GMT"
            [dd, mon, year, time, "GMT"] if DAYS.contains(&day) => {
                to_unix_ms(number(dd, 2)?, month(mon)?, number(year, 4)?, time)
            }
            // rfc850-date: day-name-l "," SP day "-" month "-" 2DIGIT SP time-of-day SP "GMT"
            [date, time, "GMT"] if LONG_DAYS.contains(&day) => {
                let (dd, mon, yy) = split3(date, '-')?;
                let yy = number(yy, 2)?;
                // RFC 9110 § 5.6.7: a two-digit year that looks more than 50 years ahead is in
                // the past; without a clock, 70..99 are read as 19xx and 00..69 as 20xx.
                let year = if yy >= 70 { 1900 + yy } else { 2000 + yy };
                to_unix_ms(number(dd, 2)?, month(mon)?, year, time)
            }
            _ => None,
        };
    }
    // asctime-date: day SP month SP ( 2DIGIT / ( SP DIGIT )) SP time-of-day SP year
    let day = s.get(..3)?;
    if !DAYS.contains(&day) || s.get(3..4)? != " " {
        return None;
    }
    let mon = s.get(4..7)?;
    let dd = s.get(8..10)?.trim_start();
    if s.get(7..8)? != " " || s.get(10..11)? != " " {
        return None;
    }
    let time = s.get(11..19)?;
    if s.get(19..20)? != " " {
        return None;
    }
    let year = number(s.get(20..)?, 4)?;
    let dd = if dd.len() == 1 {
        number(dd, 1)?
    } else {
        number(dd, 2)?
    };
    to_unix_ms(dd, month(mon)?, year, time)
}

/// Exactly three parts separated by `sep`.
fn split3(s: &str, sep: char) -> Option<(&str, &str, &str)> {
    let mut p = s.split(sep);
    let out = (p.next()?, p.next()?, p.next()?);
    p.next().is_none().then_some(out)
}

/// Exactly `digits` ASCII digits.
fn number(s: &str, digits: usize) -> Option<u64> {
    if s.len() != digits || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn month(s: &str) -> Option<u64> {
    MONTHS.iter().position(|m| *m == s).map(|i| i as u64 + 1)
}

/// `hh:mm:ss` on the given day, as Unix milliseconds (days from the civil calendar).
fn to_unix_ms(day: u64, month: u64, year: u64, time: &str) -> Option<u64> {
    let (h, m, s) = split3(time, ':')?;
    let (h, m, s) = (number(h, 2)?, number(m, 2)?, number(s, 2)?);
    if !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 || year < 1970 {
        return None;
    }
    // Days since 1970-01-01 of a proleptic Gregorian date (the "days from civil" algorithm).
    let (y, mo) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(((days * 86_400) + h * 3600 + m * 60 + s) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1994-11-06T08:49:37Z, the RFC's example.
    const EXAMPLE: u64 = 784_111_777_000;

    #[test]
    fn the_three_date_formats_agree() {
        assert_eq!(http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT"), Some(EXAMPLE));
        assert_eq!(
            http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT"),
            Some(EXAMPLE)
        );
        assert_eq!(http_date_ms("Sun Nov  6 08:49:37 1994"), Some(EXAMPLE));
        assert_eq!(http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date_ms("Tue, 29 Feb 2028 23:59:59 GMT"),
            Some(1_835_481_599_000)
        );
    }

    #[test]
    fn malformed_dates_are_refused() {
        for bad in [
            "",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
            "Sun Nov  6 08:49:37",
            "tomorrow",
        ] {
            assert_eq!(http_date_ms(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn delays_from_seconds_or_dates() {
        let head = |pairs: &[(&str, &str)]| ResponseHead {
            status: 503,
            headers: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let ra = |v: &str| head(&[("retry-after", v)]);
        assert_eq!(delay_ms(&ra("2"), None), Some(2000));
        assert_eq!(delay_ms(&ra("-1"), Some(0)), None);
        assert_eq!(delay_ms(&ra("1.5"), Some(0)), None);
        assert_eq!(delay_ms(&head(&[]), Some(0)), None);
        let date = "Sun, 06 Nov 1994 08:49:40 GMT";
        // Measured against the response's Date header first, then the wall clock.
        let with_date = head(&[
            ("retry-after", date),
            ("date", "Sun, 06 Nov 1994 08:49:37 GMT"),
        ]);
        assert_eq!(delay_ms(&with_date, Some(0)), Some(3000));
        assert_eq!(delay_ms(&ra(date), Some(EXAMPLE + 1000)), Some(2000));
        assert_eq!(delay_ms(&ra(date), Some(EXAMPLE + 10_000)), Some(0));
        assert_eq!(delay_ms(&ra(date), None), None);
    }
}
