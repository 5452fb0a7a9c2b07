package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.LineageClaims.Claim;
import io.blobingest.kafka.LineageClaims.Decision;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineageClaimsTest {

    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Claim MINE = new Claim("job", "mine", "here", 100, true, 1_000_000);

    @Test
    void anEarlierClaimWithinTheWindowIsAlive() {
        Claim earlier = new Claim("job", "a", "there", 7, false, MINE.timestamp() - 2_000);

        Decision decision = LineageClaims.decide(MINE, List.of(earlier), WINDOW, pid -> false);

        assertThat(decision.alive()).contains(earlier);
        assertThat(decision.ended()).isEmpty();
    }

    @Test
    void aLocalClaimOfThisHostWhoseProcessIsGoneHasEnded() {
        Claim crashed = new Claim("job", "a", "here", 7, true, MINE.timestamp() - 2_000);

        Decision decision = LineageClaims.decide(MINE, List.of(crashed), WINDOW, pid -> pid != 7);

        assertThat(decision.alive()).isEmpty();
        assertThat(decision.ended()).containsExactly(crashed);
    }

    @Test
    void aLocalClaimOfThisHostWhoseProcessRunsIsAlive() {
        Claim running = new Claim("job", "a", "here", 7, true, MINE.timestamp() - 2_000);

        assertThat(LineageClaims.decide(MINE, List.of(running), WINDOW, pid -> true)
                        .alive())
                .contains(running);
    }

    @Test
    void theProcessOfAnotherHostOrOfASubmittedJobDoesNotEndItsClaim() {
        Claim otherHost = new Claim("job", "a", "there", 7, true, MINE.timestamp() - 2_000);
        Claim submitted = new Claim("job", "b", "here", 8, false, MINE.timestamp() - 1_000);

        Decision decision = LineageClaims.decide(MINE, List.of(otherHost, submitted), WINDOW, pid -> false);

        assertThat(decision.alive()).contains(otherHost);
        assertThat(decision.ended()).isEmpty();
    }

    @Test
    void aClaimOlderThanTheWindowHasEndedWhateverItsProcess() {
        Claim old = new Claim("job", "a", "here", 7, true, MINE.timestamp() - WINDOW.toMillis() - 1);
        Claim atTheEdge = new Claim("job", "b", "there", 8, false, MINE.timestamp() - WINDOW.toMillis());

        Decision decision = LineageClaims.decide(MINE, List.of(old, atTheEdge), WINDOW, pid -> true);

        assertThat(decision.ended()).containsExactly(old);
        assertThat(decision.alive()).contains(atTheEdge);
    }
}
