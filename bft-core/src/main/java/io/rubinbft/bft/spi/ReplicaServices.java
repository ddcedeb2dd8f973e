package io.rubinbft.bft.spi;

/** Everything a replica needs from its host, bundled so constructors stay short. */
public record ReplicaServices(
    Crypto crypto, ProposalSigner signer, ProposalAssembler assembler, ProposalVerifier verifier) {

  public ReplicaServices {
    if (crypto == null || signer == null || assembler == null || verifier == null) {
      throw new IllegalArgumentException("every replica service is required");
    }
  }
}
