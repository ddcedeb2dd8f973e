package io.rubinbft.net.security;

import static io.rubinbft.net.TestIdentities.alice;
import static io.rubinbft.net.TestIdentities.bob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.frame.FrameDescriptor;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The handshake: keys agree and bind direction, the AUTH signature binds both HELLOs (both nonces,
 * keys, certificates, transports), and no altered, replayed or reflected handshake authenticates.
 */
class HandshakeTest {

  private static final HelloParameters PARAMETERS = new HelloParameters(32, 65536, 1 << 24);
  private static final int CAPACITY = 4096;
  private static final String TRANSPORT = "tcp";

  private static Handshake handshake(Identity self, Role role, Identity expected) {
    return handshake(self, role, expected, TRANSPORT);
  }

  private static Handshake handshake(
      Identity self, Role role, Identity expected, String transport) {
    return new Handshake(
        self,
        role,
        PeerAuthenticator.pinned(List.of(expected.certificate())),
        new SecureRandom(),
        transport);
  }

  /** A payload as a buffer and its length. */
  private record Payload(UnsafeBuffer buffer, int length) {}

  private static Payload hello(Handshake handshake) {
    UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    return new Payload(buffer, handshake.writeHello(buffer, 0, CAPACITY, PARAMETERS));
  }

  private static Payload auth(Handshake handshake) {
    UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    return new Payload(buffer, handshake.writeAuth(buffer, 0, CAPACITY));
  }

  private static Session accept(Handshake handshake, Payload hello) throws HandshakeRejected {
    return handshake.acceptHello(hello.buffer(), 0, hello.length());
  }

  private static void acceptAuth(Handshake handshake, Payload auth) throws HandshakeRejected {
    handshake.acceptAuth(auth.buffer(), 0, auth.length());
  }

  /** A sealed frame of {@code length} bytes with sequence 1 and a payload of 7s. */
  private static UnsafeBuffer sealedBy(FrameCipher cipher, int length) {
    UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    frame.setMemory(0, length, (byte) 7);
    frame.putLong(FrameDescriptor.SEQUENCE_OFFSET, 1);
    cipher.seal(frame, length);
    return frame;
  }

  @Test
  void bothSidesAuthenticateAndDeriveKeysThatOnlyWorkInTheirDirection() throws HandshakeRejected {
    Handshake initiator = handshake(alice(), Role.INITIATOR, bob());
    Handshake acceptor = handshake(bob(), Role.ACCEPTOR, alice());
    Payload fromInitiator = hello(initiator);
    Payload fromAcceptor = hello(acceptor);

    Session atAcceptor = accept(acceptor, fromInitiator);
    Session atInitiator = accept(initiator, fromAcceptor);
    acceptAuth(acceptor, auth(initiator));
    acceptAuth(initiator, auth(acceptor));

    UnsafeBuffer frame = sealedBy(atInitiator.sendCipher(), 200);
    UnsafeBuffer copy = new UnsafeBuffer(ByteBuffer.allocateDirect(200));
    copy.putBytes(0, frame, 0, 200);
    assertThat(atInitiator.receiveCipher().open(copy, 200)).as("reflected back").isFalse();
    assertThat(atAcceptor.receiveCipher().open(frame, 200)).isTrue();
    assertThat(frame.getByte(FrameDescriptor.HEADER_LENGTH)).isEqualTo((byte) 7);
    assertThat(atAcceptor.peerCertificate()).isEqualTo(alice().certificate());
    assertThat(atAcceptor.peerParameters()).isEqualTo(PARAMETERS);
  }

  /**
   * Attack: a recorded handshake of alice's replayed to bob on a new connection. The HELLO parses
   * (it is alice's, and alice is expected), but alice's AUTH signed the nonce of bob's earlier
   * HELLO, not the fresh one: refused. (Even a replayer with its own ephemeral key, who can seal
   * the old AUTH under the new key, gets no further: it is the signature that fails.)
   */
  @Test
  void aReplayedAuthFailsBecauseItsSignatureCoversTheOldNonces() throws HandshakeRejected {
    Handshake recordedAlice = handshake(alice(), Role.INITIATOR, bob());
    Handshake firstBob = handshake(bob(), Role.ACCEPTOR, alice());
    Payload alicesHello = hello(recordedAlice);
    accept(recordedAlice, hello(firstBob));
    Payload alicesAuth = auth(recordedAlice);
    accept(firstBob, alicesHello);
    acceptAuth(firstBob, alicesAuth);

    Handshake laterBob = handshake(bob(), Role.ACCEPTOR, alice());
    hello(laterBob);
    accept(laterBob, alicesHello);

    assertThatThrownBy(() -> acceptAuth(laterBob, alicesAuth))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessageContaining("AUTH signature does not verify");
  }

  @Test
  void aReflectedAuthFails() throws HandshakeRejected {
    Handshake initiator = handshake(alice(), Role.INITIATOR, alice());
    Handshake acceptor = handshake(alice(), Role.ACCEPTOR, alice());
    Payload fromInitiator = hello(initiator);
    accept(initiator, hello(acceptor));
    accept(acceptor, fromInitiator);

    // The same identity on both ends: only the role in the signed bytes tells the AUTHs apart.
    assertThatThrownBy(() -> acceptAuth(initiator, auth(initiator)))
        .isInstanceOf(HandshakeRejected.class);
  }

  @Test
  void refusesAPeerOfAnotherTransport() {
    Handshake overTcp = handshake(bob(), Role.ACCEPTOR, alice(), "tcp");
    hello(overTcp);
    Payload overVerbs = hello(handshake(alice(), Role.INITIATOR, bob(), "verbs"));

    assertThatThrownBy(() -> accept(overTcp, overVerbs))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessageContaining("transport is \"verbs\"");
  }

  @Test
  void refusesAPeerWithTheSameRole() {
    Handshake one = handshake(alice(), Role.INITIATOR, bob());
    hello(one);
    Payload fromOther = hello(handshake(bob(), Role.INITIATOR, alice()));

    assertThatThrownBy(() -> accept(one, fromOther))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessageContaining("role");
  }

  @Test
  void refusesACertificateTheAuthenticatorRefuses() {
    Handshake strict =
        new Handshake(
            bob(),
            Role.ACCEPTOR,
            presented -> Optional.of("not in the consenter set"),
            new SecureRandom(),
            TRANSPORT);
    hello(strict);
    Payload fromAlice = hello(handshake(alice(), Role.INITIATOR, bob()));

    assertThatThrownBy(() -> accept(strict, fromAlice))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessage("not in the consenter set");
  }

  /**
   * Attack: alter any byte of alice's HELLO on the way (a nonce, a key, a window size) or cut it
   * short. Either the HELLO is refused outright, or alice's genuine AUTH (over what she sent) no
   * longer verifies over what bob received.
   */
  @Test
  void noAlteredOrTruncatedHelloAuthenticates() throws HandshakeRejected {
    long seed = 0xBADC0DEL;
    Random random = new Random(seed);
    for (int trial = 0; trial < 200; trial++) {
      Handshake sender = handshake(alice(), Role.INITIATOR, bob());
      Handshake receiver = handshake(bob(), Role.ACCEPTOR, alice());
      Payload original = hello(sender);
      accept(sender, hello(receiver));
      Payload genuineAuth = auth(sender);
      UnsafeBuffer altered = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
      altered.putBytes(0, original.buffer(), 0, original.length());
      int alteredLength = original.length();
      if (random.nextBoolean()) {
        int at = random.nextInt(original.length());
        altered.putByte(at, (byte) (altered.getByte(at) ^ (1 + random.nextInt(255))));
      } else {
        alteredLength = random.nextInt(original.length());
      }
      Payload received = new Payload(altered, alteredLength);

      assertThatThrownBy(
              () -> {
                accept(receiver, received);
                acceptAuth(receiver, genuineAuth);
              })
          .as("seed %d trial %d", seed, trial)
          .isInstanceOf(HandshakeRejected.class);
    }
  }
}
