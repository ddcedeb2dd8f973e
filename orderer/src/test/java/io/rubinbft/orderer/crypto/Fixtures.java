package io.rubinbft.orderer.crypto;

import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/** Reads the Fabric golden data (testdata/fabric, made by Fabric v3.1.5's own tools). */
public final class Fixtures {

  private Fixtures() {}

  public static Path root() {
    return FabricFixtures.root();
  }

  /** The bytes of a fixture file, by its path relative to the fixtures folder. */
  public static byte[] bytes(String relativePath) {
    return FabricTestData.bytes(relativePath);
  }

  public static String text(String relativePath) {
    return new String(bytes(relativePath), StandardCharsets.UTF_8);
  }

  public static Block block(int number) {
    try {
      return Block.parseFrom(bytes(String.format("blocks/bft-%03d.block", number)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An envelope from {@code envelopes/}, e.g. "tx-valid". */
  public static Envelope envelope(String name) {
    try {
      return Envelope.parseFrom(bytes("envelopes/" + name + ".envelope"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The signing certificate (PEM) cryptogen made for a user or node, e.g. "User1@org1.example.com".
   */
  public static String signCert(String org, String kind, String name) {
    return text(mspDir(org, kind, name) + "signcerts/" + name + "-cert.pem");
  }

  /** The private key (PEM, PKCS#8) of that certificate. */
  public static String signKey(String org, String kind, String name) {
    return text(mspDir(org, kind, name) + "keystore/priv_sk");
  }

  private static String mspDir(String org, String kind, String name) {
    return "crypto/" + org + "/" + kind + "/" + name + "/msp/";
  }

  /** The channel config in the genesis block (block 0's only envelope). */
  public static Config genesisConfig() {
    try {
      Envelope envelope = Envelope.parseFrom(block(0).getData().getData(0));
      Payload payload = Payload.parseFrom(envelope.getPayload());
      return ConfigEnvelope.parseFrom(payload.getData()).getConfig();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
