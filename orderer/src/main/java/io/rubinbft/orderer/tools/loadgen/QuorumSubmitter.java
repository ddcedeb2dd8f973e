package io.rubinbft.orderer.tools.loadgen;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * Sends each envelope to every orderer on long-lived pipelined streams ({@link
 * SubmitMode#PIPELINED}) and waits for the quorum's decision, with the success rule of Fabric's
 * gateway (SUCCESS means "in the request pool", not "ordered").
 */
final class QuorumSubmitter implements Submitter {

  /**
   * The outcome of one submission: accepted by a quorum or not, and how many orderers refused it
   * for which reason (see {@link LoadReport#refusals()}).
   */
  record Outcome(boolean accepted, Map<String, Integer> refusals) {}

  private final List<BroadcastStream> streams;
  private final int quorum;
  private final long timeoutNanos;

  QuorumSubmitter(List<BroadcastStream> streams, int quorum, long timeoutMillis) {
    if (quorum < 1 || quorum > streams.size()) {
      throw new IllegalArgumentException(
          "quorum is " + quorum + " but there are " + streams.size() + " orderers");
    }
    this.streams = streams;
    this.quorum = quorum;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  @Override
  public Outcome submit(Envelope envelope) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    QuorumAnswer answer = new QuorumAnswer(quorum, streams.size());
    for (BroadcastStream stream : streams) {
      stream.submit(envelope, answer);
    }
    return answer.await(deadline);
  }

  @Override
  public void close() {
    streams.forEach(BroadcastStream::close);
  }
}
