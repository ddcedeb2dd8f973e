package io.rubinbft.orderer.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.ServerCallStreamObserver;
import java.util.concurrent.atomic.AtomicInteger;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.Test;

/**
 * The turns a Broadcast stream takes from Fabric's throttle: one per envelope and one for the
 * client's end of the stream, as Fabric's throttled {@code Recv} charges every return (observed
 * with Fabric v3.1.5's orderers, orderer/docs/FABRIC-INTEROP.md).
 */
class BroadcastSessionThrottleTest {

  @Test
  void theClientsEndOfTheStreamTakesATurnBeforeTheStreamEnds() {
    AtomicInteger turns = new AtomicInteger();
    Responses responses = new Responses(turns);
    var session = BroadcastSession.open(responses, null, null, null, () -> turns.incrementAndGet());

    session.onCompleted();

    assertThat(turns).hasValue(1);
    assertThat(responses.turnsWhenCompleted).isEqualTo(1);
  }

  /** The server side of a call, recording when it was completed. */
  private static final class Responses extends ServerCallStreamObserver<BroadcastResponse> {

    private final AtomicInteger turns;
    int turnsWhenCompleted = -1;

    Responses(AtomicInteger turns) {
      this.turns = turns;
    }

    @Override
    public void onCompleted() {
      turnsWhenCompleted = turns.get();
    }

    @Override
    public void onNext(BroadcastResponse value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {}

    @Override
    public void setCompression(String compression) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {}

    @Override
    public void disableAutoInboundFlowControl() {}

    @Override
    public void disableAutoRequest() {}

    @Override
    public void request(int count) {}

    @Override
    public void setMessageCompression(boolean enable) {}
  }
}
