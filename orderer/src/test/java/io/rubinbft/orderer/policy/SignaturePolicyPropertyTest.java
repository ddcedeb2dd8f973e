package io.rubinbft.orderer.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.msp.IdentityResult;
import io.rubinbft.orderer.msp.TestCa;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.MSPRole;
import org.hyperledger.fabric.protos.common.SignaturePolicy.NOutOf;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;
import org.junit.jupiter.api.Test;

/**
 * Seeded random policy trees checked against naive references. Fabric's evaluation is greedy and
 * order-dependent, so the references cover the cases where that cannot matter, plus one property
 * that holds in general.
 */
class SignaturePolicyPropertyTest {

  private static final long SEED = 0x5eed_0002L;
  private static final int ROUNDS = 400;
  private static final List<String> ROLES = List.of("client", "peer", "admin", "client", "orderer");
  private static final List<Identity> IDENTITIES = identities();

  private static List<Identity> identities() {
    ChannelMsps msps = GenesisChannel.msps();
    TestCa org1 = TestCa.org1();
    List<Identity> identities = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String role = ROLES.get(i % ROLES.size());
      IdentityResult result =
          msps.deserialize(
              TestCa.serialized("Org1MSP", org1.issue("node" + i, List.of(role)).certificate()));
      identities.add(((IdentityResult.Valid) result).identity());
    }
    return List.copyOf(identities);
  }

  /**
   * A random NOutOf/SignedBy tree; each leaf takes the next principal index from {@code leaves}.
   */
  private static org.hyperledger.fabric.protos.common.SignaturePolicy tree(
      Random random, int depth, List<Integer> leaves) {
    if (depth == 0 || leaves.size() == 1 || random.nextInt(3) == 0) {
      return org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
          .setSignedBy(leaves.removeLast())
          .build();
    }
    int children = 1 + random.nextInt(Math.min(4, leaves.size()));
    NOutOf.Builder gate = NOutOf.newBuilder().setN(random.nextInt(children + 2));
    for (int i = 0; i < children && !leaves.isEmpty(); i++) {
      gate.addRules(tree(random, depth - 1, leaves));
    }
    return org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
        .setNOutOf(gate)
        .build();
  }

  /** Threshold logic with each leaf satisfied iff its own identity signed. */
  private static boolean reference(
      org.hyperledger.fabric.protos.common.SignaturePolicy rule, List<Identity> signers) {
    if (rule.hasNOutOf()) {
      long satisfied =
          rule.getNOutOf().getRulesList().stream().filter(r -> reference(r, signers)).count();
      return satisfied >= rule.getNOutOf().getN();
    }
    return signers.contains(IDENTITIES.get(rule.getSignedBy()));
  }

  private static MSPPrincipal exact(Identity identity) {
    return MSPPrincipal.newBuilder()
        .setPrincipalClassification(MSPPrincipal.Classification.IDENTITY)
        .setPrincipal(
            SerializedIdentity.newBuilder()
                .setMspid(identity.mspId())
                .setIdBytes(ByteString.copyFromUtf8(TestCa.pem(identity.certificate())))
                .build()
                .toByteString())
        .build();
  }

  private static MSPPrincipal role(MSPRole.MSPRoleType role) {
    return MSPPrincipal.newBuilder()
        .setPrincipalClassification(MSPPrincipal.Classification.ROLE)
        .setPrincipal(
            MSPRole.newBuilder().setMspIdentifier("Org1MSP").setRole(role).build().toByteString())
        .build();
  }

  private static List<Identity> randomSigners(Random random) {
    List<Identity> signers = new ArrayList<>();
    for (Identity identity : IDENTITIES) {
      if (random.nextBoolean()) {
        signers.add(identity);
      }
    }
    Collections.shuffle(signers, random);
    return signers;
  }

  @Test
  void matchesThresholdLogicWhenEveryLeafHasItsOwnSigner() throws PolicyConfigException {
    Random random = new Random(SEED);
    System.out.println("seed " + SEED);
    SignaturePolicyEnvelope.Builder base = SignaturePolicyEnvelope.newBuilder();
    IDENTITIES.forEach(identity -> base.addIdentities(exact(identity)));
    for (int round = 0; round < ROUNDS; round++) {
      List<Integer> leaves = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
      Collections.shuffle(leaves, random);
      var rule = tree(random, 3, leaves);
      SignaturePolicy policy = SignaturePolicy.compile(base.clone().setRule(rule).build());
      List<Identity> signers = randomSigners(random);

      assertThat(policy.evaluate(signers).satisfied())
          .as("round %d: %s signed by %s", round, rule, signers)
          .isEqualTo(reference(rule, signers));
    }
  }

  @Test
  void anotherSignerAppendedNeverBreaksSatisfaction() throws PolicyConfigException {
    Random random = new Random(SEED + 1);
    System.out.println("seed " + (SEED + 1));
    SignaturePolicyEnvelope.Builder base = SignaturePolicyEnvelope.newBuilder();
    for (MSPRole.MSPRoleType type :
        List.of(
            MSPRole.MSPRoleType.MEMBER,
            MSPRole.MSPRoleType.CLIENT,
            MSPRole.MSPRoleType.PEER,
            MSPRole.MSPRoleType.ADMIN,
            MSPRole.MSPRoleType.ORDERER,
            MSPRole.MSPRoleType.MEMBER,
            MSPRole.MSPRoleType.CLIENT,
            MSPRole.MSPRoleType.ADMIN)) {
      base.addIdentities(role(type));
    }
    for (int round = 0; round < ROUNDS; round++) {
      List<Integer> leaves = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        leaves.add(random.nextInt(8));
      }
      var rule = tree(random, 3, leaves);
      SignaturePolicy policy = SignaturePolicy.compile(base.clone().setRule(rule).build());
      List<Identity> signers = randomSigners(random);
      List<Identity> more = new ArrayList<>(signers);
      IDENTITIES.stream().filter(i -> !signers.contains(i)).findAny().ifPresent(more::add);

      if (policy.evaluate(signers).satisfied()) {
        assertThat(policy.evaluate(more).satisfied())
            .as("round %d: %s signed by %s then %s", round, rule, signers, more)
            .isTrue();
      }
    }
  }

  @Test
  void oneSignerSatisfiesAtMostOneSignedByAndEvaluationIsGreedyAsInFabric()
      throws PolicyConfigException {
    Identity admin = IDENTITIES.get(2);
    Identity client = IDENTITIES.get(0);
    var twoOf =
        org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
            .setNOutOf(
                NOutOf.newBuilder()
                    .setN(2)
                    .addRules(
                        org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
                            .setSignedBy(0))
                    .addRules(
                        org.hyperledger.fabric.protos.common.SignaturePolicy.newBuilder()
                            .setSignedBy(1)))
            .build();
    SignaturePolicy memberAndAdmin =
        SignaturePolicy.compile(
            SignaturePolicyEnvelope.newBuilder()
                .addIdentities(role(MSPRole.MSPRoleType.MEMBER))
                .addIdentities(role(MSPRole.MSPRoleType.ADMIN))
                .setRule(twoOf)
                .build());

    assertThat(memberAndAdmin.evaluate(List.of(admin)).satisfied()).isFalse();
    assertThat(memberAndAdmin.evaluate(List.of(client, admin)).satisfied()).isTrue();
    // Fabric's MEMBER rule takes the admin first, leaving nobody for ADMIN: not satisfied.
    assertThat(memberAndAdmin.evaluate(List.of(admin, client)).satisfied()).isFalse();
  }
}
