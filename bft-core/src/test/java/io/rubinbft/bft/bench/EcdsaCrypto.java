package io.rubinbft.bft.bench;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;

/** Real ECDSA P-256 with SHA-256 through the JDK's provider: one replica's keys and everyone's. */
final class EcdsaCrypto implements Crypto, ProposalSigner {

  private final KeyPair own;
  private final PublicKey[] publicKeys;
  private final Signature signer;
  private final Signature verifier;
  private final MessageDigest sha256;

  EcdsaCrypto(int self, KeyPair[] keys) {
    try {
      this.own = keys[self];
      this.publicKeys = new PublicKey[keys.length];
      for (int i = 0; i < keys.length; i++) {
        publicKeys[i] = keys[i].getPublic();
      }
      this.signer = Signature.getInstance("SHA256withECDSA");
      this.verifier = Signature.getInstance("SHA256withECDSA");
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK provides SHA256withECDSA", e);
    }
  }

  static KeyPair[] generate(int replicas, long seed) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
      random.setSeed(seed);
      generator.initialize(new ECGenParameterSpec("secp256r1"), random);
      KeyPair[] keys = new KeyPair[replicas];
      for (int i = 0; i < replicas; i++) {
        keys[i] = generator.generateKeyPair();
      }
      return keys;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK provides P-256", e);
    }
  }

  @Override
  public byte[] digest(byte[] data) {
    return sha256.digest(data);
  }

  @Override
  public byte[] sign(byte[] data) {
    try {
      signer.initSign(own.getPrivate());
      signer.update(data);
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("signing with our own key failed", e);
    }
  }

  @Override
  public boolean verify(int replica, byte[] data, byte[] signature) {
    try {
      verifier.initVerify(publicKeys[replica]);
      verifier.update(data);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | IndexOutOfBoundsException e) {
      return false;
    }
  }

  /**
   * Signs the view and the proposal's hash, standing in for Fabric's header-plus-metadata signature
   * (whose metadata names the view).
   */
  @Override
  public byte[] signProposal(long view, Proposal proposal) {
    return sign(commitBytes(view, proposal));
  }

  @Override
  public boolean verifyProposalSignature(
      int replica, long view, Proposal proposal, byte[] signature) {
    return verify(replica, commitBytes(view, proposal), signature);
  }

  private byte[] commitBytes(long view, Proposal proposal) {
    byte[] hash = digest(SignedBytes.proposal(proposal));
    return ByteBuffer.allocate(Long.BYTES + hash.length).putLong(view).put(hash).array();
  }
}
