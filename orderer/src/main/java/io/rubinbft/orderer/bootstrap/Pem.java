package io.rubinbft.orderer.bootstrap;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/** PEM text as Go's {@code encoding/pem} writes it: 64-character lines, a final newline. */
final class Pem {

  private Pem() {}

  static byte[] certificate(X509Certificate certificate) {
    try {
      return encode("CERTIFICATE", certificate.getEncoded());
    } catch (CertificateException e) {
      throw new IllegalStateException("a certificate made in memory cannot be encoded", e);
    }
  }

  /** A PKCS#8 private key, labelled {@code PRIVATE KEY} as cryptogen's {@code priv_sk}. */
  static byte[] privateKey(byte[] pkcs8) {
    return encode("PRIVATE KEY", pkcs8);
  }

  /** The first certificate in PEM text; names the source when there is none. */
  static X509Certificate parseCertificate(byte[] pem, String source) {
    return io.rubinbft.orderer.tls.Pem.certificates(pem, source).getFirst();
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
}
