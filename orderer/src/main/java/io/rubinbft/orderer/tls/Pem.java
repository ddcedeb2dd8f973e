package io.rubinbft.orderer.tls;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/** Reads PEM certificates and keys as Fabric's tools write them (cryptogen: PKCS#8 EC keys). */
public final class Pem {

  private Pem() {}

  /** Every certificate in {@code pem}, in order; {@code source} names it in errors. */
  public static List<X509Certificate> certificates(byte[] pem, String source) {
    List<X509Certificate> certificates = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try (PEMParser parser = parser(pem)) {
      for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
        if (item instanceof X509CertificateHolder holder) {
          certificates.add(converter.getCertificate(holder));
        }
      }
    } catch (IOException | CertificateException e) {
      throw new IllegalArgumentException(source + " is not valid PEM: " + e.getMessage(), e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException(source + " holds no PEM certificate");
    }
    return List.copyOf(certificates);
  }

  /** The first private key in {@code pem} (PKCS#8 or traditional EC/RSA). */
  public static PrivateKey privateKey(byte[] pem, String source) {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (PEMParser parser = parser(pem)) {
      for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
        if (item instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (item instanceof PEMKeyPair pair) {
          return converter.getKeyPair(pair).getPrivate();
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(source + " is not valid PEM: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(source + " holds no unencrypted PEM private key");
  }

  public static List<X509Certificate> certificates(Path file) {
    return certificates(read(file), file.toString());
  }

  public static PrivateKey privateKey(Path file) {
    return privateKey(read(file), file.toString());
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static PEMParser parser(byte[] pem) {
    return new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)));
  }
}
