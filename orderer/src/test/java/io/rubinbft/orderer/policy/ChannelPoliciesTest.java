package io.rubinbft.orderer.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.TestCa;
import java.security.GeneralSecurityException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The genesis block's policy tree evaluated over cryptogen's identities. */
class ChannelPoliciesTest {

  private static final ChannelPolicies POLICIES = GenesisChannel.policies();

  /** A signature by a cryptogen identity (its keystore key) over {@code data}. */
  static SignedData signedBy(String mspId, String org, String kind, String name, String data) {
    try {
      var key =
          new EcKeys(GenesisChannel.PROVIDER).privateKeyFromPem(Fixtures.signKey(org, kind, name));
      ByteString bytes = ByteString.copyFromUtf8(data);
      byte[] signature = new EcdsaSigner(GenesisChannel.PROVIDER, key).sign(bytes.toByteArray());
      return new SignedData(
          bytes,
          TestCa.serialized(mspId, TestCa.parse(Fixtures.signCert(org, kind, name))),
          ByteString.copyFrom(signature));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static SignedData org1(String kind, String name) {
    return signedBy("Org1MSP", "peerOrganizations/org1.example.com", kind, name, "hello " + name);
  }

  static SignedData orderer(String kind, String name) {
    return signedBy("OrdererMSP", "ordererOrganizations/example.com", kind, name, "hi " + name);
  }

  @Test
  void buildsThePathsTheOrdererNeeds() {
    assertThat(POLICIES.policy(PolicyPaths.CHANNEL_WRITERS))
        .containsInstanceOf(ImplicitMetaPolicy.class);
    assertThat(POLICIES.policy(PolicyPaths.CHANNEL_READERS))
        .containsInstanceOf(ImplicitMetaPolicy.class);
    assertThat(POLICIES.policy(PolicyPaths.BLOCK_VALIDATION))
        .containsInstanceOf(SignaturePolicy.class);
    assertThat(POLICIES.policy("/Channel/Application/Org1/Writers"))
        .containsInstanceOf(SignaturePolicy.class);
    assertThat(POLICIES.policy("/Channel/Nope")).isEmpty();
  }

  @Test
  void theRecordedTransactionsSatisfyWriters() {
    for (String name : List.of("tx-valid", "tx-stale-timestamp")) {
      SignedData signed = GenesisChannel.signedData(Fixtures.envelope(name));

      assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_WRITERS, List.of(signed)))
          .as(name)
          .isEqualTo(PolicyResult.satisfiedResult());
    }
  }

  @Test
  void aFlippedSignatureByteFailsWritersWithFabricsText() {
    SignedData signed = GenesisChannel.signedData(Fixtures.envelope("rejected-bad-signature"));

    assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_WRITERS, List.of(signed)).failure())
        .isEqualTo(
            "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
                + " requires 1 of the 'Writers' sub-policies to be satisfied");
  }

  @ParameterizedTest
  @CsvSource({
    "users, User1@org1.example.com, true, true",
    "users, Admin@org1.example.com, true, true",
    "peers, peer0.org1.example.com, false, true",
  })
  void org1IdentitiesAgainstWritersAndReaders(
      String kind, String name, boolean writer, boolean reader) {
    SignedData signed = org1(kind, name);

    assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_WRITERS, List.of(signed)).satisfied())
        .isEqualTo(writer);
    assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_READERS, List.of(signed)).satisfied())
        .isEqualTo(reader);
  }

  @Test
  void anOrdererMemberSatisfiesWritersThroughTheOrdererGroup() {
    SignedData signed = orderer("orderers", "orderer1.example.com");

    assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_WRITERS, List.of(signed)).satisfied())
        .isTrue();
    assertThat(POLICIES.evaluate("/Channel/Application/Writers", List.of(signed)).failure())
        .isEqualTo(
            "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
                + " requires 1 of the 'Writers' sub-policies to be satisfied");
  }

  @Test
  void channelAdminsNeedAMajorityOfBothGroups() {
    SignedData org1Admin = org1("users", "Admin@org1.example.com");
    SignedData ordererAdmin = orderer("users", "Admin@example.com");

    assertThat(POLICIES.evaluate("/Channel/Admins", List.of(org1Admin)).failure())
        .isEqualTo(
            "implicit policy evaluation failed - 1 sub-policies were satisfied, but this policy"
                + " requires 2 of the 'Admins' sub-policies to be satisfied");
    assertThat(POLICIES.evaluate("/Channel/Admins", List.of(org1Admin, ordererAdmin)).satisfied())
        .isTrue();
    assertThat(POLICIES.evaluate("/Channel/Orderer/Admins", List.of(ordererAdmin)).satisfied())
        .isTrue();
    assertThat(POLICIES.evaluate("/Channel/Orderer/Admins", List.of(org1Admin)).satisfied())
        .isFalse();
  }

  @Test
  void anIdentityFromAnUnknownCaSatisfiesNothing() throws GeneralSecurityException {
    TestCa.Issued stranger =
        TestCa.generate("ca.evil.example.com").issue("mallory", List.of("client"));
    ByteString data = ByteString.copyFromUtf8("payload");
    SignedData signed =
        new SignedData(
            data,
            TestCa.serialized("Org1MSP", stranger.certificate()),
            ByteString.copyFrom(
                new EcdsaSigner(GenesisChannel.PROVIDER, stranger.keys().getPrivate())
                    .sign(data.toByteArray())));

    assertThat(POLICIES.verifiedSigners(List.of(signed))).isEmpty();
    assertThat(POLICIES.evaluate(PolicyPaths.CHANNEL_WRITERS, List.of(signed)).satisfied())
        .isFalse();
  }

  @Test
  void aRepeatedSignerCountsOnce() {
    SignedData user = org1("users", "User1@org1.example.com");

    assertThat(POLICIES.verifiedSigners(List.of(user, user, user))).hasSize(1);
  }

  @Test
  void aMissingPolicyIsReportedNotThrown() {
    assertThat(POLICIES.evaluate("/Channel/Nope", List.of()).failure())
        .isEqualTo("could not find policy /Channel/Nope");
  }
}
