package io.rubinbft.bft.wire;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Seeded random messages and WAL records within some {@link WireLimits}: every field drawn from its
 * whole range, lists from empty to their limit, request ids with multi-byte UTF-8.
 */
final class RandomWire {

  /** Characters of 1, 2, 3 and 4 UTF-8 bytes (the last a surrogate pair). */
  private static final String[] CHARACTERS = {"a", "Z", "0", "é", "ж", "€", "中", "😀"};

  private final Random random;
  private final WireLimits limits;

  RandomWire(Random random, WireLimits limits) {
    this.random = random;
    this.limits = limits;
  }

  /** One generator per message type, by type name. */
  static List<Kind<Message>> messageKinds() {
    return List.of(
        new Kind<>("PrePrepare", RandomWire::prePrepare),
        new Kind<>("Prepare", RandomWire::prepare),
        new Kind<>("Commit", RandomWire::commit),
        new Kind<>("Checkpoint", RandomWire::checkpoint),
        new Kind<>("ViewChange", RandomWire::viewChange),
        new Kind<>("NewView", RandomWire::newView),
        new Kind<>("Status", RandomWire::status),
        new Kind<>("FetchDecisions", RandomWire::fetchDecisions),
        new Kind<>("Decisions", RandomWire::decisions),
        new Kind<>("FetchProposal", RandomWire::fetchProposal),
        new Kind<>("ProposalBody", RandomWire::proposalBody));
  }

  /** One generator per WAL record type, by type name. */
  static List<Kind<WalRecord>> recordKinds() {
    return List.of(
        new Kind<>("Accepted", RandomWire::accepted),
        new Kind<>("Prepared", r -> new WalRecord.Prepared(r.preparedCertificate())),
        new Kind<>("Signed", r -> new WalRecord.Signed(r.commit())),
        new Kind<>("Decided", r -> new WalRecord.Decided(r.decision())),
        new Kind<>("StableCheckpoint", RandomWire::stableCheckpoint),
        new Kind<>("ViewChangeSent", r -> new WalRecord.ViewChangeSent(r.viewChange())),
        new Kind<>("ViewInstalled", r -> new WalRecord.ViewInstalled(r.newView())));
  }

  /** A named generator. */
  record Kind<T>(String name, Function<RandomWire, T> generator) {

    T generate(long seed, WireLimits limits) {
      return generator.apply(new RandomWire(new Random(seed), limits));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  PrePrepare prePrepare() {
    return new PrePrepare(
        random.nextLong(), random.nextLong(), digest(), proposal(), replica(), signature());
  }

  Prepare prepare() {
    return new Prepare(random.nextLong(), random.nextLong(), digest(), replica(), signature());
  }

  Commit commit() {
    return new Commit(random.nextLong(), random.nextLong(), digest(), replica(), signature());
  }

  Checkpoint checkpoint() {
    return new Checkpoint(random.nextLong(), digest(), replica(), signature());
  }

  /** As on the wire and in the WAL: proposals by digest (hollow). */
  ViewChange viewChange() {
    return ProposalBodies.hollowed(fullViewChange());
  }

  private ViewChange fullViewChange() {
    return new ViewChange(
        random.nextLong(),
        random.nextLong(),
        digest(),
        list(limits.replicas(), this::checkpoint),
        random.nextBoolean() ? decision() : null,
        list(limits.maxSequencesPerMessage(), this::preparedCertificate),
        replica(),
        signature());
  }

  /** As on the wire and in the WAL: proposals by digest (hollow). */
  NewView newView() {
    return ProposalBodies.hollowed(
        new NewView(
            random.nextLong(),
            list(limits.replicas(), this::fullViewChange),
            list(limits.maxSequencesPerMessage(), this::prePrepare),
            replica(),
            signature()));
  }

  FetchProposal fetchProposal() {
    return new FetchProposal(1 + (random.nextLong() & Long.MAX_VALUE - 1), digest(), replica());
  }

  ProposalBody proposalBody() {
    return new ProposalBody(proposal(), replica());
  }

  Status status() {
    return new Status(random.nextLong(), random.nextBoolean(), random.nextLong(), replica());
  }

  FetchDecisions fetchDecisions() {
    return new FetchDecisions(random.nextLong(), digest(), random.nextInt(), replica());
  }

  Decisions decisions() {
    return new Decisions(list(limits.maxSequencesPerMessage(), this::decision), replica());
  }

  PreparedCertificate preparedCertificate() {
    return new PreparedCertificate(prePrepare(), list(limits.replicas(), this::prepare));
  }

  Decision decision() {
    return new Decision(
        proposal(),
        digest(),
        random.nextLong() >>> 1,
        list(limits.replicas(), () -> new CommitSignature(replica(), signature())));
  }

  WalRecord.Accepted accepted() {
    return new WalRecord.Accepted(prePrepare(), random.nextBoolean() ? prepare() : null);
  }

  WalRecord.StableCheckpoint stableCheckpoint() {
    return new WalRecord.StableCheckpoint(
        random.nextLong(), digest(), list(limits.replicas(), this::checkpoint));
  }

  Proposal proposal() {
    long sequence = 1 + (random.nextLong() & Long.MAX_VALUE - 1);
    int count = random.nextInt(limits.maxRequestsPerProposal() + 1);
    List<Request> requests = new ArrayList<>(count);
    long budget = limits.maxBatchBytes();
    for (int i = 0; i < count; i++) {
      Request request = request((int) Math.min(budget, limits.maxRequestBytes()));
      budget -= wireSize(request);
      requests.add(request);
    }
    return new Proposal(sequence, digest(), requests, bytes(limits.maxPayloadBytes()));
  }

  /** A request of at most {@code maxBytes} bytes as the wire counts them. */
  private Request request(int maxBytes) {
    String client = string(random.nextInt(maxBytes + 1));
    String key = string(maxBytes - utf8(client));
    byte[] payload = bytes(maxBytes - utf8(client) - utf8(key));
    return new Request(new RequestId(client, key), payload);
  }

  private static int wireSize(Request request) {
    return utf8(request.id().client()) + utf8(request.id().key()) + request.payload().length;
  }

  private static int utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8).length;
  }

  /** A string of at most {@code maxBytes} UTF-8 bytes. */
  private String string(int maxBytes) {
    StringBuilder builder = new StringBuilder();
    int bytes = 0;
    int target = maxBytes == 0 ? 0 : random.nextInt(Math.min(maxBytes, 24) + 1);
    while (true) {
      String next = CHARACTERS[random.nextInt(CHARACTERS.length)];
      int size = utf8(next);
      if (bytes + size > target) {
        return builder.toString();
      }
      builder.append(next);
      bytes += size;
    }
  }

  private Digest digest() {
    return new Digest(bytes(1 + random.nextInt(WireReader.MAX_DIGEST_BYTES), 1));
  }

  private byte[] signature() {
    return bytes(limits.maxSignatureBytes());
  }

  private int replica() {
    return random.nextInt(limits.replicas());
  }

  /** Random bytes, of a length up to {@code max} and skewed small to keep nested values cheap. */
  private byte[] bytes(int max) {
    return bytes(random.nextInt(Math.min(max, 32) + 1), random.nextInt(8) == 0 ? max : 0);
  }

  private byte[] bytes(int length, int atLeast) {
    byte[] bytes = new byte[Math.max(length, atLeast)];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Mostly short lists (nesting multiplies), sometimes full ones. */
  private <T> List<T> list(int limit, Supplier<T> element) {
    int size = random.nextInt(8) == 0 ? limit : random.nextInt(Math.min(limit, 2) + 1);
    List<T> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      list.add(element.get());
    }
    return list;
  }
}
