package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Claims of a lineage on a real broker: the first start wins, an ended start no longer counts. */
class LineageClaimsITCase {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void aSecondClaimOfALineageIsRefusedUntilTheFirstIsReleased() throws Exception {
        LineageClaims claims = claims("claims-a", Duration.ofMinutes(10));
        LineageClaims.Held first = claims.claim("job", true);

        assertThatThrownBy(() -> claims.claim("job", true))
                .isInstanceOf(LineageClaims.RefusedException.class)
                .hasMessageContaining("another start of this job claimed its lineage first (run "
                        + first.claim().run());
        LineageClaims.Held other = claims.claim("other-job", true);

        first.release();
        LineageClaims.Held second = claims.claim("job", true);
        assertThat(second.claim().run()).isNotEqualTo(first.claim().run());
        second.release();
        other.release();
    }

    @Test
    void aRefusedStartWithdrawsItsClaimAndDoesNotBlockTheNext() throws Exception {
        LineageClaims claims = claims("claims-b", Duration.ofMinutes(10));
        LineageClaims.Held first = claims.claim("job", false);
        assertThatThrownBy(() -> claims.claim("job", false)).isInstanceOf(LineageClaims.RefusedException.class);

        first.release();
        claims.claim("job", false).release();
    }

    @Test
    void aClaimOlderThanTheWindowNoLongerCounts() throws Exception {
        LineageClaims claims = claims("claims-c", Duration.ZERO);
        claims.claim("job", false);
        Thread.sleep(5); // the broker's append times of the two claims must differ

        claims.claim("job", false).release();
    }

    @Test
    void aLineageThatExtendsAnotherOneIsItsOwn() throws Exception {
        LineageClaims claims = claims("claims-d", Duration.ofMinutes(10));
        LineageClaims.Held parent = claims.claim("job", false);

        claims.claim("job/child", false).release();
        parent.release();
    }

    private static LineageClaims claims(String topic, Duration window) {
        Properties properties = new Properties();
        properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        return new LineageClaims(topic, properties, window);
    }
}
