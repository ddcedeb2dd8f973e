package io.rubinbft.orderer.identity;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;

/**
 * A Fabric identity that can sign: the MSP id, the enrollment certificate and its private key, as a
 * local MSP folder holds them ({@code signcerts/} and {@code keystore/}, cryptogen's layout). The
 * node signs blocks with it; clients (the load generator) sign envelopes with it.
 */
public final class SigningIdentity {

  private final String mspId;
  private final X509Certificate certificate;
  private final ByteString serialized;
  private final EcdsaSigner signer;

  public SigningIdentity(String mspId, byte[] certificatePem, EcdsaSigner signer) {
    this.mspId = mspId;
    this.certificate = Pem.certificates(certificatePem, "the signing certificate").getFirst();
    this.serialized =
        SerializedIdentity.newBuilder()
            .setMspid(mspId)
            .setIdBytes(ByteString.copyFrom(certificatePem))
            .build()
            .toByteString();
    this.signer = signer;
  }

  /**
   * Loads the identity in MSP folder {@code mspDirectory}: the one certificate in {@code
   * signcerts/} and the one key in {@code keystore/}.
   *
   * @throws IllegalArgumentException naming the folder and what is missing or unreadable
   */
  public static SigningIdentity fromMspDirectory(
      Path mspDirectory, String mspId, CryptoProvider provider) {
    Path certificate = onlyFile(mspDirectory.resolve("signcerts"));
    Path key = onlyFile(mspDirectory.resolve("keystore"));
    try {
      EcdsaSigner signer =
          new EcdsaSigner(provider, new EcKeys(provider).privateKeyFromPem(Files.readString(key)));
      return new SigningIdentity(mspId, Files.readAllBytes(certificate), signer);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot load the signing identity in " + mspDirectory + ": " + e.getMessage(), e);
    }
  }

  public String mspId() {
    return mspId;
  }

  /** The enrollment certificate: a consenter's entry in the channel config names it. */
  public X509Certificate certificate() {
    return certificate;
  }

  /** The private key's signer (low-S ECDSA-SHA256), for blocks and consensus votes. */
  public EcdsaSigner signer() {
    return signer;
  }

  /** The marshalled {@code msp.SerializedIdentity}: a creator or a signer in Fabric messages. */
  public ByteString serialized() {
    return serialized;
  }

  /** A low-S ECDSA-SHA256 signature over the concatenated parts. */
  public byte[] sign(byte[]... parts) {
    return signer.sign(parts);
  }

  private static Path onlyFile(Path directory) {
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files = listing.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list " + directory + ": " + e.getMessage(), e);
    }
    if (files.size() != 1) {
      throw new IllegalArgumentException(
          directory + " must hold exactly one file but holds " + files.size());
    }
    return files.getFirst();
  }
}
