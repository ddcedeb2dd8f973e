package io.rubinbft.net;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.security.HandshakeRejected;
import io.rubinbft.net.security.HelloParameters;
import org.junit.jupiter.api.Test;

/**
 * The limits a peer's HELLO may announce; the connection-level refusal is in the orderer's tests.
 */
class PeerLimitsTest {

  private static final ChannelConfig LOCAL = ChannelConfig.defaults(TestIdentities.create("local"));

  @Test
  void aPeerWithTheSameLimitsIsAccepted() {
    assertThatCode(
            () ->
                PeerLimits.check(
                    new HelloParameters(
                        LOCAL.receiveSlots(), LOCAL.slotBytes(), LOCAL.maxMessageBytes()),
                    LOCAL))
        .doesNotThrowAnyException();
  }

  @Test
  void aLargestMessageOfOneByteOrNegativeIsRefused() {
    for (int maxMessage : new int[] {1, 0, -1, Integer.MIN_VALUE, 1024 * 1024 - 1}) {
      assertThatThrownBy(
              () -> PeerLimits.check(new HelloParameters(32, 64 * 1024, maxMessage), LOCAL))
          .as("largest message %d", maxMessage)
          .isInstanceOf(HandshakeRejected.class)
          .hasMessageContaining("peer takes messages of " + maxMessage + " bytes");
    }
  }

  @Test
  void aSmallerLocalLimitLowersTheFloor() {
    ChannelConfig small =
        new ChannelConfig(TestIdentities.create("small"), 8, 8, 16 * 1024, 4096, 16);

    assertThatCode(() -> PeerLimits.check(new HelloParameters(8, 16 * 1024, 4096), small))
        .doesNotThrowAnyException();
  }

  @Test
  void absurdWindowsAndFramesAreRefused() {
    assertThatThrownBy(() -> PeerLimits.check(new HelloParameters(1, 64 * 1024, 1 << 24), LOCAL))
        .hasMessageContaining("peer offers 1 receive slots");
    assertThatThrownBy(
            () ->
                PeerLimits.check(new HelloParameters(Integer.MAX_VALUE, 64 * 1024, 1 << 24), LOCAL))
        .hasMessageContaining("receive slots");
    assertThatThrownBy(() -> PeerLimits.check(new HelloParameters(32, 100, 1 << 24), LOCAL))
        .hasMessageContaining("peer takes frames of 100 bytes");
  }
}
