package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Instances' presence in Redis: what lets a request take over the record of a killed instance's request. */
class InstancePresenceIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    @Test
    void anInstanceIsGoneOnceItsKeyIsAndNeverToItself() {
        InstancePresence first = new InstancePresence(redis.redis);
        InstancePresence second = new InstancePresence(redis.redis);
        first.runOnce();
        second.runOnce();
        Attempt ofFirst = first.nextAttempt();
        Attempt ofSecond = second.nextAttempt();

        assertThat(second.gone(ofFirst.id())).as("renewed a moment ago").isFalse();
        String key = Keys.instance(ofFirst.id().substring(0, ofFirst.id().indexOf('.')));
        assertThat(Long.parseLong(redis.server.command("TTL", key).substring(1)))
                .as("Redis expires it if the instance dies without a word")
                .isBetween(1L, InstancePresence.LEASE_SECONDS);

        first.stop();

        assertThat(second.gone(ofFirst.id())).as("stopped: its key is deleted").isTrue();
        assertThat(second.gone(ofSecond.id())).as("never its own").isFalse();
        assertThat(second.gone(Attempt.anonymous().id())).as("a holder naming no instance").isFalse();
        assertThat(second.gone("")).isFalse();
        second.stop();
    }
}
