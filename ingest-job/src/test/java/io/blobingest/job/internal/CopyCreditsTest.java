package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How copies crossing {@code within-job} sharing's hop get their credits, and get them back. */
class CopyCreditsTest {

    private final CopyCredits credits = new CopyCredits(2);

    @Test
    void atMostTheLimitOfCopiesIsOnItsWayAndAFreedCreditIsKeptForTheLongestWaiting() {
        assertThat(credits.tryAcquire(0)).isTrue();
        assertThat(credits.tryAcquire(1)).isTrue();
        assertThat(credits.tryAcquire(1)).as("both credits are out").isFalse();
        assertThat(credits.tryAcquire(0)).isFalse();

        credits.returned();
        assertThat(credits.tryAcquire(0)).as("subtask 1 has waited longer").isFalse();
        assertThat(credits.tryAcquire(1)).isTrue();
        assertThat(credits.tryAcquire(0)).isFalse();
        credits.returned();
        assertThat(credits.tryAcquire(0)).isTrue();
    }

    @Test
    void aResetFreesEveryCreditAndAReturnCountsNoMoreThanTheLimit() {
        credits.tryAcquire(0);
        credits.tryAcquire(0);
        credits.tryAcquire(1);

        credits.reset();
        assertThat(credits.available()).isEqualTo(2);
        assertThat(credits.tryAcquire(0))
                .as("the waiting attempt is gone: nobody is ahead")
                .isTrue();

        credits.returned();
        credits.returned();
        assertThat(credits.available()).isEqualTo(2);
    }
}
