package io.rubinbft.orderer.crypto;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CRLHolder;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.util.Encodable;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * The one PEM reader and writer: certificates and keys as Fabric's tools write them (cryptogen:
 * PKCS#8 EC keys), MSP certificates and CRLs decoded as Fabric's {@code pem.Decode} does (the first
 * block only), and PEM text as Go's {@code encoding/pem} writes it (64-character lines, a final
 * newline).
 */
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
    try {
      return new JcaPEMKeyConverter().getPrivateKey(privateKeyInfo(pem, source));
    } catch (IOException e) {
      throw new IllegalArgumentException(source + " is not valid PEM: " + e.getMessage(), e);
    }
  }

  /**
   * The first unencrypted private key in {@code pem} as PKCS#8 structure, from a PKCS#8 ({@code
   * PRIVATE KEY}, as cryptogen writes {@code priv_sk}) or traditional ({@code EC PRIVATE KEY})
   * block, for a provider of the caller's choice to import.
   */
  public static PrivateKeyInfo privateKeyInfo(byte[] pem, String source) {
    try (PEMParser parser = parser(pem)) {
      for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
        if (item instanceof PrivateKeyInfo info) {
          return info;
        }
        if (item instanceof PEMKeyPair pair) {
          return pair.getPrivateKeyInfo();
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

  /** The first PEM block of {@code pem} as a certificate, or why it is none. */
  public static Decoded<X509Certificate> firstCertificate(ByteString pem) {
    return first(
        pem,
        X509CertificateHolder.class,
        "the PEM block is not a certificate",
        "parseCertificate failed: ",
        der -> (X509Certificate) x509().generateCertificate(der));
  }

  /** The first PEM block of {@code pem} as a CRL, or why it is none. */
  public static Decoded<X509CRL> firstCrl(ByteString pem) {
    return first(
        pem,
        X509CRLHolder.class,
        "the PEM block is not a CRL",
        "parse CRL failed: ",
        der -> (X509CRL) x509().generateCRL(der));
  }

  /** Reads the DER of a PEM block into what it holds. */
  @FunctionalInterface
  private interface DerParser<T> {
    T parse(ByteArrayInputStream der) throws IOException, GeneralSecurityException;
  }

  /**
   * The first PEM block of {@code pem} as a {@code holder} (BouncyCastle's {@code
   * X509CertificateHolder} or {@code X509CRLHolder}) parsed by the JDK, or why it is none.
   */
  private static <T> Decoded<T> first(
      ByteString pem,
      Class<? extends Encodable> holder,
      String notThatKind,
      String parseFailed,
      DerParser<T> parser) {
    Decoded<Object> object = firstObject(pem);
    if (object.value().isEmpty()) {
      return Decoded.failure(object.failure());
    }
    if (!holder.isInstance(object.value().get())) {
      return Decoded.failure(notThatKind);
    }
    try {
      byte[] der = holder.cast(object.value().get()).getEncoded();
      return Decoded.of(parser.parse(new ByteArrayInputStream(der)));
    } catch (IOException | GeneralSecurityException e) {
      return Decoded.failure(parseFailed + e.getMessage());
    }
  }

  /** {@code certificate} as a PEM {@code CERTIFICATE} block. */
  public static byte[] encodeCertificate(X509Certificate certificate) {
    try {
      return encode("CERTIFICATE", certificate.getEncoded());
    } catch (CertificateException e) {
      throw new IllegalStateException("a certificate made in memory cannot be encoded", e);
    }
  }

  /** A PKCS#8 private key, labelled {@code PRIVATE KEY} as cryptogen's {@code priv_sk}. */
  public static byte[] encodePrivateKey(byte[] pkcs8) {
    return encode("PRIVATE KEY", pkcs8);
  }

  private static byte[] encode(String type, byte[] der) {
    StringWriter text = new StringWriter();
    try (PemWriter writer = new PemWriter(text)) {
      writer.writeObject(new PemObject(type, der));
    } catch (IOException e) {
      throw new UncheckedIOException("writing PEM to memory failed", e);
    }
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static Decoded<Object> firstObject(ByteString pem) {
    try (PEMParser parser =
        new PEMParser(new InputStreamReader(pem.newInput(), StandardCharsets.US_ASCII))) {
      Object object = parser.readObject();
      return object == null
          ? Decoded.failure("could not decode the PEM structure")
          : Decoded.of(object);
    } catch (IOException | RuntimeException e) {
      return Decoded.failure("could not decode the PEM structure: " + e.getMessage());
    }
  }

  private static CertificateFactory x509() throws GeneralSecurityException {
    return CertificateFactory.getInstance("X.509");
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static PEMParser parser(byte[] pem) {
    Reader text = new StringReader(new String(pem, StandardCharsets.US_ASCII));
    return new PEMParser(text);
  }

  /** A decoded value or the reason decoding failed. */
  public record Decoded<T>(Optional<T> value, String failure) {

    static <T> Decoded<T> of(T value) {
      return new Decoded<>(Optional.of(value), "");
    }

    static <T> Decoded<T> failure(String reason) {
      return new Decoded<>(Optional.empty(), reason);
    }

    /** The value, or {@code error} of the reason thrown. */
    public <E extends Exception> T orElseThrow(Function<String, E> error) throws E {
      return value.orElseThrow(() -> error.apply(failure));
    }
  }
}
