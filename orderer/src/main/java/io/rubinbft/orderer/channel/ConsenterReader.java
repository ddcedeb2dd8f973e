package io.rubinbft.orderer.channel;

import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Orderers;

/** Reads and checks the ConsenterMapping ({@code /Channel/Orderer/Orderers}). */
final class ConsenterReader {

  private static final String PATH = "/Channel/Orderer/Orderers";
  private static final long MAX_CONSENTER_ID = 0xFFFF_FFFFL;

  private ConsenterReader() {}

  static ConsenterMapping read(Orderers orderers) {
    if (orderers.getConsenterMappingCount() == 0) {
      throw new IllegalArgumentException(PATH + " has no consenters");
    }
    List<Consenter> consenters = new ArrayList<>();
    for (org.hyperledger.fabric.protos.common.Consenter entry :
        orderers.getConsenterMappingList()) {
      consenters.add(consenter(entry));
    }
    try {
      return new ConsenterMapping(consenters);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PATH + ": " + e.getMessage(), e);
    }
  }

  private static Consenter consenter(org.hyperledger.fabric.protos.common.Consenter entry) {
    long id = Integer.toUnsignedLong(entry.getId());
    String where = PATH + " consenter " + id;
    if (id == 0 || id > MAX_CONSENTER_ID) {
      throw new IllegalArgumentException(where + ": id must be greater than 0");
    }
    if (entry.getHost().isEmpty()) {
      throw new IllegalArgumentException(where + ": host is empty");
    }
    if (entry.getPort() < 1 || entry.getPort() > 65535) {
      throw new IllegalArgumentException(
          where + ": port is " + entry.getPort() + " but must be between 1 and 65535");
    }
    if (entry.getMspId().isEmpty()) {
      throw new IllegalArgumentException(where + ": msp_id is empty");
    }
    return new Consenter(
        id,
        entry.getHost(),
        entry.getPort(),
        entry.getMspId(),
        entry.getIdentity(),
        certificate(entry.getIdentity(), where + ": identity"),
        certificate(entry.getClientTlsCert(), where + ": client_tls_cert"),
        certificate(entry.getServerTlsCert(), where + ": server_tls_cert"));
  }

  /** Parses a PEM (or DER) X.509 certificate, as Fabric stores them in the mapping. */
  static X509Certificate certificate(ByteString bytes, String what) {
    if (bytes.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(bytes.toByteArray()));
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          what + " is not an X.509 certificate: " + e.getMessage(), e);
    }
  }
}
