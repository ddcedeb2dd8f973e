package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.Optional;
import org.bouncycastle.cert.X509CRLHolder;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMParser;

/** PEM decoding of the first certificate or CRL in a byte string, as Fabric's pem.Decode does. */
final class Pem {

  private Pem() {}

  /** The first PEM certificate in {@code pem}, or why there is none. */
  static Parsed<X509Certificate> certificate(ByteString pem) {
    Parsed<Object> object = firstObject(pem);
    if (object.value().isEmpty()) {
      return Parsed.failure(object.failure());
    }
    if (!(object.value().get() instanceof X509CertificateHolder holder)) {
      return Parsed.failure("the PEM block is not a certificate");
    }
    try {
      return Parsed.of(
          (X509Certificate)
              factory().generateCertificate(new ByteArrayInputStream(holder.getEncoded())));
    } catch (IOException | GeneralSecurityException e) {
      return Parsed.failure("parseCertificate failed: " + e.getMessage());
    }
  }

  /** The first PEM CRL in {@code pem}, or why there is none. */
  static Parsed<X509CRL> crl(ByteString pem) {
    Parsed<Object> object = firstObject(pem);
    if (object.value().isEmpty()) {
      return Parsed.failure(object.failure());
    }
    if (!(object.value().get() instanceof X509CRLHolder holder)) {
      return Parsed.failure("the PEM block is not a CRL");
    }
    try {
      return Parsed.of(
          (X509CRL) factory().generateCRL(new ByteArrayInputStream(holder.getEncoded())));
    } catch (IOException | GeneralSecurityException e) {
      return Parsed.failure("parse CRL failed: " + e.getMessage());
    }
  }

  private static Parsed<Object> firstObject(ByteString pem) {
    try (PEMParser parser =
        new PEMParser(new InputStreamReader(pem.newInput(), StandardCharsets.US_ASCII))) {
      Object object = parser.readObject();
      return object == null
          ? Parsed.failure("could not decode the PEM structure")
          : Parsed.of(object);
    } catch (IOException | RuntimeException e) {
      return Parsed.failure("could not decode the PEM structure: " + e.getMessage());
    }
  }

  private static CertificateFactory factory() throws GeneralSecurityException {
    return CertificateFactory.getInstance("X.509");
  }

  /** A parsed value or the reason parsing failed. */
  record Parsed<T>(Optional<T> value, String failure) {

    static <T> Parsed<T> of(T value) {
      return new Parsed<>(Optional.of(value), "");
    }

    static <T> Parsed<T> failure(String reason) {
      return new Parsed<>(Optional.empty(), reason);
    }

    T orElseThrow(String what) throws MspConfigException {
      return value.orElseThrow(() -> new MspConfigException(what + ": " + failure));
    }
  }
}
