package io.rubinbft.orderer.policy;

import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.SignatureVerdict;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.msp.IdentityResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a signature set into the signers a policy counts, as Fabric's
 * SignatureSetToValidIdentities: an identity that does not deserialize and validate is dropped, a
 * repeated identity is dropped before its signature is checked (so nobody can make us verify the
 * same signer many times), and an identity whose signature does not verify is dropped.
 *
 * <p>Each signature is verified once here, however many sub-policies then look at the signers.
 */
public final class SignerVerifier {

  private static final Logger LOG = LoggerFactory.getLogger(SignerVerifier.class);

  private final ChannelMsps msps;
  private final EcdsaVerifier verifier;

  public SignerVerifier(ChannelMsps msps, EcdsaVerifier verifier) {
    this.msps = msps;
    this.verifier = verifier;
  }

  public List<Identity> verifiedSigners(List<SignedData> signatureSet) {
    List<Identity> signers = new ArrayList<>(signatureSet.size());
    Set<Identity> seen = new HashSet<>();
    for (int i = 0; i < signatureSet.size(); i++) {
      SignedData signed = signatureSet.get(i);
      switch (msps.deserialize(signed.identity())) {
        case IdentityResult.Invalid invalid ->
            LOG.debug("signature {}: invalid identity: {}", i, invalid.reason());
        case IdentityResult.Valid valid -> {
          Identity identity = valid.identity();
          if (seen.contains(identity)) {
            LOG.debug("signature {}: de-duplicating identity {}", i, identity);
            continue;
          }
          SignatureVerdict verdict =
              verifier.verify(identity.publicKey(), signed.signature(), signed.data());
          if (!verdict.isValid()) {
            LOG.debug("signature {} by {} is invalid: {}", i, identity, verdict.reason());
            continue;
          }
          seen.add(identity);
          signers.add(identity);
        }
      }
    }
    return signers;
  }
}
