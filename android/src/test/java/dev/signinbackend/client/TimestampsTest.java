package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ISO-8601 both ways, against java.time (the tests run on a JVM that has it; the library may not use it). */
class TimestampsTest {
    @Test
    void parsesTheContractsForms() {
        assertEquals(Instant.parse("2026-03-01T12:00:00Z").toEpochMilli(), Timestamps.parse("2026-03-01T12:00:00Z"));
        assertEquals(Instant.parse("2026-03-01T12:00:00.123Z").toEpochMilli(),
                Timestamps.parse("2026-03-01T12:00:00.123456Z"));
        assertEquals(Instant.parse("2026-03-01T10:30:00Z").toEpochMilli(), Timestamps.parse("2026-03-01T12:00:00+01:30"));
        assertEquals(Instant.parse("2024-02-29T23:59:59Z").toEpochMilli(), Timestamps.parse("2024-02-29T23:59:59Z"));
    }

    @Test
    void refusesWhatIsNotATimestamp() {
        for (String bad : new String[] {"", "tomorrow", "2026-02-30T00:00:00Z", "2026-03-01 12:00:00Z",
                "2026-03-01T12:00:00", "2026-13-01T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T12:00:00.Z"}) {
            assertEquals(-1, Timestamps.parse(bad), bad);
        }
    }

    @Test
    void roundTripsAgainstJavaTime() {
        Random random = new Random(26);
        for (int i = 0; i < 2_000; i++) {
            long millis = (long) (random.nextDouble() * 8_000_000_000_000L) - 1_000_000_000_000L;
            String text = Timestamps.format(millis);
            assertEquals(Instant.ofEpochMilli(millis).toString().replaceAll("(\\.\\d{3})?Z$", ""),
                    text.replaceAll("\\.\\d{3}Z$", ""));
            assertEquals(millis, Timestamps.parse(text));
        }
    }
}
