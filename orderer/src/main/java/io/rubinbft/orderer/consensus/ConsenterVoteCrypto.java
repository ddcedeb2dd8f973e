package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Sha256;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;

/**
 * bft-core's hashing and vote signatures (prepares, checkpoints, view changes, new views) with the
 * consenters' enrollment keys: the same keys that sign blocks, so a third party holding the channel
 * config can check any vote. Replica {@code i} is the i-th consenter by id.
 */
public final class ConsenterVoteCrypto implements Crypto {

  private final Sha256 sha256;
  private final EcdsaSigner signer;
  private final EcdsaVerifier verifier;
  private final List<PublicKey> replicaKeys;

  /**
   * @param signer this node's enrollment key, the one its consenter entry names
   * @throws IllegalArgumentException when a consenter's identity key is not usable
   */
  public ConsenterVoteCrypto(
      ConsenterMapping consenters,
      EcdsaSigner signer,
      EcKeys keys,
      EcdsaVerifier verifier,
      Sha256 sha256) {
    this.sha256 = sha256;
    this.signer = signer;
    this.verifier = verifier;
    this.replicaKeys = new ArrayList<>();
    for (Consenter consenter : consenters.consenters()) {
      try {
        replicaKeys.add(keys.importPublic(consenter.identityCertificate().getPublicKey()));
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException(
            "consenter " + consenter.id() + "'s identity key cannot be used: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public byte[] digest(byte[] data) {
    return sha256.hash(data);
  }

  @Override
  public byte[] sign(byte[] data) {
    return signer.sign(data);
  }

  @Override
  public boolean verify(int replica, byte[] data, byte[] signature) {
    if (replica < 0 || replica >= replicaKeys.size()) {
      return false;
    }
    return verifier.verify(replicaKeys.get(replica), signature, data).isValid();
  }
}
