package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.ByteString;
import java.nio.file.Path;
import org.hyperledger.fabric.protos.common.Consenter;

/**
 * One entry of configtx.yaml's {@code ConsenterMapping}: the consenter id, its cluster host and
 * port, its MSP, and the PEM files of its enrollment certificate and TLS certificates.
 */
public record ConsenterSpec(
    int id,
    String host,
    int port,
    String mspId,
    Path identity,
    Path clientTlsCert,
    Path serverTlsCert) {

  public ConsenterSpec {
    if (id < 1) {
      throw new IllegalArgumentException("consenter id is " + id + " but must be at least 1");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException(
          "consenter " + id + " port " + port + " is not a TCP port");
    }
  }

  /** The config's {@code Consenter}, certificates byte for byte as in their files. */
  public Consenter toConsenter() {
    return Consenter.newBuilder()
        .setId(id)
        .setHost(host)
        .setPort(port)
        .setMspId(mspId)
        .setIdentity(ByteString.copyFrom(SmallFiles.read(identity)))
        .setClientTlsCert(ByteString.copyFrom(SmallFiles.read(clientTlsCert)))
        .setServerTlsCert(ByteString.copyFrom(SmallFiles.read(serverTlsCert)))
        .build();
  }
}
