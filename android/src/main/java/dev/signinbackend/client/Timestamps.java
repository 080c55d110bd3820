package dev.signinbackend.client;

/**
 * ISO-8601 UTC timestamps as the contract writes them ({@code 2026-03-01T12:00:00Z}, with or
 * without fractional seconds, {@code Z} or a numeric offset), to and from epoch milliseconds.
 * Written here because {@code java.time} arrived on Android only with API 26.
 */
final class Timestamps {
    private Timestamps() {}

    /** Epoch milliseconds, or -1 when {@code text} is not such a timestamp. */
    static long parse(String text) {
        if (text == null || text.length() < 20 || text.length() > 40) {
            return -1;
        }
        try {
            int year = digits(text, 0, 4);
            expect(text, 4, '-');
            int month = digits(text, 5, 2);
            expect(text, 7, '-');
            int day = digits(text, 8, 2);
            char t = text.charAt(10);
            if (t != 'T' && t != 't') {
                return -1;
            }
            int hour = digits(text, 11, 2);
            expect(text, 13, ':');
            int minute = digits(text, 14, 2);
            expect(text, 16, ':');
            int second = digits(text, 17, 2);
            int i = 19;
            long millis = 0;
            if (i < text.length() && text.charAt(i) == '.') {
                int start = ++i;
                while (i < text.length() && Character.isDigit(text.charAt(i))) {
                    i++;
                }
                if (i == start || i - start > 9) {
                    return -1;
                }
                String fraction = (text.substring(start, i) + "00").substring(0, 3);
                millis = Integer.parseInt(fraction);
            }
            long offsetMinutes;
            char zone = text.charAt(i);
            if ((zone == 'Z' || zone == 'z') && i + 1 == text.length()) {
                offsetMinutes = 0;
            } else if ((zone == '+' || zone == '-') && i + 6 == text.length()) {
                int oh = digits(text, i + 1, 2);
                expect(text, i + 3, ':');
                int om = digits(text, i + 4, 2);
                if (oh > 23 || om > 59) {
                    return -1;
                }
                offsetMinutes = (zone == '+' ? 1 : -1) * (oh * 60L + om);
            } else {
                return -1;
            }
            if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59
                    || second > 60) {
                return -1;
            }
            long days = daysFromCivil(year, month, day);
            long seconds = days * 86_400L + hour * 3_600L + minute * 60L + Math.min(second, 59);
            return (seconds - offsetMinutes * 60L) * 1_000L + millis;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return -1;
        }
    }

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC. */
    static String format(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1_000L);
        int millis = (int) Math.floorMod(epochMillis, 1_000L);
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        long[] civil = civilFromDays(days);
        return String.format(java.util.Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", civil[0], civil[1], civil[2],
                secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, millis);
    }

    private static int digits(String text, int start, int count) {
        int value = 0;
        for (int i = start; i < start + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not a digit");
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static void expect(String text, int index, char c) {
        if (text.charAt(index) != c) {
            throw new IllegalArgumentException("unexpected character");
        }
    }

    private static int daysInMonth(int year, int month) {
        if (month == 2) {
            boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            return leap ? 29 : 28;
        }
        return (month == 4 || month == 6 || month == 9 || month == 11) ? 30 : 31;
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian calendar).
    private static long daysFromCivil(long year, long month, long day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400L);
        long yoe = y - era * 400;
        long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    private static long[] civilFromDays(long days) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097L);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return new long[] {year, month, day};
    }
}
