package io.rubinbft.orderer.service;

import static io.rubinbft.orderer.service.DeliverClient.specified;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.service.DeliverClient.Answer;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deliver with mutual TLS: the request's {@code tls_cert_hash} must be SHA-256 of the certificate
 * the client's TLS connection presented (User1's, from Org1's TLS CA).
 */
class MutualTlsDeliverTest {

  @TempDir Path directory;

  private ServiceNode node;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    node = ServiceNode.startWithMutualTls(directory);
    Path tls = ServiceNode.user1Tls();
    channel =
        node.connect(
            TlsChannelCredentials.newBuilder()
                .trustManager(FabricFixtures.orderer(1).resolve("tls/ca.crt").toFile())
                .keyManager(tls.resolve("client.crt").toFile(), tls.resolve("client.key").toFile())
                .build());
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    node.close();
  }

  @Test
  void theHashOfTheConnectionsCertificateIsServed() throws Exception {
    Answer answer = request(sha256(ServiceNode.user1Tls().resolve("client.crt")));

    assertThat(answer).isEqualTo(new Answer(List.of(DeliverServiceTest.stored(0)), Status.SUCCESS));
  }

  @Test
  void theHashOfAnotherCertificateIsABadRequest() throws Exception {
    Path otherCertificate =
        FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls/client.crt");

    assertThat(request(sha256(otherCertificate)))
        .isEqualTo(new Answer(List.of(), Status.BAD_REQUEST));
  }

  @Test
  void aMissingHashIsABadRequest() throws Exception {
    assertThat(request(ByteString.EMPTY)).isEqualTo(new Answer(List.of(), Status.BAD_REQUEST));
  }

  private Answer request(ByteString tlsCertHash) throws InterruptedException {
    DeliverClient client = new DeliverClient(AtomicBroadcastGrpc.newStub(channel));
    return client.request(
        DeliverClient.seekBy(
            ServiceNode.user1Envelopes(),
            specified(0),
            specified(0),
            SeekBehavior.FAIL_IF_NOT_READY,
            SeekContentType.BLOCK,
            tlsCertHash));
  }

  private static ByteString sha256(Path certificate) throws GeneralSecurityException {
    byte[] der = Pem.certificates(certificate).getFirst().getEncoded();
    return ByteString.copyFrom(MessageDigest.getInstance("SHA-256").digest(der));
  }
}
