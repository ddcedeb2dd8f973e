package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import io.grpc.Channel;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;

/**
 * A Deliver stream that follows a channel from its newest block on and never stops by itself, as a
 * peer's: it runs in the background until the orderer ends it.
 */
public final class FollowingDeliver {

  private final List<Long> received = new ArrayList<>();
  private final CountDownLatch firstBlock = new CountDownLatch(1);
  private final CompletableFuture<Status> end = new CompletableFuture<>();

  private FollowingDeliver() {}

  /** Opens the stream and returns once the orderer sent its first block. */
  public static FollowingDeliver open(
      Channel orderer,
      EnvelopeFactory client,
      String channel,
      ByteString tlsCertHash,
      Duration wait)
      throws InterruptedException {
    SeekInfo seek =
        SeekInfo.newBuilder()
            .setStart(SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()))
            .setStop(
                SeekPosition.newBuilder()
                    .setSpecified(SeekSpecified.newBuilder().setNumber(Long.MAX_VALUE)))
            .setBehavior(SeekInfo.SeekBehavior.BLOCK_UNTIL_READY)
            .build();
    FollowingDeliver stream = new FollowingDeliver();
    Thread.ofVirtual()
        .name("following-deliver")
        .start(
            () -> {
              try {
                stream.end.complete(
                    DeliverCalls.stream(
                        orderer, client.seek(channel, seek, tlsCertHash), wait, stream::receive));
              } catch (InterruptedException | RuntimeException e) {
                stream.end.completeExceptionally(e);
              }
            });
    if (!stream.firstBlock.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("no block within " + wait + "; ended: " + stream.end);
    }
    return stream;
  }

  private synchronized void receive(Block block) {
    received.add(block.getHeader().getNumber());
    firstBlock.countDown();
  }

  /** The numbers of the blocks received so far. */
  public synchronized List<Long> received() {
    return List.copyOf(received);
  }

  /** The status the orderer ended the stream with, waiting up to {@code wait} for it. */
  public Status end(Duration wait) throws InterruptedException {
    try {
      return end.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the stream did not end with a status: " + e, e);
    }
  }
}
