package io.rubinbft.net.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.TestIdentities;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The handshake: keys agree, MACs bind direction, and no altered HELLO is ever accepted. */
class HandshakeTest {

  private static final HelloParameters PARAMETERS = new HelloParameters(32, 65536, 1 << 24);
  private static final int CAPACITY = 4096;

  private static Identity alice;
  private static Identity bob;

  @BeforeAll
  static void identities() {
    alice = TestIdentities.create("alice");
    bob = TestIdentities.create("bob");
  }

  private static Handshake handshake(Identity self, Role role, Identity expected) {
    return new Handshake(
        self, role, PeerAuthenticator.pinned(List.of(expected.certificate())), new SecureRandom());
  }

  private static UnsafeBuffer hello(Handshake handshake, int[] length) {
    UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    length[0] = handshake.writeHello(buffer, 0, CAPACITY, PARAMETERS);
    return buffer;
  }

  @Test
  void bothSidesDeriveKeysThatOnlyWorkInTheirDirection() throws HandshakeRejected {
    Handshake initiator = handshake(alice, Role.INITIATOR, bob);
    Handshake acceptor = handshake(bob, Role.ACCEPTOR, alice);
    int[] initiatorLength = new int[1];
    int[] acceptorLength = new int[1];
    UnsafeBuffer fromInitiator = hello(initiator, initiatorLength);
    UnsafeBuffer fromAcceptor = hello(acceptor, acceptorLength);

    Session atAcceptor = acceptor.acceptHello(fromInitiator, 0, initiatorLength[0]);
    Session atInitiator = initiator.acceptHello(fromAcceptor, 0, acceptorLength[0]);

    UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(200));
    frame.setMemory(0, 200, (byte) 7);
    atInitiator.sendMac().seal(frame, 200);
    assertThat(atAcceptor.receiveMac().verify(frame, 200)).isTrue();
    assertThat(atInitiator.receiveMac().verify(frame, 200)).as("reflected back").isFalse();
    frame.putByte(10, (byte) 8);
    assertThat(atAcceptor.receiveMac().verify(frame, 200)).as("altered").isFalse();
    assertThat(atAcceptor.peerCertificate()).isEqualTo(alice.certificate());
    assertThat(atAcceptor.peerParameters()).isEqualTo(PARAMETERS);
  }

  @Test
  void refusesAPeerWithTheSameRole() {
    Handshake one = handshake(alice, Role.INITIATOR, bob);
    Handshake other = handshake(bob, Role.INITIATOR, alice);
    int[] length = new int[1];
    UnsafeBuffer fromOther = hello(other, length);

    assertThatThrownBy(() -> one.acceptHello(fromOther, 0, length[0]))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessageContaining("role");
  }

  @Test
  void refusesACertificateTheAuthenticatorRefuses() {
    Handshake strict =
        new Handshake(
            bob,
            Role.ACCEPTOR,
            presented -> Optional.of("not in the consenter set"),
            new SecureRandom());
    int[] length = new int[1];
    UnsafeBuffer fromAlice = hello(handshake(alice, Role.INITIATOR, bob), length);

    assertThatThrownBy(() -> strict.acceptHello(fromAlice, 0, length[0]))
        .isInstanceOf(HandshakeRejected.class)
        .hasMessage("not in the consenter set");
  }

  @Test
  void rejectsEveryAlteredOrTruncatedHello() {
    long seed = 0xBADC0DEL;
    Random random = new Random(seed);
    Handshake acceptor = handshake(bob, Role.ACCEPTOR, alice);
    int[] length = new int[1];
    UnsafeBuffer original = hello(handshake(alice, Role.INITIATOR, bob), length);
    for (int trial = 0; trial < 300; trial++) {
      UnsafeBuffer altered = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
      altered.putBytes(0, original, 0, length[0]);
      int alteredLength = length[0];
      if (random.nextBoolean()) {
        int at = random.nextInt(length[0]);
        altered.putByte(at, (byte) (altered.getByte(at) ^ (1 + random.nextInt(255))));
      } else {
        alteredLength = random.nextInt(length[0]);
      }
      int finalLength = alteredLength;
      assertThatThrownBy(() -> acceptor.acceptHello(altered, 0, finalLength))
          .as("seed %d trial %d", seed, trial)
          .isInstanceOf(HandshakeRejected.class);
    }
  }
}
