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
   * The outcome of one submission.
   *
   * @param accepted whether a quorum took it
   * @param refusals how many orderers refused it for which reason (see {@link
   *     LoadReport#refusals()})
   * @param refusalsByOrderer the same by orderer (host:port), orderers without refusals left out
   * @param answerNanos from sending it to the decision (a quorum took it, too many refused, or the
   *     timeout): what a Fabric gateway's Submit waits for before it answers the application
   */
  record Outcome(
      boolean accepted,
      Map<String, Integer> refusals,
      Map<String, Map<String, Integer>> refusalsByOrderer,
      long answerNanos) {}

  private final List<BroadcastStream> streams;
  private final List<String> names;
  private final int quorum;
  private final long timeoutNanos;

  QuorumSubmitter(List<BroadcastStream> streams, int quorum, long timeoutMillis) {
    if (quorum < 1 || quorum > streams.size()) {
      throw new IllegalArgumentException(
          "quorum is " + quorum + " but there are " + streams.size() + " orderers");
    }
    this.streams = streams;
    this.names = streams.stream().map(BroadcastStream::name).toList();
    this.quorum = quorum;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  @Override
  public Outcome submit(Envelope envelope) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    QuorumAnswer answer = new QuorumAnswer(quorum, names);
    for (int i = 0; i < streams.size(); i++) {
      streams.get(i).submit(envelope, answer.from(i));
    }
    return answer.await(deadline);
  }

  @Override
  public void close() {
    streams.forEach(BroadcastStream::close);
  }
}
