package io.rubinbft.orderer.channel;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.testdata.FabricTestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Reads what the channel and block tests need from the Fabric golden data (testdata/fabric, made by
 * Fabric v3.1.5's own tools).
 */
public final class Fixtures {

  private static final String ORDERERS = "crypto/ordererOrganizations/example.com/orderers";

  private Fixtures() {}

  public static Path root() {
    return FabricFixtures.root();
  }

  public static Path path(String relative) {
    return FabricTestData.path(relative);
  }

  public static byte[] bytes(String relative) {
    return FabricTestData.bytes(relative);
  }

  /** Block {@code number} as orderer1 serves it ({@code blocks/bft-NNN.block}). */
  public static Block block(int number) {
    return parseBlock(String.format("blocks/bft-%03d.block", number));
  }

  public static Block parseBlock(String relative) {
    try {
      return Block.parseFrom(bytes(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code blocks/facts.json}, or another facts file, as a JSON object. */
  public static JsonObject json(String relative) {
    return JsonParser.parseString(new String(bytes(relative), StandardCharsets.UTF_8))
        .getAsJsonObject();
  }

  /** The folder of orderer {@code n} (1..4): {@code msp/} and {@code tls/} below it. */
  public static String ordererDir(int n) {
    return ORDERERS + "/orderer" + n + ".example.com";
  }

  /** Orderer {@code n}'s enrollment certificate (its consenter identity) as PEM bytes. */
  public static byte[] ordererSigncertPem(int n) {
    return bytes(ordererDir(n) + "/msp/signcerts/orderer" + n + ".example.com-cert.pem");
  }

  public static X509Certificate certificate(byte[] pem) {
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new IllegalStateException("fixture certificate does not parse", e);
    }
  }
}
